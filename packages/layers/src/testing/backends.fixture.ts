import { backendUnavailableReason, initBackend } from '@partonfit/core';
import { beforeAll, describe } from 'vitest';

/** The backends every layer test runs on. */
export const TEST_BACKENDS = ['cpu', 'wasm', 'native'] as const;

/** One of {@link TEST_BACKENDS}. */
export type TestBackend = (typeof TEST_BACKENDS)[number];

/**
 * Why the `native` backend cannot run here (its addon is compiled at install and needs a C++
 * compiler and a BLAS), or undefined when it can; its test blocks are then skipped, visibly.
 */
const nativeUnavailable = await backendUnavailableReason('native');
if (nativeUnavailable !== undefined) {
  console.warn(`tests on the native backend skipped: ${nativeUnavailable}`);
}

/**
 * A `describe` block repeated on every test backend, with that backend (and the gradients that
 * tfjs-layers registers) active for its tests. The `native` blocks are skipped when its addon
 * is not built.
 */
export function describeOnBackends(name: string, body: (backend: TestBackend) => void): void {
  for (const backend of TEST_BACKENDS) {
    describe.skipIf(backend === 'native' && nativeUnavailable !== undefined)(
      `${name} [${backend}]`,
      () => {
        beforeAll(async () => {
          await initBackend(backend);
        });
        body(backend);
      },
    );
  }
}
