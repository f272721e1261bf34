/** {@link NativeAddonInfo.blas} of an addon built without a CBLAS (`PARTONFIT_CBLAS=none`). */
export const OWN_KERNELS_BLAS = "none (partonfit's own kernels)";

/** The vector instructions the addon's kernels run: its widest clone this CPU can run. */
export type VectorPath = 'AVX-512' | 'AVX2' | 'baseline';

/** What the addon reports about itself and the BLAS it was linked against. */
export interface NativeAddonInfo {
  /**
   * `OpenBLAS`, `CBLAS` for any other library, or {@link OWN_KERNELS_BLAS} when the addon was
   * built without one and runs its own GEMM and GEMV kernels.
   */
  readonly blas: string;
  /** OpenBLAS's kernel (`SkylakeX`, `Haswell`, `Prescott`, …), empty for other libraries. */
  readonly blasCore: string;
  /** OpenBLAS's build configuration, empty for other libraries. */
  readonly blasConfig: string;
  /** Threads the BLAS uses per call (1: the addon splits products over its own threads). */
  readonly blasThreads: number;
  /**
   * The vector path of the addon's own kernels: AVX-512, AVX2 or the x86-64 baseline (SSE2), the
   * widest the CPU supports among those the build compiled (`PARTONFIT_NATIVE_ISA`).
   */
  readonly vectorPath: VectorPath;
  /** Threads of the addon's pool, the calling thread included. */
  readonly threads: number;
  /**
   * Below this many replicas the hadronic contraction holds the FK table in the vector lanes and
   * reads it row by row, skipping a row's zero part at almost no cost; from it on, replicas fill
   * the lanes.
   */
  readonly planeReplicas: number;
}

/** An array of 4-byte elements, which the layout kernels copy bit for bit. */
export type FourByteArray = Float32Array | Int32Array;

/**
 * The functions of the compiled addon (`native/addon.cc`). Every function reads its inputs in
 * place, writes a caller-allocated output and checks array lengths before touching memory
 * (a mismatch throws a `RangeError`). Shapes are row-major; op codes are in `op-codes.ts`.
 */
