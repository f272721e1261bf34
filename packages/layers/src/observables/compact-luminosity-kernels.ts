import * as tf from '@tensorflow/tfjs-core';

/**
 * Kernel name of the compact luminosity `L[r, k] = pdf[r, p₁(k)] · pdf[r, p₂(k)]` over a table's
 * kept rows: input `pdf` `(replicas, x, flavour)`, attributes {@link CompactLuminosityAttrs},
 * output `(replicas, row)`. Registered for `cpu` and `wasm`, whose tensors live in the CPU's
 * memory, where the kernel reads and writes them directly.
 */
export const COMPACT_LUMINOSITY_KERNEL = 'PartonfitCompactLuminosity';

/**
 * Kernel name of the gradient of `Σ dL ⊙ L` of {@link COMPACT_LUMINOSITY_KERNEL} with respect
 * to the PDF: inputs `dLuminosity` `(replicas, row)` and `pdf`, the same attributes, output
 * `(replicas, x, flavour)`.
 */
export const COMPACT_LUMINOSITY_GRAD_KERNEL = 'PartonfitCompactLuminosityGrad';

/**
 * The kept rows as runs of one channel and one x1 node over consecutive x2 nodes. Positions
 * index one replica's PDF flavour-major, `f · x + a`.
 */
export interface LuminosityRuns {
  /** `(run)`: the run's first kept row. */
  readonly start: Int32Array;
  /** `(run)`: its number of rows (x2 nodes). */
  readonly length: Int32Array;
  /** `(run)`: the first proton's factor, `f₁(c) · x + a`. */
  readonly first: Int32Array;
  /** `(run)`: the second proton's factor of the run's first row, `f₂(c) · x + b`. */
  readonly second: Int32Array;
}

/** The attributes of both compact luminosity kernels. */
export interface CompactLuminosityAttrs {
  readonly runs: LuminosityRuns;
  /** The number of kept rows. */
  readonly rows: number;
}

/** What a kernel needs of the cpu backend: its tensors' values and new tensors from values. */
interface CpuBackend {
  readonly data: { get(dataId: object): { values?: unknown } };
  makeTensorInfo(shape: number[], dtype: tf.DataType, values: Float32Array): tf.TensorInfo;
}

/** What a kernel needs of the wasm backend: heap views of tensors and new tensors on the heap. */
interface WasmBackend {
  makeOutput(shape: number[], dtype: tf.DataType): tf.TensorInfo;
  typedArrayFromHeap(info: tf.TensorInfo): Float32Array;
}

/** `(replicas, rows, columns)` → `(replicas, columns, rows)`. */
function swapLastAxes(
  values: ArrayLike<number>,
  replicas: number,
  rows: number,
  columns: number,
  out: Float32Array = new Float32Array(replicas * rows * columns),
): Float32Array {
  for (let r = 0; r < replicas; r++) {
    const offset = r * rows * columns;
    for (let i = 0; i < rows; i++) {
      for (let j = 0; j < columns; j++)
        out[offset + j * rows + i] = values[offset + i * columns + j];
    }
  }
  return out;
}

/** `L[r, k]` from the flavour-major PDF `(replicas, flavour · x)` into `luminosity`. */
function compactLuminosity(
  pdf: Float32Array,
  replicas: number,
  positions: number,
  { runs, rows }: CompactLuminosityAttrs,
  luminosity: Float32Array,
): void {
  const { start, length, first, second } = runs;
  for (let r = 0; r < replicas; r++) {
    const offset = r * positions;
    for (let run = 0; run < start.length; run++) {
      const factor = pdf[offset + first[run]];
      const from = offset + second[run];
      const to = r * rows + start[run];
      for (let j = 0; j < length[run]; j++) luminosity[to + j] = factor * pdf[from + j];
    }
  }
}

/**
 * The gradient of `Σ dL ⊙ L` with respect to the flavour-major PDF `(replicas, flavour · x)`:
 * `dL[r, k] · pdf[r, p₂(k)]` added at `p₁(k)` and `dL[r, k] · pdf[r, p₁(k)]` at `p₂(k)`, summed
 * in float64.
 */
function compactLuminosityGradient(
  dLuminosity: Float32Array,
  pdf: Float32Array,
  replicas: number,
  positions: number,
  { runs, rows }: CompactLuminosityAttrs,
): Float64Array {
  const { start, length, first, second } = runs;
  const gradient = new Float64Array(replicas * positions);
  for (let r = 0; r < replicas; r++) {
    const offset = r * positions;
    for (let run = 0; run < start.length; run++) {
      const factor = pdf[offset + first[run]];
      const at = offset + second[run];
      const from = r * rows + start[run];
      let sum = 0;
      for (let j = 0; j < length[run]; j++) {
        const weight = dLuminosity[from + j];
        sum += weight * pdf[at + j];
        gradient[at + j] += weight * factor;
      }
      gradient[offset + first[run]] += sum;
    }
  }
  return gradient;
}

