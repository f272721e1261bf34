import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NATIVE_ADDON_VARIABLE } from './addon/load-addon.js';
import { OWN_KERNELS_BLAS } from './addon/native-addon.js';
import type { NativeAddonInfo } from './addon/native-addon.js';
import { parseCpuFlags } from './addon/openblas-coretype.js';

const PACKAGE_ROOT = fileURLToPath(new URL('..', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const VITEST = join(REPO_ROOT, 'node_modules', 'vitest', 'vitest.mjs');

/**
 * The tests run against each variant: the native kernels against the cpu backend and float64
 * loops, the layers against float64 loops, and the trainer's replica independence (R replicas
 * together equal R single-replica trainings) — on the native backend only, the one the addon
 * changes.
 */
const CHILD_TESTS = [
  'packages/backend-native/src/kernels',
  'packages/backend-native/src/native-backend.test.ts',
  'packages/backend-native/src/addon/blas-products.test.ts',
  'packages/layers/src/ops/matmul-constant.test.ts',
  'packages/layers/src/ops/staged-sum.test.ts',
  'packages/layers/src/sum-rules/sum-rule-normalisation.test.ts',
  'packages/layers/src/sum-rules/grid-accuracy.test.ts',
  'packages/layers/src/losses/chi2-loss.test.ts',
  'packages/layers/src/losses/lagrange-penalty.test.ts',
  'packages/layers/src/multi-dense/multi-dense.test.ts',
  'packages/layers/src/multi-dense/multi-dense-network.test.ts',
  'packages/layers/src/preprocessing/preprocessing.test.ts',
  'packages/layers/src/rotation/flavour-rotation.test.ts',
  'packages/layers/src/observables/observable-layer.test.ts',
  'packages/layers/src/observables/luminosity-contraction.test.ts',
  'packages/layers/src/feature-scaling/network-input.test.ts',
  'packages/trainer/src/optimizers/replica-independence.test.ts',
];

/** The child's test that checks it loaded the addon PARTONFIT_NATIVE_ADDON names. */
const IDENTITY_TEST = 'should say which BLAS and vector path it runs, and from which file';

/** Why the variants cannot be built here, or undefined when they can. */
function compilerMissing(): string | undefined {
  const compiler = process.env.CXX || 'c++';
  try {
    execFileSync(compiler, ['--version'], { stdio: 'ignore' });
    return undefined;
  } catch {
    return `no C++ compiler '${compiler}' (apt-get install g++ make python3)`;
  }
}

const missing = compilerMissing();
if (missing !== undefined) {
  console.warn(`skipping the tests of the native addon's build variants: ${missing}`);
}

/** The CPU's flags from /proc/cpuinfo (none where it cannot be read). */
function cpuFlags(): ReadonlySet<string> {
  try {
    return parseCpuFlags(readFileSync('/proc/cpuinfo', 'utf8'));
  } catch {
    return new Set();
  }
}

/**
 * The vector path an addon compiled with clones up to `widest` runs on this CPU: x86-64-v4
 * (AVX-512 F, BW, CD, DQ, VL) for AVX-512, x86-64-v3 (AVX2, FMA, BMI2, F16C, MOVBE) for AVX2.
 */
function expectedVectorPath(widest: 'AVX-512' | 'AVX2'): NativeAddonInfo['vectorPath'] {
  const flags = cpuFlags();
  const has = (names: string[]) => names.every((name) => flags.has(name));
  if (widest === 'AVX-512' && has(['avx512f', 'avx512bw', 'avx512cd', 'avx512dq', 'avx512vl'])) {
    return 'AVX-512';
  }
  return has(['avx2', 'fma', 'bmi2', 'f16c', 'movbe']) ? 'AVX2' : 'baseline';
}

interface Variant {
  readonly name: string;
  /** The build options, as a user sets them for `npm install`. */
  readonly env: Readonly<Record<string, string>>;
  readonly blas: string;
  readonly vectorPath: NativeAddonInfo['vectorPath'];
  /** What status.json says about the CBLAS it did not find (undefined: nothing). */
  readonly noCblas: unknown;
}

const VARIANTS: readonly Variant[] = [
  {
    // A machine without a CBLAS: the probe cannot link the library, the build falls back to the
    // own kernels by itself.
    name: 'no-cblas-found',
    env: { PARTONFIT_CBLAS_LIBS: '-lpartonfit_no_such_blas' },
    blas: OWN_KERNELS_BLAS,
    vectorPath: expectedVectorPath('AVX-512'),
    noCblas: expect.stringMatching(/^no CBLAS found: apt-get install libopenblas-dev/),
  },
  {
    // PARTONFIT_CBLAS=none asks for the own kernels, here with clones up to AVX2 only, so that
    // the own GEMM's and the luminosity kernels' AVX2 paths run on an AVX-512 CPU as well.
    name: 'avx2-cblas-none',
    env: { PARTONFIT_CBLAS: 'none', PARTONFIT_NATIVE_ISA: 'avx2' },
    blas: OWN_KERNELS_BLAS,
    vectorPath: expectedVectorPath('AVX2'),
    noCblas: undefined,
  },
];

interface Finished {
  readonly code: number | null;
  readonly output: string;
}

/** Runs a command to the end without blocking the test worker. */
function run(args: readonly string[], env: NodeJS.ProcessEnv, cwd: string): Promise<Finished> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', reject);
    child.on('close', (code) => {
      resolveRun({ code, output });
    });
  });
}

