import type { KernelConfig, TensorInfo } from '@tensorflow/tfjs-core';
import {
  checkLuminosityContraction,
  LUMINOSITY_CONTRACTION_GRAD_KERNEL,
  LUMINOSITY_CONTRACTION_KERNEL,
  type LuminosityContraction,
  type LuminosityContractionGradInputs,
  type LuminosityContractionInputs,
} from '@partonfit/backend';
import type { NativeAddon } from '../addon/native-addon.js';
import type { NativeBackend } from '../native-backend.js';
import { float32Values, nativeKernel } from './native-kernel.js';

function float32Inputs(
  kernel: string,
  backend: NativeBackend,
  tensors: Record<string, TensorInfo>,
): Record<string, Float32Array> {
  const arrays: Record<string, Float32Array> = {};
  for (const [name, tensor] of Object.entries(tensors)) {
    const values = float32Values(backend, tensor);
    if (values === undefined) {
      throw new Error(`${kernel}: ${name} must be a float32 tensor, got ${tensor.dtype}`);
    }
    arrays[name] = values;
  }
  return arrays;
}

/** The addon's arguments that describe a contraction: pdf, fk, the two flavour lists, sizes. */
function problemArguments(
  arrays: Record<string, Float32Array>,
  sizes: LuminosityContraction,
): [Float32Array, Float32Array, Int32Array, Int32Array, number, number, number, number] {
  return [
    arrays.pdf,
    arrays.fk,
    sizes.firstFlavours,
    sizes.secondFlavours,
    sizes.replicas,
    sizes.x,
    sizes.flavours,
    sizes.data,
  ];
}

/**
 * The support of an FK table (its tensor and values, and the contraction's sizes), or undefined
 * for a table without a zero block to skip.
 */
type SupportOf = (
  fk: TensorInfo,
  values: Float32Array,
  sizes: LuminosityContraction,
) => Int32Array | undefined;

/** A table's support, the share of its products it skips, and the sizes it was computed for. */
interface Support {
  readonly channels: number;
  readonly x: number;
  readonly data: number;
  readonly support: Int32Array;
  readonly share: number;
}

/**
 * The least share of a table's products its zero blocks must remove for the replica-lane kernels
 * to skip them. Looking up each tile's x2 range costs more than it saves below it: measured on a
 * 2-core AVX-512 machine, tables with 6–42 % of each point's plane zero (and a real 1-point tt̄
 * table, 16 %) ran 0.8–1.1× as fast with the look-ups as without. Below
 * the addon's `planeReplicas` ({@link NativeAddon.info}) the kernels skip a row's zeros chunk by chunk at
 * almost no cost, and any zero block is worth skipping.
 */
export const MIN_SKIPPED_SHARE = 0.5;

/** The share of the x2 points of all (channel, x1, data) columns outside their ranges. */
function skippedShare(support: Int32Array, x: number): number {
  let kept = 0;
  for (let i = 0; i < support.length; i += 2) kept += support[i + 1] - support[i];
  return support.length === 0 ? 0 : 1 - kept / ((support.length / 2) * x);
}

/**
 * Where each FK table is non-zero in x2 ({@link NativeAddon.luminositySupport}), by the table's
 * data: computed on a table's first contraction and kept while its data live (a tensor's data
 * never change, and new data get a new id), so that the kernels skip the table's zero blocks.
 * Reshapes share data: the sizes are part of the key. The kernels get no support (and skip
 * nothing) for a table without zeros, and for one whose zeros remove less than
 * {@link MIN_SKIPPED_SHARE} of its products when they run with replicas in the lanes.
 */
function supportCache(addon: NativeAddon): SupportOf {
  const supports = new WeakMap<object, Support>();
  const { planeReplicas } = addon.info();
  const chosen = ({ support, share }: Support, replicas: number) =>
    share >= MIN_SKIPPED_SHARE || (share > 0 && replicas < planeReplicas) ? support : undefined;
  return (fk, values, { firstFlavours, x, data, replicas }) => {
    const channels = firstFlavours.length;
    const cached = supports.get(fk.dataId);
    if (cached?.channels === channels && cached.x === x && cached.data === data) {
      return chosen(cached, replicas);
    }
    const support = new Int32Array(channels * x * data * 2);
    addon.luminositySupport(values, channels, x, data, support);
    const computed = { channels, x, data, support, share: skippedShare(support, x) };
    supports.set(fk.dataId, computed);
    return chosen(computed, replicas);
  };
}

/**
 * A table's half contractions ({@link NativeAddon.luminosityContraction}), with the data of the
 * PDF and the contraction (sizes and flavours) the forward kernel computed them for.
 */
