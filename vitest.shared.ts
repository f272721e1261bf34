import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineProject } from 'vitest/config';

/** Workspace packages resolve to their TypeScript sources in tests. */
const SOURCE_CONDITIONS = ['@partonfit/source', 'node', 'import', 'default'];
/**
 * The cache folder of every test (`$XDG_CACHE_HOME`): fit inputs, operators and downloads that
 * tests prepare land in the temporary folder, never in the user's own `~/.cache/partonfit`.
 */
const TEST_ENVIRONMENT = { XDG_CACHE_HOME: join(tmpdir(), 'partonfit-tests', 'cache') };
/** Slow tests of real external programs, in the `integration` project. */
const INTEGRATION_TESTS = 'src/**/*.integration.test.ts';

/**
 * The vitest project of one workspace package: its tests sit beside the code in `src/`, and
 * workspace packages are resolved to their TypeScript sources (the `@partonfit/source` export
 * condition) so tests never wait on a build.
 */
export function packageProject(name: string) {
  return defineProject({
    resolve: { conditions: SOURCE_CONDITIONS },
    ssr: { resolve: { conditions: SOURCE_CONDITIONS } },
    test: {
      name,
      include: ['src/**/*.test.ts'],
      exclude: [INTEGRATION_TESTS],
      environment: 'node',
      env: TEST_ENVIRONMENT,
      testTimeout: 60_000,
      // A worker runs its files one after another in one module context instead of importing
      // TensorFlow.js and the packages afresh for each file: on 2 cores the unit tests take 183 s
      // instead of 320 s. Tests leave no state behind them: every TensorFlow.js test sets its
      // backend (`describeOnBackends`, or the native fixtures' `runOn`), environment changes are
      // undone (`vi.unstubAllEnvs`), and the one test that mocks a module imports the modules it
      // counts on afresh (`vi.resetModules`). Runs with the files shuffled pass as well.
      isolate: false,
    },
  });
}

/**
 * The `integration` project: every package's `src/**\/*.integration.test.ts`, the slow tests
 * that start real external programs (a SLURM cluster, a browser, a compiler), run the built
 * command line or train long fits on every backend. `npm run test:integration` runs them (and CI, after `npm test`), so that
 * `npm test` stays short.
 */
export function integrationProject() {
  return defineProject({
    resolve: { conditions: SOURCE_CONDITIONS },
    ssr: { resolve: { conditions: SOURCE_CONDITIONS } },
    test: {
      name: 'integration',
      include: [`packages/*/${INTEGRATION_TESTS}`],
      environment: 'node',
      env: TEST_ENVIRONMENT,
      testTimeout: 600_000,
      hookTimeout: 120_000,
      // One file at a time: these tests time real programs (a SLURM requeue, a browser, the
      // addon's compiler) that a second file beside them slows past their waits.
      maxWorkers: 1,
    },
  });
}
