import * as tf from '@tensorflow/tfjs-core';
import { MathBackendCPU } from '@tensorflow/tfjs-backend-cpu';
import { afterEach, describe, expect, it } from 'vitest';
import { BackendUnavailableError } from '../errors/backend-unavailable-error.js';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import { describeBackendSelection, initBackend } from './init-backend.js';

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
    const selection = await initBackend('auto', { importModule: importerWithout(...NATIVE) });
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
    ]);
    expect(describeBackendSelection(selection)).toBe(
      [
        'backend: wasm (@tensorflow/tfjs-backend-wasm; WebAssembly (XNNPACK, SIMD), one thread in Node)',
        '  skipped tensorflow (@tensorflow/tfjs-node-gpu): not installed (npm install @tensorflow/tfjs-node-gpu@4.22.0)',
        '  skipped tensorflow (@tensorflow/tfjs-node): not installed (npm install @tensorflow/tfjs-node@4.22.0)',
      ].join('\n'),
    );
  });

  it('should fall back to cpu under auto when wasm is absent too', async () => {
    const selection = await initBackend('auto', {
      importModule: importerWithout(...NATIVE, '@tensorflow/tfjs-backend-wasm'),
    });
    expect(selection.backend).toBe('cpu');
    expect(selection.skipped.map((skip) => skip.packageName)).toEqual([
      ...NATIVE,
      '@tensorflow/tfjs-backend-wasm',
    ]);
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
      "backend: expected one of auto, tensorflow, wasm, cpu, got 'gpu'",
    );
  });
});
