import type { KernelConfig, TensorInfo } from '@tensorflow/tfjs-core';
import {
  checkKeepBestRows,
  checkStoppingUpdate,
  KEEP_BEST_ROWS_KERNEL,
  STOPPING_LOSSES,
  STOPPING_STATE,
  STOPPING_UPDATE_KERNEL,
  STOPPING_UPDATE_OUTPUTS,
  type StoppingUpdateInputs,
} from '@partonfit/backend';
import type { NativeAddon } from '../addon/native-addon.js';
import { nativeKernel, requiredFloat32Values, sizeOf } from './native-kernel.js';

function attribute(attrs: Record<string, unknown>, name: string): number {
  return attrs[name] as number;
}

/**
 * The trainer's early stopping in two kernels (`STOPPING_UPDATE_KERNEL` and
 * `KEEP_BEST_ROWS_KERNEL` of `@partonfit/backend`): the per-replica state update, and the best
 * weights' snapshot of every weight at once. Registered only when the addon has them.
 */
export function stoppingKernels(addon: NativeAddon): KernelConfig[] {
  if (typeof addon.stoppingUpdate !== 'function' || typeof addon.keepBestRows !== 'function') {
    return [];
  }
  return [
    nativeKernel(STOPPING_UPDATE_KERNEL, ({ inputs, backend, attrs }) => {
      const tensors = inputs as unknown as StoppingUpdateInputs;
      const replicas = checkStoppingUpdate(STOPPING_UPDATE_KERNEL, tensors, attrs);
      const names = [...STOPPING_LOSSES, ...STOPPING_STATE, 'patience', 'epochLimit'] as const;
      const arrays = names.map((name) =>
        requiredFloat32Values(STOPPING_UPDATE_KERNEL, backend, tensors[name], name),
      );
      const outputs = STOPPING_UPDATE_OUTPUTS.map(() => backend.allocateOutput(replicas));
      addon.stoppingUpdate(
        arrays,
        outputs,
        replicas,
        attribute(attrs, 'epoch'),
        attribute(attrs, 'thresholdChi2'),
        attribute(attrs, 'positivityThreshold'),
        attribute(attrs, 'delta'),
      );
      return outputs.map((output) => backend.outputTensorInfo([replicas], output));
    }),
    nativeKernel(KEEP_BEST_ROWS_KERNEL, ({ inputs, backend, attrs }) => {
      const { weights } = checkKeepBestRows(KEEP_BEST_ROWS_KERNEL, inputs, attrs);
      const best = requiredFloat32Values(
        KEEP_BEST_ROWS_KERNEL,
        backend,
        inputs.best as TensorInfo,
        'best',
      );
      return weights.map(({ start, rows, weight, snapshot }, i) => {
        const out = backend.allocateOutput(sizeOf(weight.shape));
        addon.keepBestRows(
          best,
          start,
          requiredFloat32Values(KEEP_BEST_ROWS_KERNEL, backend, weight, `weight${i}`),
          requiredFloat32Values(KEEP_BEST_ROWS_KERNEL, backend, snapshot, `bestWeight${i}`),
          rows,
          out,
        );
        return backend.outputTensorInfo(weight.shape, out);
      });
    }),
  ];
}