/** The parent's environment without vitest's own variables, plus `extra`. */
function childEnvironment(extra: Readonly<Record<string, string>>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('VITEST') && key !== NATIVE_ADDON_VARIABLE) env[key] = value;
  }
  return { ...env, ...extra };
}

interface VitestReport {
  readonly numFailedTests: number;
  readonly numPassedTests: number;
  readonly testResults: readonly {
    readonly assertionResults: readonly { readonly fullName: string; readonly status: string }[];
  }[];
}

describe.skipIf(missing !== undefined)("the native addon's build variants", () => {
  let folder = '';
  const addons = new Map<string, string>();

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'partonfit-addon-variants-'));
    for (const variant of VARIANTS) {
      const out = join(folder, variant.name);
      const built = await run(
        [join(PACKAGE_ROOT, 'scripts', 'build-addon.js'), '--out', out],
        childEnvironment(variant.env),
        PACKAGE_ROOT,
      );
      if (built.code !== 0)
        throw new Error(`building ${variant.name} failed:
${built.output}`);
      addons.set(variant.name, join(out, 'build', 'Release', 'partonfit_native.node'));
    }
  }, 900_000);

  afterAll(async () => {
    if (folder !== '') await rm(folder, { recursive: true, force: true });
  });

  it.each(VARIANTS)(
    'should build $name and record its BLAS and vector path',
    async ({ name, blas, vectorPath, noCblas }) => {
      const addon = addons.get(name) ?? '';
      const status = JSON.parse(
        await readFile(join(folder, name, 'build', 'status.json'), 'utf8'),
      ) as Record<string, unknown>;
      expect(status).toMatchObject({ built: true, blas, vectorPath });
      expect(status.noCblas).toEqual(noCblas);
      const shown = await run(
        ['-p', `JSON.stringify(require(${JSON.stringify(addon)}).info())`],
        childEnvironment({}),
        folder,
      );
      expect(shown).toMatchObject({ code: 0 });
      const info = JSON.parse(shown.output) as NativeAddonInfo;
      expect(info.blas).toBe(blas);
      expect(info.vectorPath).toBe(vectorPath);
    },
  );

  it.each(VARIANTS)(
    'should pass the kernel, layer and replica-independence tests on $name',
    async ({ name }) => {
      const addon = addons.get(name) ?? '';
      const report = join(folder, `${name}-report.json`);
      const tested = await run(
        [VITEST, 'run', ...CHILD_TESTS, '--reporter=json', `--outputFile=${report}`],
        // only the native backend changes with the addon: the cpu and wasm blocks would repeat
        childEnvironment({ [NATIVE_ADDON_VARIABLE]: addon, PARTONFIT_TEST_BACKENDS: 'native' }),
        REPO_ROOT,
      );
      const result = JSON.parse(await readFile(report, 'utf8')) as VitestReport;
      const assertions = result.testResults.flatMap((file) => file.assertionResults);
      expect({ code: tested.code, output: tested.output.slice(-4000) }).toMatchObject({ code: 0 });
      expect(result.numFailedTests).toBe(0);
      // The child really ran on this addon: its identity test passed (not skipped), and so did
      // the tests on the native backend.
      expect(
        assertions.filter((test) => test.fullName.endsWith(IDENTITY_TEST)).map((t) => t.status),
      ).toEqual(['passed']);
      const onNative = assertions.filter((test) => test.fullName.includes('[native]'));
      expect(onNative.length).toBeGreaterThan(100);
      expect(onNative.every((test) => test.status === 'passed')).toBe(true);
    },
  );
});
