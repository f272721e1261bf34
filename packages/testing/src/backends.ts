import { backendUnavailableReason, initBackend } from '@partonfit/backend';
import { beforeAll, describe } from 'vitest';

/** The backends every layer and trainer test runs on. */
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
 * A `describe` block repeated on each of `backends` (default {@link TEST_BACKENDS}), with that
 * backend (and the gradients that tfjs-layers registers) active for its tests. The `native`
 * blocks are skipped when its addon is not built.
 */
export function describeOnBackends(
  name: string,
  body: (backend: TestBackend) => void,
  backends: readonly TestBackend[] = TEST_BACKENDS,
): void {
  for (const backend of backends) {
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