export interface NativeAddon {
  info(): NativeAddonInfo;
  /**
   * `out[i] = op(a[aIndex[i]]) @ op(b[bIndex[i]])` for batch entries i, op(a) `(m, k)`, op(b)
   * `(k, n)`, out `(batch, m, n)`; a null index reads matrix i (or 0 for a single matrix). Then
   * adds `bias` row `biasIndex[i]` (length n, or a scalar when `biasColumnStride` is 0) and
   * applies the unary `activation` (0: none) with slope `alpha`.
   */
  matMul(
    a: Float32Array,
    b: Float32Array,
    out: Float32Array,
    batch: number,
    m: number,
    n: number,
    k: number,
    transposeA: boolean,
    transposeB: boolean,
    aIndex: Int32Array | null,
    bIndex: Int32Array | null,
    aMatrices: number,
    bMatrices: number,
    bias: Float32Array | null,
    biasIndex: Int32Array | null,
    biasColumnStride: number,
    activation: number,
    alpha: number,
  ): void;
  /** `out[i] = op(x[i])`; `alpha` is the parameter of LeakyRelu and Step. */
  unary(op: number, alpha: number, x: Float32Array, out: Float32Array): void;
  /** `out = op(a, b)` with NumPy broadcasting; `out` has the broadcast shape `outShape`. */
  binary(
    op: number,
    a: Float32Array,
    aShape: Int32Array,
    b: Float32Array,
    bShape: Int32Array,
    out: Float32Array,
    outShape: Int32Array,
  ): void;
  /** `out = op(a, b)` as 0 / 1 bytes (a bool tensor), broadcast like {@link binary}. */
  compare(
    op: number,
    a: Float32Array,
    aShape: Int32Array,
    b: Float32Array,
    bShape: Int32Array,
    out: Uint8Array,
    outShape: Int32Array,
  ): void;
  /**
   * The fused Adam/Nadam update of one `(rows, …)` variable (`ADAM_FAMILY_UPDATE_KERNEL` of
   * `@partonfit/backend`): `factors` `(rows, 5)`, `update` `(rows)`; writes the new weights and
   * statistics into the three outputs, each of the variable's length.
   */
  adamFamilyUpdate(
    variable: Float32Array,
    gradient: Float32Array,
    momentum: Float32Array,
    velocity: Float32Array,
    factors: Float32Array,
    update: Float32Array,
    oneMinusBeta1: number,
    oneMinusBeta2: number,
    epsilon: number,
    rows: number,
    variableOut: Float32Array,
    momentumOut: Float32Array,
    velocityOut: Float32Array,
  ): void;
  /**
   * A whole stack of per-replica dense layers (`DENSE_NETWORK_KERNEL` of `@partonfit/backend`):
   * `input` `(points, inputs)` when `sharedInput`, else `(replicas, points, inputs)`;
   * `kernels[l]` `(replicas, in_l, units[l])`, `biases[l]` `(replicas, units[l])`;
   * `activations` `(layers, replicas)` codes of `DENSE_ACTIVATIONS`, `widths` each replica's
   * units, `passThrough` 1 where it passes a layer through, both `(layers, replicas)`; writes `output`
   * `(replicas, points, units_last)` and the `tape` (per layer z and a).
   */
  denseNetwork(
    input: Float32Array,
    kernels: Float32Array[],
    biases: Float32Array[],
    activations: Int32Array,
    widths: Int32Array,
    passThrough: Int32Array,
    replicas: number,
    points: number,
    inputs: number,
    sharedInput: boolean,
    units: Int32Array,
    leakyReluAlpha: number,
    output: Float32Array,
    tape: Float32Array,
  ): void;
  /**
   * The gradients of `denseNetwork` (`DENSE_NETWORK_GRAD_KERNEL`) from its tape: writes the
   * input's, every kernel's and every bias's.
   */
  denseNetworkGrad(
    outputGradient: Float32Array,
    input: Float32Array,
    kernels: Float32Array[],
    tape: Float32Array,
    activations: Int32Array,
    widths: Int32Array,
    passThrough: Int32Array,
    replicas: number,
    points: number,
    inputs: number,
    sharedInput: boolean,
    units: Int32Array,
    leakyReluAlpha: number,
    inputGradient: Float32Array,
    kernelGradients: Float32Array[],
    biasGradients: Float32Array[],
  ): void;
  /**
   * The stopping update of `STOPPING_UPDATE_KERNEL` (`@partonfit/backend`): `inputs` the four
   * losses, the six state arrays, patience and epoch limits; `outputs` the six new state arrays
   * and the best flags; every array `(replicas)`.
   */
  stoppingUpdate(
    inputs: Float32Array[],
    outputs: Float32Array[],
    replicas: number,
    epoch: number,
    thresholdChi2: number,
    positivityThreshold: number,
    delta: number,
  ): void;
  /**
   * `out` = the rows of `weight` whose flag `best[start + row]` is set, the rows of `snapshot`
   * elsewhere; `rows` rows.
   */
  keepBestRows(
    best: Float32Array,
    start: number,
    weight: Float32Array,
    snapshot: Float32Array,
    rows: number,
    out: Float32Array,
  ): void;
  /** `out[i] = condition[i] ? t[i] : e[i]`, all of one length. */
  select(condition: Uint8Array, t: Float32Array, e: Float32Array, out: Float32Array): void;
  /** Reduces the middle axis of x viewed as `(outer, reduced, inner)` into out `(outer, inner)`. */
  reduce(
    op: number,
    x: Float32Array,
    outer: number,
    reduced: number,
    inner: number,
    out: Float32Array,
  ): void;
  /** `out = transpose(x, perm)` for x of the given shape (rank ≤ 8). */
  transpose(x: FourByteArray, shape: Int32Array, perm: Int32Array, out: FourByteArray): void;
  /**
   * Concatenation as `outer` rows: output row o is row o of every input in turn, input i giving
   * `rowLengths[i]` elements.
   */
  concat(inputs: FourByteArray[], rowLengths: Int32Array, outer: number, out: FourByteArray): void;
  /**
   * `out` (`outShape`) filled with `value` except the block at `before` in every axis, which is
   * x (`shape`).
   */
  pad(
    x: FourByteArray,
    shape: Int32Array,
    before: Int32Array,
    outShape: Int32Array,
    value: number,
    out: FourByteArray,
  ): void;
  /** `out = x[begin : begin + size]` along every axis of x of the given shape. */
  slice(
    x: FourByteArray,
    shape: Int32Array,
    begin: Int32Array,
    size: Int32Array,
    out: FourByteArray,
  ): void;
  /**
   * The hadronic FK contraction without a stored luminosity: `out[r, n] = Σ_{c, a, b}
   * pdf[r, a, firstFlavours[c]] · pdf[r, b, secondFlavours[c]] · fk[(c · x + a) · x + b, n]`,
   * pdf `(replicas, x, flavours)`, fk `(channels · x · x, data)` with one channel per entry of
   * the two flavour lists, out `(replicas, data)`. With a support
   * ({@link NativeAddon.luminositySupport} of the same fk) the x2 points where the table is zero
   * are skipped. Below `planeReplicas` ({@link NativeAddon.info}) replicas, halfContractions
   * `(channels, 2, replicas, x, data)` receive the table contracted with each of a channel's
   * two factors, `Σ_a pdf[r, a, firstFlavours[c]] · fk[(c · x + a) · x + b, n]` at
   * `[c, 0, r, b, n]` and `Σ_b pdf[r, b, secondFlavours[c]] · fk[(c · x + a) · x + b, n]` at
   * `[c, 1, r, a, n]`, for {@link NativeAddon.luminosityContractionGrad}.
   */
  luminosityContraction(
    pdf: Float32Array,
    fk: Float32Array,
    firstFlavours: Int32Array,
    secondFlavours: Int32Array,
    replicas: number,
    x: number,
    flavours: number,
    data: number,
    out: Float32Array,
    support?: Int32Array,
    halfContractions?: Float32Array,
  ): void;
  /**
   * The gradient of `Σ dy ⊙ out` of {@link NativeAddon.luminosityContraction} with respect to
   * the PDF, written to dPdf `(replicas, x, flavours)`. With the halfContractions that
   * {@link NativeAddon.luminosityContraction} wrote for the same pdf and fk, the table is not
   * read.
   */
  luminosityContractionGrad(
    dy: Float32Array,
    pdf: Float32Array,
    fk: Float32Array,
    firstFlavours: Int32Array,
    secondFlavours: Int32Array,
    replicas: number,
    x: number,
    flavours: number,
    data: number,
    dPdf: Float32Array,
    support?: Int32Array,
    halfContractions?: Float32Array,
  ): void;
  /**
   * Seconds of each of `rounds` rounds (after a warm-up) in which every thread of the addon's
   * pool multiplies its own pair of `(n, n)` float32 matrices by the BLAS's sgemm at once.
   */
  timeParallelSgemm(n: number, rounds: number): Float64Array;
  /**
   * Where each column of a luminosity-ordered FK table fk `(channels · x · x, data)` is non-zero
   * in x2, written to support `(channels, x, data, 2)`: for channel c, x1 point a and data point
   * n, the first x2 point with a non-zero value and one past the last (`[0, 0]` for a column of
   * zeros).
   */
  luminositySupport(
    fk: Float32Array,
    channels: number,
    x: number,
    data: number,
    support: Int32Array,
  ): void;
}
