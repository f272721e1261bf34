/**
 * FK observables: the predictions of every replica for one dataset, PDF
 * `(replicas, x, flavour)` → `(replicas, data)`, with compound operations applied
 * ({@link ObservableLayer}).
 *
 * Each table is one plain 2-D product `(replicas, x · channel) @ (x · channel, data)` with a
 * custom gradient whose backward is again a plain 2-D product, the only shape wasm multiplies
 * fast. Forward + backward (d Σ predictions / d pdf), ms per step, mean of `observables.bench.ts`
 * on the 2-core development VM (tfjs 4.22; wasm: SIMD, one thread):
 *
 * | table | formulation | backend | R=1 | R=10 | R=100 |
 * |---|---|---|---|---|---|
 * | hadronic: 200 points, 50 x, 40 channels | luminosity, FKᵀ kept | wasm | 8.9 | 45 | 405 |
 * | | luminosity, FKᵀ recomputed | wasm | 25 | 59 | 409 |
 * | | two-step (batched) | wasm | 56 | 423 | 4,208 |
 * | | padded 14×14 | wasm | 120 | 311 | — |
 * | | luminosity, FKᵀ kept | cpu | 159 | 1,298 | 13,028 |
 * | | luminosity, FKᵀ recomputed | cpu | 168 | 1,304 | — |
 * | | two-step (batched) | cpu | 259 | 2,321 | — |
 * | | padded 14×14 | cpu | 784 | — | — |
 * | DIS: 3,000 points, 50 x, 9 flavours | compact, FKᵀ kept | wasm | 0.45 | 2.6 | 19.7 |
 * | | compact, FKᵀ recomputed | wasm | 0.98 | 3.0 | 23.3 |
 * | | padded 14 | wasm | 0.57 | 4.7 | 29.6 |
 * | | compact, FKᵀ kept | cpu | 10.2 | 62 | 606 |
 * | | compact, FKᵀ recomputed | cpu | 8.8 | 62 | 598 |
 * | | padded 14 | cpu | 14.0 | 98 | 918 |
 *
 * Defaults: `luminosity` for hadronic tables (fastest at every R on both backends: the
 * padded form multiplies 196/40 times the FLOPs, the two-step form runs its batched product in
 * wasm's scalar loop) and `compact` for DIS tables (fastest, and 9/14 of the padded memory).
 * (The hadronic rows were measured before {@link luminosityContraction} replaced the plain
 * luminosity product: it computes the same products but frees each table's luminosity as soon
 * as it is used, so that wasm fits NNPDF4.0-sized inputs at R = 100. On a backend with the
 * fused kernels — `native` — {@link flavourLuminosityContraction} forms neither the luminosity
 * nor the per-channel factors.)
 * FK transposes are kept for tables of up to 2²² values and recomputed from activations above
 * (`fkTranspose: 'auto'`): recomputing costs ~1 % at R = 100 and up to 3× at R = 1 on the big
 * hadronic table, and halves its memory — wasm's whole heap is 4 GB.
 *
 * Zero rows: a hadronic table's (channel, x1, x2) rows that are zero for every data point
 * (kinematic limits) are dropped on the generic path when they are a large enough share
 * ({@link MIN_DROPPED_ROW_SHARE}: half on wasm; every table on cpu, whose broadcast kernels the
 * compact kernels beat) and contracted by {@link compactLuminosityContraction}. Forward +
 * backward, median CPU ms, dense → compact, interleaved on the shared 2-core VM (load 7–12):
 *
 * | tables | zero rows | backend | R=1 | R=10 | R=100 |
 * |---|---|---|---|---|---|
 * | ATLAS tt̄ 13 TeV (theory 200) | 16 % | cpu | 23.7 → 1.5 | 217 → 10.3 | 2,187 → 92 |
 * | | | wasm | 1.11 → 0.78 | 3.56 → 4.45 | 28.1 → 35.3 |
 * | `nnpdf40-sparse`'s 42 hadronic | 7.2 % | cpu | 2,054 → 751 | 17,662 → 5,045 | — |
 * | | | wasm | 136 → 121 | 469 → 515 | 3,407 → 4,007 |
 *
 * (wasm keeps both dense by default.)
 *
 * Precision: wasm's matrix product accumulates its inner dimension sequentially in float32;
 * over the 100,000-term contraction of the hadronic table above (positive terms) the largest
 * relative error was 1.2·10⁻⁵ on wasm, 1.5·10⁻⁶ on cpu.
 */
export { combineOperands } from './compound.js';
export {
  CachedCompaction,
  CompactLuminosity,
  compactFkValues,
  compactLuminosityContraction,
  compactLuminosityRows,
  MIN_DROPPED_ROW_SHARE,
  minDroppedRowShare,
  type CompactLuminosityRows,
} from './compact-luminosity.js';
export {
  DIS_FORMULATIONS,
  FK_TRANSPOSE_STORAGES,
  FkConvolution,
  fkTensorShape,
  fkTensorValues,
  HADRONIC_FORMULATIONS,
  KEEP_TRANSPOSE_MAX_VALUES,
  type DisFormulation,
  type FkTransposeStorage,
  type Formulations,
  type HadronicFormulation,
} from './fk-convolution.js';
export { flavourLuminosityContraction, luminosityContraction } from './luminosity-contraction.js';
export { layoutFromConfig, layoutToConfig } from './observable-config.js';
export { sameDisWindow, StackedDisTables } from './stacked-dis-tables.js';
export {
  DEFAULT_DIS_FORMULATION,
  DEFAULT_HADRONIC_FORMULATION,
  ObservableLayer,
  observableLayer,
  type ObservableLayerArgs,
} from './observable-layer.js';
export {
  fkSize,
  observableLayout,
  operandSize,
  validateObservable,
  type DisFkLayout,
  type FkLayout,
  type HadronicFkLayout,
  type ObservableLayout,
} from './observable-layout.js';
