import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import '@tensorflow/tfjs-backend-wasm';
import '@tensorflow/tfjs-layers';
import { bench, describe } from 'vitest';
import { backendStatus } from './register-native-backend.js';
import { randomTensor } from './testing/native.fixture.js';

/**
 * The native backend against wasm and cpu:
 *
 * - `sgemm`: `tf.matMul` of two n × n float32 matrices (n = 512, 1024, 2048), GFLOP/s, which is
 *   what the BLAS reaches through the backend on this machine (allocation of the result
 *   included);
 * - `MultiDense step`: forward + backward (gradients of all weights) of the NNPDF4.0 network
 *   2 → 25 → 20 → 8 (tanh, tanh, linear) as batched products `(R, points, in) @ (R, in, out)`
 *   plus biases `(R, 1, out)` (`tf.add`: wasm's fused product takes only rank-1 biases), the
 *   first layer broadcasting the shared input `(points, 2)`, on 1,500 points, ms per step and
 *   GFLOP/s of its products
 *   (2 · R · points · 2080 flops per step), and for native at the largest R the share of the
 *   step each kernel takes (`tf.profile`).
 *
 * Median of the timed iterations, printed per case. Run: `npx vitest bench --run --project
 * backend-native native.bench` (repository root). `PARTONFIT_BENCH_BACKENDS` (default
 * `native,wasm,cpu`), `PARTONFIT_BENCH_REPLICAS` (default `1,10,100`) and
 * `PARTONFIT_BENCH_POINTS` (default 1500) narrow it.
 */
const status = backendStatus();
const backends = (process.env.PARTONFIT_BENCH_BACKENDS ?? 'native,wasm,cpu')
  .split(',')
  .filter((backend) => backend !== 'native' || status.available);
const replicaCounts = (process.env.PARTONFIT_BENCH_REPLICAS ?? '1,10,100').split(',').map(Number);
const points = Number(process.env.PARTONFIT_BENCH_POINTS ?? 1500);
if (!status.available) console.warn(`native skipped: ${status.reason}`);
else console.log(`native: ${status.description}`);

const SIZES = [2, 25, 20, 8];
/** Multiply-adds ×2 of one forward + backward: forward and weight gradients of every layer, input gradients of the later two. */
const STEP_FLOPS_PER_POINT_REPLICA = 2 * (2 * 710 + 660);

function median(values: number[]): number {
  const sorted = [...values].sort((p, q) => p - q);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function useBackend(backend: string): Promise<void> {
  if (tf.getBackend() !== backend) {
    await tf.setBackend(backend);
    await tf.ready();
  }
}

function makeStep(replicas: number) {
  const x = randomTensor([points, 2], 1, 0.01, 1) as tf.Tensor2D;
  const upstream = randomTensor([replicas, points, 8], 2);
  const variables = SIZES.slice(1).flatMap((units, l) => [
    tf.variable(randomTensor([replicas, SIZES[l] ?? 0, units], 3 + l, -0.3, 0.3)),
    tf.variable(randomTensor([replicas, 1, units], 13 + l, -0.1, 0.1)),
  ]);
  const forward = () => {
    let h: tf.Tensor = x;
    for (let l = 0; l < 3; l++) {
      const z = tf.add(tf.matMul(h, variables[2 * l] as tf.Tensor3D), variables[2 * l + 1]);
      h = l < 2 ? tf.tanh(z) : z;
    }
    return h;
  };
  const step = () => {
    tf.tidy(() => {
      const { value, grads } = tf.variableGrads(
        () => tf.sum<tf.Scalar>(tf.mul(forward(), upstream)),
        variables,
      );
      value.dataSync();
      Object.values(grads).forEach((grad) => grad.dataSync());
    });
  };
  const dispose = () => {
    [x, upstream, ...variables].forEach((tensor) => {
      tensor.dispose();
    });
  };
  return { step, dispose };
}

async function printProfile(step: () => void, label: string): Promise<void> {
  const profile = await tf.profile(step);
  const byKernel = new Map<string, number>();
  for (const kernel of profile.kernels) {
    const time = typeof kernel.kernelTimeMs === 'number' ? kernel.kernelTimeMs : 0;
    byKernel.set(kernel.name, (byKernel.get(kernel.name) ?? 0) + time);
  }
  const total = [...byKernel.values()].reduce((sum, time) => sum + time, 0);
  const top = [...byKernel.entries()]
    .sort((p, q) => q[1] - p[1])
    .slice(0, 8)
    .map(([name, time]) => `${name} ${((100 * time) / total).toFixed(0)}%`);
  console.log(`${label} kernel time ${total.toFixed(1)} ms: ${top.join(', ')}`);
}

describe('sgemm through tf.matMul, n × n float32', () => {
  for (const backend of backends.filter((name) => name !== 'cpu')) {
    for (const n of [512, 1024, 2048]) {
      let a: tf.Tensor2D | undefined;
      let b: tf.Tensor2D | undefined;
      const times: number[] = [];
      bench(
        `${backend}, n = ${n}`,
        () => {
          const start = performance.now();
          const product = tf.matMul(a as tf.Tensor2D, b as tf.Tensor2D);
          product.dataSync();
          product.dispose();
          times.push(performance.now() - start);
        },
        {
          iterations: n >= 2048 ? 5 : 20,
          time: 0,
          warmupIterations: 2,
          warmupTime: 0,
          setup: async () => {
            await useBackend(backend);
            a ??= randomTensor([n, n], 1) as tf.Tensor2D;
            b ??= randomTensor([n, n], 2) as tf.Tensor2D;
            times.length = 0;
          },
          teardown: (_task, mode) => {
            if (mode !== 'run') return;
            const seconds = median(times) / 1000;
            console.log(
              `sgemm ${backend} n=${n}: ${((2 * n ** 3) / seconds / 1e9).toFixed(1)} GFLOP/s`,
            );
            a?.dispose();
            b?.dispose();
            a = undefined;
            b = undefined;
          },
        },
      );
    }
  }
});

describe(`MultiDense step, NNPDF4.0 network, ${points} points`, () => {
  for (const backend of backends) {
    for (const replicas of replicaCounts) {
      let running: ReturnType<typeof makeStep> | undefined;
      const times: number[] = [];
      bench(
        `${backend}, R = ${replicas}`,
        () => {
          const start = performance.now();
          running?.step();
          times.push(performance.now() - start);
        },
        {
          iterations: replicas >= 100 || backend === 'cpu' ? 5 : 20,
          time: 0,
          warmupIterations: 2,
          warmupTime: 0,
          setup: async () => {
            await useBackend(backend);
            running ??= makeStep(replicas);
            times.length = 0;
          },
          teardown: async (_task, mode) => {
            if (mode !== 'run' || running === undefined) return;
            const ms = median(times);
            const gflops = (STEP_FLOPS_PER_POINT_REPLICA * replicas * points) / (ms / 1000) / 1e9;
            console.log(
              `MultiDense step ${backend} R=${replicas}: ${ms.toFixed(2)} ms/step, ${gflops.toFixed(1)} GFLOP/s in its products`,
            );
            if (backend === 'native' && replicas === Math.max(...replicaCounts)) {
              await printProfile(running.step, `native R=${replicas}`);
            }
            running.dispose();
            running = undefined;
          },
        },
      );
    }
  }
});
