import { initBackend } from '@partonfit/core';
import { beforeAll, describe } from 'vitest';

/** The backends every layer test runs on. */
export const TEST_BACKENDS = ['cpu', 'wasm'] as const;

/** One of {@link TEST_BACKENDS}. */
export type TestBackend = (typeof TEST_BACKENDS)[number];

/**
 * A `describe` block repeated on every test backend, with that backend (and the gradients that
 * tfjs-layers registers) active for its tests.
 */
export function describeOnBackends(name: string, body: (backend: TestBackend) => void): void {
  describe.each(TEST_BACKENDS)(`${name} [%s]`, (backend) => {
    beforeAll(async () => {
      await initBackend(backend);
    });
    body(backend);
  });
}
