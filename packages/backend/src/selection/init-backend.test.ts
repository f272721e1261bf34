import * as tf from '@tensorflow/tfjs-core';
import { MathBackendCPU } from '@tensorflow/tfjs-backend-cpu';
import { afterEach, describe, expect, it } from 'vitest';
import { BackendUnavailableError, InvalidArgumentError } from '@partonfit/core';
import { backendUnavailableReason, describeBackendSelection, initBackend } from './init-backend.js';

/** The error Node gives for a package that is not installed. */
function notInstalled(specifier: string): Error {
  return Object.assign(new Error(`Cannot find package '${specifier}' imported from /somewhere`), {
    code: 'ERR_MODULE_NOT_FOUND',
  });
}

/** An importer where the named packages are absent and everything else imports normally. */
function importerWithout(...absent: string[]) {
  return async (specifier: string): Promise<unknown> => {
    if (absent.includes(specifier)) throw notInstalled(specifier);
    return (await import(specifier)) as unknown;
  };
}

const NATIVE = ['@tensorflow/tfjs-node-gpu', '@tensorflow/tfjs-node'];
const BACKEND_NATIVE = '@partonfit/backend-native';
const NOT_BUILT =
  'not built: no CBLAS found (apt-get install libopenblas-dev, or set PARTONFIT_CBLAS / PARTONFIT_CBLAS_LIBS, then npm rebuild @partonfit/backend-native)';

/** An importer where the native backend's package installed but its addon was not compiled. */
function importerWithNativeNotBuilt(...absent: string[]) {
  return async (specifier: string): Promise<unknown> => {
    if (specifier === BACKEND_NATIVE) {
      return { backendStatus: () => ({ available: false, reason: NOT_BUILT }) };
    }
    return importerWithout(...absent)(specifier);
  };
}

/** Whether the real native backend is built here (its tests skip visibly otherwise). */
const nativeBuilt = await (
  import(BACKEND_NATIVE as string) as Promise<{
    backendStatus: () => { available: boolean; reason?: string };
  }>
).then(
  (module) => {
    const status = module.backendStatus();
    if (!status.available) console.warn(`native backend tests skipped: ${status.reason ?? ''}`);
    return status.available;
  },
  (error: unknown) => {
    console.warn(`native backend tests skipped: ${String(error)}`);
    return false;
  },
);

/** d/dx Σ x² = 2x, which fails unless gradients are registered for the active backend. */
function gradientOfSumOfSquares(values: number[]): number[] {
  return tf.tidy(() => {
    const gradient = tf.grad((x: tf.Tensor) => tf.sum(tf.mul(x, x)));
    return Array.from(gradient(tf.tensor1d(values)).dataSync());
  });
}

afterEach(async () => {
  if (Object.hasOwn(tf.engine().registryFactory, 'tensorflow')) tf.removeBackend('tensorflow');
  await tf.setBackend('cpu');
});

