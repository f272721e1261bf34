import { initBackend } from '@partonfit/core';
import { beforeAll, describe } from 'vitest';

/** The backends the step tests run on. */
export const TEST_BACKENDS = ['cpu', 'wasm'] as const;

/** A `describe` block repeated on every test backend, with that backend active for its tests. */
export function describeOnBackends(name: string, body: () => void): void {
  describe.each(TEST_BACKENDS)(`${name} [%s]`, (backend) => {
    beforeAll(async () => {
      await initBackend(backend);
    });
    body();
  });
}
