import * as tf from '@tensorflow/tfjs-core';
import * as tfl from '@tensorflow/tfjs-layers';
import { logXFeatures, xColumn } from '../feature-scaling/network-input.js';
import { multiDenseNetwork } from '../multi-dense/multi-dense-network.js';
import { multiDense } from '../multi-dense/multi-dense.js';
import type { PreprocessingFlavour } from '../preprocessing/exponents.js';
import { NNPDF40_BASIS } from '../preprocessing/nnpdf40-basis.fixture.js';
import { preprocessing, type Preprocessing } from '../preprocessing/preprocessing.js';
import { flavourRotation, type FlavourRotation } from '../rotation/flavour-rotation.js';
import type { IntegrationGrid } from './integration-grid.js';
import { sumRuleNormalisation, type SumRuleNormalisation } from './sum-rule-normalisation.js';
import type { SumRuleMode } from './sum-rules.js';

/** The NNPDF4.0 network: 2 → 25 → 20 → 8, tanh, tanh, linear. */
export const NNPDF40_NETWORK = {
  units: [25, 20, 8],
  activations: ['tanh', 'tanh', 'linear'],
} as const;

/** The layers of a whole multi-replica PDF, as a trainer would build them. */
export interface PdfLayers {
  /** Three MultiDense layers, or one MultiDenseNetwork. */
  readonly dense: readonly tfl.layers.Layer[];
  readonly preprocessing: Preprocessing;
  readonly rotation: FlavourRotation;
  readonly sumRules: SumRuleNormalisation;
}

/** Options of {@link pdfLayers}. */
export interface PdfLayersOptions {
  /** One base seed per replica; layer i uses seed + i, preprocessing seed + 100. */
  readonly replicaSeeds: readonly number[];
  readonly grid: IntegrationGrid;
  /** Number of fit points in front of the integration grid. */
  readonly fitPoints: number;
  readonly mode?: SumRuleMode;
  readonly basis?: readonly PreprocessingFlavour[];
  /** A MultiDense stack (default) or one MultiDenseNetwork. */
  readonly network?: 'stack' | 'network';
}

/**
 * MultiDense ×3 or a MultiDenseNetwork (NNPDF4.0) → Preprocessing (NNPDF4.0 ranges) → EVOL
 * rotation → sum rules.
 */
export function pdfLayers(options: PdfLayersOptions): PdfLayers {
  const { replicaSeeds } = options;
  return {
    dense:
      options.network === 'network'
        ? [
            multiDenseNetwork({
              units: NNPDF40_NETWORK.units,
              activations: NNPDF40_NETWORK.activations,
              seeds: NNPDF40_NETWORK.units.map((_, layer) =>
                replicaSeeds.map((seed) => seed + layer),
              ),
            }),
          ]
        : NNPDF40_NETWORK.units.map((units, layer) =>
            multiDense({
              units,
              activation: NNPDF40_NETWORK.activations[layer],
              seeds: replicaSeeds.map((seed) => seed + layer),
              sharedInput: layer === 0,
            }),
          ),
    preprocessing: preprocessing({
      flavours: options.basis ?? NNPDF40_BASIS,
      seeds: replicaSeeds.map((seed) => seed + 100),
    }),
    rotation: flavourRotation({ fitBasis: 'EVOL' }),
    sumRules: sumRuleNormalisation({
      mode: options.mode ?? 'ALL',
      grid: options.grid,
      integrationOffset: options.fitPoints,
    }),
  };
}

/**
 * The unnormalised PDF `(replicas, points, 14)`, eagerly.
 *
 * @param nnInput - `(points, 2)` = `[x, log x]`
 * @param x - `(points, 1)`
 */
export function unnormalisedPdf(layers: PdfLayers, nnInput: tf.Tensor, x: tf.Tensor): tf.Tensor3D {
  return tf.tidy(() => {
    const network = layers.dense.reduce((h, layer) => layer.apply(h) as tf.Tensor, nnInput);
    const prefactor = layers.preprocessing.apply(x) as tf.Tensor;
    return layers.rotation.apply(tf.mul(network, prefactor)) as tf.Tensor3D;
  });
}

/** The whole PDF as a functional `tf.LayersModel`: inputs `[x, log x]` and x, output normalised. */
export function pdfModel(layers: PdfLayers): tfl.LayersModel {
  const nnInput = tfl.input({ shape: [2], name: 'nn_input' });
  const x = tfl.input({ shape: [1], name: 'x' });
  const network = layers.dense.reduce(
    (h: tfl.SymbolicTensor, layer) => layer.apply(h) as tfl.SymbolicTensor,
    nnInput,
  );
  const prefactor = layers.preprocessing.apply(x) as tfl.SymbolicTensor;
  const product = tfl.layers.multiply().apply([network, prefactor]) as tfl.SymbolicTensor;
  const evolution = layers.rotation.apply(product) as tfl.SymbolicTensor;
  const pdf = layers.sumRules.apply(evolution) as tfl.SymbolicTensor;
  return tfl.model({ inputs: [nnInput, x], outputs: pdf });
}

/** A fit-like x-grid: `points` values log-spaced in [10⁻⁷, 0.9], `(points)`. */
export function fitXGrid(points: number): Float64Array {
  return Float64Array.from(
    { length: points },
    (_, i) => 10 ** (-7 + (i * Math.log10(0.9 / 1e-7)) / (points - 1)),
  );
}

/** The model inputs on `[fitX, grid.x]`: `[x, log x]` `(points, 2)` and x `(points, 1)`. */
export function pdfInputs(fitX: Float64Array, grid: IntegrationGrid): [tf.Tensor2D, tf.Tensor2D] {
  const points = Float64Array.from([...fitX, ...grid.x]);
  return [logXFeatures(points), xColumn(points)];
}