describe('initBackend', () => {
  it.each(['wasm', 'cpu'] as const)(
    'should run the %s backend with gradients registered',
    async (backend) => {
      const selection = await initBackend(backend);
      expect(selection.backend).toBe(backend);
      expect(tf.getBackend()).toBe(backend);
      expect(gradientOfSumOfSquares([1, -2, 3.5])).toEqual([2, -4, 7]);
      const product = tf.tidy(
        () => tf.matMul(tf.tensor2d([[1, 2]]), tf.tensor2d([[3], [4]])).dataSync()[0],
      );
      expect(product).toBe(11);
    },
  );

  it('should choose wasm under auto when the native packages are absent, saying why', async () => {
    const selection = await initBackend('auto', {
      importModule: importerWithout(...NATIVE, BACKEND_NATIVE),
    });
    expect(selection.backend).toBe('wasm');
    expect(selection.skipped).toEqual([
      {
        backend: 'tensorflow',
        packageName: '@tensorflow/tfjs-node-gpu',
        reason: 'not installed (npm install @tensorflow/tfjs-node-gpu@4.22.0)',
      },
      {
        backend: 'tensorflow',
        packageName: '@tensorflow/tfjs-node',
        reason: 'not installed (npm install @tensorflow/tfjs-node@4.22.0)',
      },
      {
        backend: 'native',
        packageName: '@partonfit/backend-native',
        reason: 'not installed (npm install @partonfit/backend-native)',
      },
    ]);
    expect(describeBackendSelection(selection)).toBe(
      [
        'backend: wasm (@tensorflow/tfjs-backend-wasm; WebAssembly (XNNPACK, SIMD), one thread in Node)',
        '  skipped tensorflow (@tensorflow/tfjs-node-gpu): not installed (npm install @tensorflow/tfjs-node-gpu@4.22.0)',
        '  skipped tensorflow (@tensorflow/tfjs-node): not installed (npm install @tensorflow/tfjs-node@4.22.0)',
        '  skipped native (@partonfit/backend-native): not installed (npm install @partonfit/backend-native)',
      ].join('\n'),
    );
  });

  it('should say in one line why native was skipped when its addon was not built', async () => {
    const selection = await initBackend('auto', {
      importModule: importerWithNativeNotBuilt(...NATIVE),
    });
    expect(selection.backend).toBe('wasm');
    expect(describeBackendSelection(selection).split('\n')).toContain(
      `  skipped native (@partonfit/backend-native): ${NOT_BUILT}`,
    );
  });

  it('should fall back to cpu under auto when wasm is absent too', async () => {
    const selection = await initBackend('auto', {
      importModule: importerWithout(...NATIVE, BACKEND_NATIVE, '@tensorflow/tfjs-backend-wasm'),
    });
    expect(selection.backend).toBe('cpu');
    expect(selection.skipped.map((skip) => skip.packageName)).toEqual([
      ...NATIVE,
      BACKEND_NATIVE,
      '@tensorflow/tfjs-backend-wasm',
    ]);
  });

  it('should fail for a named native backend that was not built, with the reason and the packages it needs', async () => {
    const failure = initBackend('native', { importModule: importerWithNativeNotBuilt() });
    await expect(failure).rejects.toThrow(BackendUnavailableError);
    const error = (await failure.catch((caught: unknown) => caught)) as BackendUnavailableError;
    expect(error.backend).toBe('native');
    expect(error.message).toContain(`@partonfit/backend-native: ${NOT_BUILT}`);
    expect(error.message).toContain('a C++ compiler, make and python3, and optionally a CBLAS');
    expect(error.message).toContain('apt-get install g++ make python3 libopenblas-dev');
    expect(error.message).toContain("or run on 'wasm' or 'cpu'");
  });

  it('should prefer the tensorflow backend when a native package registers it', async () => {
    const importModule = async (specifier: string): Promise<unknown> => {
      if (specifier === '@tensorflow/tfjs-node-gpu') throw notInstalled(specifier);
      if (specifier === '@tensorflow/tfjs-node') {
        // What tfjs-node does on import: register the 'tensorflow' backend with tfjs-core.
        tf.registerBackend('tensorflow', () => new MathBackendCPU(), 3);
        return {};
      }
      return (await import(specifier)) as unknown;
    };
    const selection = await initBackend('auto', { importModule });
    expect(selection.backend).toBe('tensorflow');
    expect(selection.packageName).toBe('@tensorflow/tfjs-node');
    expect(tf.getBackend()).toBe('tensorflow');
    expect(selection.skipped.map((skip) => skip.packageName)).toEqual([
      '@tensorflow/tfjs-node-gpu',
    ]);
  });

  it('should report a native package that is installed but cannot load (no CUDA libraries)', async () => {
    const importModule = async (specifier: string): Promise<unknown> => {
      if (specifier === '@tensorflow/tfjs-node-gpu') {
        throw new Error(
          'libcudart.so.11.0: cannot open shared object file: No such file or directory',
        );
      }
      if (specifier === '@tensorflow/tfjs-node') throw notInstalled(specifier);
      return (await import(specifier)) as unknown;
    };
    const selection = await initBackend('auto', { importModule });
    expect(selection.skipped[0]?.reason).toBe(
      'installed but failed to load: libcudart.so.11.0: cannot open shared object file: No such file or directory',
    );
  });

  it('should fail for a named tensorflow backend with install commands and GPU requirements', async () => {
    const failure = initBackend('tensorflow', { importModule: importerWithout(...NATIVE) });
    await expect(failure).rejects.toThrow(BackendUnavailableError);
    const error = (await failure.catch((caught: unknown) => caught)) as BackendUnavailableError;
    expect(error.backend).toBe('tensorflow');
    expect(error.message).toContain('npm install @tensorflow/tfjs-node-gpu@4.22.0');
    expect(error.message).toContain('npm install @tensorflow/tfjs-node@4.22.0');
    expect(error.message).toContain('NVIDIA driver (>450.x), CUDA 11.2 and cuDNN 8.1');
    expect(error.message).toContain('downloads libtensorflow-gpu 2.9.1');
    expect(error.message).toContain("run on 'wasm' (the default when they are absent) or 'cpu'");
  });

  it('should fail for a named wasm backend that is not installed, with its install command', async () => {
    await expect(
      initBackend('wasm', { importModule: importerWithout('@tensorflow/tfjs-backend-wasm') }),
    ).rejects.toThrow('Install it with: npm install @tensorflow/tfjs-backend-wasm@4.22.0');
  });

  it('should fail clearly when tfjs-layers, which registers the gradients, is missing', async () => {
    await expect(
      initBackend('cpu', { importModule: importerWithout('@tensorflow/tfjs-layers') }),
    ).rejects.toThrow(/Cannot load @tensorflow\/tfjs-layers, which registers the gradients/);
  });

  it('should reject an unknown backend name', async () => {
    await expect(initBackend('gpu' as never)).rejects.toThrow(InvalidArgumentError);
    await expect(initBackend('gpu' as never)).rejects.toThrow(
      "backend: expected one of auto, tensorflow, native, wasm, cpu, got 'gpu'",
    );
  });
});

