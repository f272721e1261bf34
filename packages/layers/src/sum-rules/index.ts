/**
 * Sum rules: integration grids (upstream's 2000-point grid and Gauss–Legendre grids) and the
 * momentum and valence sum-rule normalisation of every replica.
 *
 * Which grid (measured; `grid-accuracy.test.ts`, `sum-rules.bench.ts`): for 20 random replicas
 * of the NNPDF4.0 network with NNPDF4.0 preprocessing ranges, the largest relative difference of
 * the factors A_g, A_V, A_V3, A_V8, A_V15 from their exact values (a 6,400-point composite
 * Gauss grid, float64 sums of the float32 PDF; floor ≈ 10⁻⁶ from float32 PDF values), and the
 * whole-PDF training step (network, preprocessing, rotation, sum rules) on 1,500 fit points plus
 * the grid, mean ms:
 *
 * | grid                     | max rel. error of A | wasm R=1 | R=10 | R=100 | cpu R=10 | R=100 |
 * |--------------------------|--------------------:|---------:|-----:|------:|---------:|------:|
 * | upstream 2000 points     | 1.5·10⁻⁴ (up to 7·10⁻⁴) |  16.6 |  116 |  1191 |     1158 | 13664 |
 * | Gauss–Legendre 200       |       2–5·10⁻⁷      |     13.3 | 59.5 |   578 |      574 |  7466 |
 * | Gauss–Legendre 100       |       3–9·10⁻⁷      |      8.8 | 58.5 |   565 |      537 |  5266 |
 * | Gauss–Legendre 50        |     4–14·10⁻⁷       |      5.3 | 56.2 |   542 |      518 |  5275 |
 *
 * So a 50–200-point Gauss grid does NOT reproduce the 2000-point grid's factors to 10⁻⁵ — they
 * differ by 1.5·10⁻⁴–7·10⁻⁴, all of it the 2000-point grid's own quadrature error, largest in
 * the valence integrals (A_V, A_V8, A_V15) — while it is 100–1000× closer to the exact
 * integrals and halves the step (the grid is evaluated by the whole network). Use
 * `nnpdfIntegrationGrid()` to reproduce upstream exactly, `gaussIntegrationGrid(100)` otherwise.
 *
 * @packageDocumentation
 */
export { gaussLegendre, type QuadratureRule } from '@partonfit/core';
export {
  customIntegrationGrid,
  gaussIntegrationGrid,
  INTEGRATION_SMALLEST_X,
  INTEGRATION_SPLIT_X,
  integrationGrid,
  nnpdfIntegrationGrid,
  type IntegrationGrid,
  type IntegrationGridSpec,
} from './integration-grid.js';
export {
  SumRuleNormalisation,
  sumRuleNormalisation,
  type SumRuleNormalisationArgs,
  type SumRuleOutputPoints,
} from './sum-rule-normalisation.js';
export {
  checkSumRuleMode,
  INTEGRATED_WITHOUT_X,
  SUM_RULES,
  sumRuleMatrices,
  type SumRule,
  type SumRuleMode,
} from './sum-rules.js';
