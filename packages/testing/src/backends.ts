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
 * The backends `PARTONFIT_TEST_BACKENDS` (comma-separated) restricts the tests to, e.g. `native`
 * where only the native addon changed (the addon's build-variant test); undefined: all.
 */
const onlyBackends = process.env.PARTONFIT_TEST_BACKENDS?.split(',').map((name) => name.trim());
if (onlyBackends !== undefined) {
  console.warn(
    `tests on backends other than ${onlyBackends.join(', ')} skipped (PARTONFIT_TEST_BACKENDS)`,
  );
}

/**
 * A `describe` block repeated on each of `backends` (default {@link TEST_BACKENDS}), with that
 * backend (and the gradients that tfjs-layers registers) active for its tests. The `native`
 * blocks are skipped when its addon is not built, and every block of a backend that
 * `PARTONFIT_TEST_BACKENDS` leaves out.
 */
export function describeOnBackends(
  name: string,
  body: (backend: TestBackend) => void,
  backends: readonly TestBackend[] = TEST_BACKENDS,
): void {
  for (const backend of backends) {
    const skipped =
      (backend === 'native' && nativeUnavailable !== undefined) ||
      (onlyBackends !== undefined && !onlyBackends.includes(backend));
    describe.skipIf(skipped)(`${name} [${backend}]`, () => {
      beforeAll(async () => {
        await initBackend(backend);
      });
      body(backend);
    });
  }
}
