import type { KernelConfig, NamedAttrMap, TensorInfo } from '@tensorflow/tfjs-core';
import type { NativeAddon } from '../addon/native-addon.js';
import type { NativeBackend } from '../native-backend.js';
import { float32Values, nativeKernel } from './native-kernel.js';

/**
 * The kernel name of the fused hadronic FK contraction, the one `@partonfit/layers` runs when
 * the active backend registers it (its `LUMINOSITY_CONTRACTION_KERNEL`): inputs `pdf`
 * `(replicas, x, flavour)` and `fk` `(channel · x1 · x2, data)`, attributes `firstFlavours` and
 * `secondFlavours` (the two flavours of each channel), output `(replicas, data)`.
 */
export const LUMINOSITY_CONTRACTION = 'PartonfitLuminosityContraction';

/**
 * The kernel name of its backward (`LUMINOSITY_CONTRACTION_GRAD_KERNEL` of the layers): inputs
 * `dy` `(replicas, data)`, `pdf`, `fk`, the same attributes; output `[dPdf]`.
 */
export const LUMINOSITY_CONTRACTION_GRAD = 'PartonfitLuminosityContractionGrad';

/** The sizes and channels of a contraction, after checking that they fit together. */
interface Contraction {
  readonly replicas: number;
  readonly x: number;
  readonly flavours: number;
  readonly data: number;
  readonly firstFlavours: Int32Array;
  readonly secondFlavours: Int32Array;
}

function flavourList(kernel: string, attrs: NamedAttrMap, name: string): Int32Array {
  const list = attrs[name];
  if (!Array.isArray(list) || !list.every((flavour) => Number.isInteger(flavour))) {
    throw new Error(`${kernel}: attribute ${name} must be a list of flavour indices`);
  }
  return Int32Array.from(list as number[]);
}

function contraction(
  kernel: string,
  pdf: TensorInfo,
  fk: TensorInfo,
  attrs: NamedAttrMap,
): Contraction {
  const [replicas, x, flavours] = pdf.shape;
  const firstFlavours = flavourList(kernel, attrs, 'firstFlavours');
  const secondFlavours = flavourList(kernel, attrs, 'secondFlavours');
  const channels = firstFlavours.length;
  if (
    pdf.shape.length !== 3 ||
    secondFlavours.length !== channels ||
    fk.shape.length !== 2 ||
    fk.shape[0] !== channels * x * x
  ) {
    throw new Error(
      `${kernel}: pdf must be (replicas, x, flavour) and fk (channel · x · x, data) with one ` +
        `channel per flavour pair; got pdf [${pdf.shape.join(', ')}], fk [${fk.shape.join(', ')}], ` +
        `${channels} first and ${secondFlavours.length} second flavours`,
    );
  }
  return { replicas, x, flavours, data: fk.shape[1], firstFlavours, secondFlavours };
}

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
  sizes: Contraction,
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

/** The two luminosity-contraction kernels, forward and backward, in the addon. */
export function luminosityKernels(addon: NativeAddon): KernelConfig[] {
  const forward = nativeKernel(LUMINOSITY_CONTRACTION, ({ inputs, backend, attrs }) => {
    const { pdf, fk } = inputs as Record<string, TensorInfo>;
    const sizes = contraction(LUMINOSITY_CONTRACTION, pdf, fk, attrs);
    const arrays = float32Inputs(LUMINOSITY_CONTRACTION, backend, { pdf, fk });
    const out = backend.allocateOutput(sizes.replicas * sizes.data);
    addon.luminosityContraction(...problemArguments(arrays, sizes), out);
    return backend.outputTensorInfo([sizes.replicas, sizes.data], out);
  });
  const backward = nativeKernel(LUMINOSITY_CONTRACTION_GRAD, ({ inputs, backend, attrs }) => {
    const { dy, pdf, fk } = inputs as Record<string, TensorInfo>;
    const sizes = contraction(LUMINOSITY_CONTRACTION_GRAD, pdf, fk, attrs);
    if (dy.shape.join() !== [sizes.replicas, sizes.data].join()) {
      throw new Error(
        `${LUMINOSITY_CONTRACTION_GRAD}: dy must be (replicas, data) = [${sizes.replicas}, ${sizes.data}], got [${dy.shape.join(', ')}]`,
      );
    }
    const arrays = float32Inputs(LUMINOSITY_CONTRACTION_GRAD, backend, { dy, pdf, fk });
    const dPdf = backend.allocateOutput(sizes.replicas * sizes.x * sizes.flavours);
    addon.luminosityContractionGrad(arrays.dy, ...problemArguments(arrays, sizes), dPdf);
    return [backend.outputTensorInfo(pdf.shape, dPdf)];
  });
  return [forward, backward];
}