interface HalfContractions {
  pdf: object;
  sizes: LuminosityContraction;
  readonly values: Float32Array;
}

/** Whether two contractions have the same sizes and the same flavours in every channel. */
function sameContraction(one: LuminosityContraction, other: LuminosityContraction): boolean {
  const sameFlavours = (a: Int32Array, b: Int32Array) =>
    a.length === b.length && a.every((flavour, channel) => flavour === b[channel]);
  return (
    one.replicas === other.replicas &&
    one.x === other.x &&
    one.flavours === other.flavours &&
    one.data === other.data &&
    sameFlavours(one.firstFlavours, other.firstFlavours) &&
    sameFlavours(one.secondFlavours, other.secondFlavours)
  );
}

/**
 * The half contractions below the addon's `planeReplicas`: the forward kernel keeps them per
 * table, in one buffer reused from step to step, and the gradient kernel of the same PDF, table
 * and flavours then reads them instead of the table (a tensor's data never change, and new data
 * get a new id; reshapes share data). A forward of another contraction overwrites them, and the
 * first one's gradient then reads the table.
 */
function halfContractionCache(addon: NativeAddon) {
  const kept = new WeakMap<object, HalfContractions>();
  const { planeReplicas } = addon.info();
  const length = ({ firstFlavours, replicas, x, data }: LuminosityContraction) =>
    firstFlavours.length * 2 * replicas * x * data;
  return {
    /** The buffer the forward on pdf and fk writes into, or undefined at or above planeReplicas. */
    forward(pdf: TensorInfo, fk: TensorInfo, sizes: LuminosityContraction) {
      if (sizes.replicas >= planeReplicas) return undefined;
      const previous = kept.get(fk.dataId);
      const values =
        previous?.values.length === length(sizes)
          ? previous.values
          : new Float32Array(length(sizes));
      kept.set(fk.dataId, { pdf: pdf.dataId, sizes, values });
      return values;
    },
    /** The half contractions a forward left for pdf, fk and the same contraction, if any. */
    backward(pdf: TensorInfo, fk: TensorInfo, sizes: LuminosityContraction) {
      const halves = kept.get(fk.dataId);
      return halves?.pdf === pdf.dataId && sameContraction(halves.sizes, sizes)
        ? halves.values
        : undefined;
    },
  };
}

/**
 * The two luminosity-contraction kernels of `@partonfit/backend`'s contract
 * (`LUMINOSITY_CONTRACTION_KERNEL` and its gradient), forward and backward, in the addon.
 */
export function luminosityKernels(addon: NativeAddon): KernelConfig[] {
  const supportOf = supportCache(addon);
  const halfContractions = halfContractionCache(addon);
  const forward = nativeKernel(LUMINOSITY_CONTRACTION_KERNEL, ({ inputs, backend, attrs }) => {
    const { pdf, fk } = inputs as unknown as LuminosityContractionInputs;
    const sizes = checkLuminosityContraction(LUMINOSITY_CONTRACTION_KERNEL, { pdf, fk }, attrs);
    const arrays = float32Inputs(LUMINOSITY_CONTRACTION_KERNEL, backend, { pdf, fk });
    const out = backend.allocateOutput(sizes.replicas * sizes.data);
    addon.luminosityContraction(
      ...problemArguments(arrays, sizes),
      out,
      supportOf(fk, arrays.fk, sizes),
      halfContractions.forward(pdf, fk, sizes),
    );
    return backend.outputTensorInfo([sizes.replicas, sizes.data], out);
  });
  const backward = nativeKernel(
    LUMINOSITY_CONTRACTION_GRAD_KERNEL,
    ({ inputs, backend, attrs }) => {
      const { dy, pdf, fk } = inputs as unknown as LuminosityContractionGradInputs;
      const sizes = checkLuminosityContraction(
        LUMINOSITY_CONTRACTION_GRAD_KERNEL,
        { dy, pdf, fk },
        attrs,
      );
      const arrays = float32Inputs(LUMINOSITY_CONTRACTION_GRAD_KERNEL, backend, { dy, pdf, fk });
      const dPdf = backend.allocateOutput(sizes.replicas * sizes.x * sizes.flavours);
      addon.luminosityContractionGrad(
        arrays.dy,
        ...problemArguments(arrays, sizes),
        dPdf,
        supportOf(fk, arrays.fk, sizes),
        halfContractions.backward(pdf, fk, sizes),
      );
      return [backend.outputTensorInfo(pdf.shape, dPdf)];
    },
  );
  return [forward, backward];
}