describe.skipIf(!nativeBuilt)('initBackend with the native backend built', () => {
  it('should run the native backend by name with gradients registered, saying what it runs on', async () => {
    const selection = await initBackend('native');
    expect(selection.backend).toBe('native');
    expect(tf.getBackend()).toBe('native');
    expect(selection.runsOn).toMatch(
      /^C\+\+ addon (over .+|without a BLAS \(own GEMM\)), (AVX-512|AVX2|baseline) kernels, \d+ threads?(, PARTONFIT_NATIVE_ADDON=.+)?$/,
    );
    expect(gradientOfSumOfSquares([1, -2, 3.5])).toEqual([2, -4, 7]);
  });

  it('should prefer native to wasm under auto when tfjs-node is absent', async () => {
    const selection = await initBackend('auto', { importModule: importerWithout(...NATIVE) });
    expect(selection.backend).toBe('native');
    expect(selection.skipped.map((skip) => skip.packageName)).toEqual(NATIVE);
  });
});

describe('backendUnavailableReason', () => {
  it('should make an available backend active and give no reason', async () => {
    expect(await backendUnavailableReason('cpu')).toBeUndefined();
    expect(tf.getBackend()).toBe('cpu');
  });

  it("should give each package's reason when the backend cannot run", async () => {
    const importModule = importerWithout('@partonfit/backend-native');
    expect(await backendUnavailableReason('native', { importModule })).toBe(
      '@partonfit/backend-native: not installed (npm install @partonfit/backend-native)',
    );
    const error: unknown = await initBackend('native', { importModule }).catch(
      (thrown: unknown) => thrown,
    );
    expect(BackendUnavailableError.isInstance(error) && error.skipped).toEqual([
      {
        backend: 'native',
        packageName: '@partonfit/backend-native',
        reason: 'not installed (npm install @partonfit/backend-native)',
      },
    ]);
  });
});