/**
 * A float32 output of `shape` computed from float32 inputs in the backend's own memory: on cpu
 * the inputs' values and a new array; on wasm heap views, taken after the output's allocation
 * (which may grow the heap and detach older views).
 */
function onBackendMemory(
  backend: unknown,
  inputs: readonly tf.TensorInfo[],
  shape: number[],
  compute: (out: Float32Array, inputs: Float32Array[]) => void,
): tf.TensorInfo {
  if (tf.getBackend() === 'wasm') {
    const wasm = backend as WasmBackend;
    const output = wasm.makeOutput(shape, 'float32');
    compute(
      wasm.typedArrayFromHeap(output),
      inputs.map((input) => wasm.typedArrayFromHeap(input)),
    );
    return output;
  }
  const cpu = backend as CpuBackend;
  const out = new Float32Array(shape.reduce((a, b) => a * b, 1));
  compute(
    out,
    inputs.map((input) => cpu.data.get(input.dataId).values as Float32Array),
  );
  return cpu.makeTensorInfo(shape, 'float32', out);
}

const forwardKernel: tf.KernelFunc = ({ inputs, backend, attrs }) => {
  const { pdf } = inputs as { pdf: tf.TensorInfo };
  const luminosityAttrs = attrs as unknown as CompactLuminosityAttrs;
  const [replicas, xPoints, flavours] = pdf.shape;
  return onBackendMemory(backend, [pdf], [replicas, luminosityAttrs.rows], (out, [values]) => {
    const byFlavour = swapLastAxes(values, replicas, xPoints, flavours);
    compactLuminosity(byFlavour, replicas, xPoints * flavours, luminosityAttrs, out);
  });
};

const gradientKernel: tf.KernelFunc = ({ inputs, backend, attrs }) => {
  const { dLuminosity, pdf } = inputs as { dLuminosity: tf.TensorInfo; pdf: tf.TensorInfo };
  const luminosityAttrs = attrs as unknown as CompactLuminosityAttrs;
  const [replicas, xPoints, flavours] = pdf.shape;
  return onBackendMemory(backend, [dLuminosity, pdf], pdf.shape, (out, [dL, values]) => {
    const byFlavour = swapLastAxes(values, replicas, xPoints, flavours);
    const gradient = compactLuminosityGradient(
      dL,
      byFlavour,
      replicas,
      xPoints * flavours,
      luminosityAttrs,
    );
    swapLastAxes(gradient, replicas, flavours, xPoints, out);
  });
};

/** The backends the compact kernels run on: those whose tensors live in the CPU's memory. */
export const COMPACT_LUMINOSITY_BACKENDS: readonly string[] = ['cpu', 'wasm'];

/** Registers both compact luminosity kernels for cpu and wasm, once. */
export function registerCompactLuminosityKernels(): void {
  for (const backendName of COMPACT_LUMINOSITY_BACKENDS) {
    for (const [kernelName, kernelFunc] of [
      [COMPACT_LUMINOSITY_KERNEL, forwardKernel],
      [COMPACT_LUMINOSITY_GRAD_KERNEL, gradientKernel],
    ] as const) {
      if ((tf.getKernel(kernelName, backendName) as tf.KernelConfig | undefined) === undefined) {
        tf.registerKernel({ kernelName, backendName, kernelFunc });
      }
    }
  }
}

/**
 * Runs {@link COMPACT_LUMINOSITY_KERNEL} on the active backend (cpu or wasm).
 *
 * @param pdf - `(replicas, x, flavour)`
 * @returns `(replicas, row)`
 */
export function runCompactLuminosity(pdf: tf.Tensor3D, attrs: CompactLuminosityAttrs): tf.Tensor2D {
  registerCompactLuminosityKernels();
  return tf
    .engine()
    .runKernel<tf.Tensor2D>(
      COMPACT_LUMINOSITY_KERNEL,
      { pdf },
      attrs as unknown as tf.NamedAttrMap,
    );
}

/**
 * Runs {@link COMPACT_LUMINOSITY_GRAD_KERNEL} on the active backend (cpu or wasm).
 *
 * @param dLuminosity - `(replicas, row)`
 * @param pdf - `(replicas, x, flavour)`, as the forward saved it
 * @returns `(replicas, x, flavour)`
 */
export function runCompactLuminosityGrad(
  dLuminosity: tf.Tensor2D,
  pdf: tf.Tensor,
  attrs: CompactLuminosityAttrs,
): tf.Tensor3D {
  registerCompactLuminosityKernels();
  return tf
    .engine()
    .runKernel<tf.Tensor3D>(
      COMPACT_LUMINOSITY_GRAD_KERNEL,
      { dLuminosity, pdf },
      attrs as unknown as tf.NamedAttrMap,
    );
}
