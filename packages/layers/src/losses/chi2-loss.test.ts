import * as tf from '@tensorflow/tfjs-core';
import * as tfl from '@tensorflow/tfjs-layers';
import { InvalidArgumentError, ShapeError, type Chi2Structure } from '@partonfit/core';
import { expect, it } from 'vitest';
import {
  layerGradientGrowth,
  randomArray,
  saveAndReload,
  toFloat32,
  values,
  worstError,
} from '../ops/numeric.fixture.js';
import { describeOnBackends } from '@partonfit/testing';
import { PER_REPLICA_PRODUCTS } from './chi2-forms.js';
import { chi2LayoutFromConfig } from './chi2-layout.js';
import { Chi2Loss, chi2Loss, type Chi2LossArgs } from './chi2-loss.js';
import {
  chi2Reference,
  randomCovarianceStructure,
  randomEigenbasisStructure,
  type BlockSpec,
} from './losses.fixture.js';

const REPLICAS = 4;
const NDATA = 23;
/** Blocks leave points 0–1, 9 and 21–22 out: those must not count. */
const BLOCKS: BlockSpec[] = [
  [2, 7, 5],
  [10, 11, 11],
];

const pseudodata = toFloat32(randomArray(REPLICAS * NDATA, 100));
const centralData = toFloat32(randomArray(NDATA, 101));
const predictionValues = toFloat32(randomArray(REPLICAS * NDATA, 102));
const upstreamValues = toFloat32(randomArray(REPLICAS, 103, 0.5, 2));

/**
 * Runs the layer on fixed predictions; the worst errors (≤ 1 is float32-close) of χ² against the
 * float64 loop and of the gradient d(Σ u ⊙ χ²)/d predictions.
 */
function compare(args: Chi2LossArgs & { structure: Chi2Structure; data: Float32Array }) {
  const layer = chi2Loss(args);
  const reference = chi2Reference(args.structure, args.data, predictionValues, REPLICAS);
  const predictions = tf.tensor2d(predictionValues, [REPLICAS, NDATA]);
  const upstream = tf.tensor1d(upstreamValues);
  const chi2 = layer.apply(predictions) as tf.Tensor;
  const gradient = tf.grad((input: tf.Tensor) =>
    tf.sum(tf.mul(layer.apply(input) as tf.Tensor, upstream)),
  )(predictions);
  const result = {
    shape: chi2.shape,
    chi2Error: worstError(values(chi2), reference.chi2, 1e-5, reference.scale),
    gradientError: worstError(values(gradient), reference.gradient(upstreamValues), 1e-5),
    gradientAtUncountedPoints: Array.from({ length: REPLICAS }, (_, r) =>
      [0, 1, 9, 21, 22].map((i) => Math.abs(values(gradient)[r * NDATA + i])),
    ).flat(),
  };
  tf.dispose([predictions, upstream, chi2, gradient]);
  layer.dispose();
  return result;
}

/** What a correct layer gives: float32-close χ² and gradient, zero gradient off the blocks. */
const MATCHES = { shape: [REPLICAS], chi2: 'close', gradient: 'close', uncounted: 'zero' };

/** {@link compare}'s result as a verdict, with the worst error shown when it is not close. */
function verdict(result: ReturnType<typeof compare>) {
  return {
    shape: result.shape,
    chi2: result.chi2Error <= 1 ? 'close' : result.chi2Error,
    gradient: result.gradientError <= 1 ? 'close' : result.gradientError,
    uncounted: result.gradientAtUncountedPoints.every((value) => value === 0)
      ? 'zero'
      : result.gradientAtUncountedPoints,
  };
}

describeOnBackends('Chi2Loss', () => {
  it('should equal the float64 loop with shared covariance blocks and per-replica data', () => {
    const structure = randomCovarianceStructure(NDATA, 1, BLOCKS, 1);
    expect(verdict(compare({ structure, data: pseudodata }))).toEqual(MATCHES);
  });

  for (const perReplicaProduct of PER_REPLICA_PRODUCTS) {
    it(`should equal the float64 loop with per-replica covariance blocks (${perReplicaProduct})`, () => {
      const structure = randomCovarianceStructure(NDATA, REPLICAS, BLOCKS, 2);
      expect(verdict(compare({ structure, data: pseudodata, perReplicaProduct }))).toEqual(MATCHES);
    });
  }

  it('should equal the float64 loop in a shared eigenbasis with per-replica mode weights', () => {
    const structure = randomEigenbasisStructure(NDATA, REPLICAS, BLOCKS, 3);
    expect(verdict(compare({ structure, data: pseudodata }))).toEqual(MATCHES);
  });

  it('should equal the float64 loop in an eigenbasis with shared mode weights', () => {
    const structure = randomEigenbasisStructure(NDATA, 1, BLOCKS, 4);
    expect(verdict(compare({ structure, data: pseudodata }))).toEqual(MATCHES);
  });

  it('should give the experimental χ² of central data (1, data) with a shared structure', () => {
    const structure = randomCovarianceStructure(NDATA, 1, BLOCKS, 5);
    expect(verdict(compare({ structure, data: centralData }))).toEqual(MATCHES);
  });

  it('should sum a large block to float32 accuracy (staged sums on wasm)', () => {
    const ndata = 3000;
    const structure: Chi2Structure = {
      kind: 'eigenbasis',
      ndata,
      replicas: 1,
      blocks: [
        {
          offset: 0,
          size: ndata,
          modes: 1,
          rotation: new Float32Array(ndata).fill(1),
          weights: Float32Array.of(1),
        },
      ],
    };
    // Residuals of 1 at each point: χ² = (Σ_i 1)² = ndata².
    const layer = chi2Loss({ structure, data: new Float32Array(ndata).fill(1) });
    const chi2 = layer.apply(tf.zeros([2, ndata])) as tf.Tensor;
    expect(Array.from(chi2.dataSync())).toEqual([ndata * ndata, ndata * ndata]);
    chi2.dispose();
    layer.dispose();
  });

  it('should follow new data given with assignData', () => {
    const structure = randomCovarianceStructure(NDATA, 1, BLOCKS, 6);
    const layer = chi2Loss({ structure, data: pseudodata });
    const predictions = tf.tensor2d(predictionValues, [REPLICAS, NDATA]);
    (layer.apply(predictions) as tf.Tensor).dispose();
    layer.assignData(predictionValues);
    const chi2 = layer.apply(predictions) as tf.Tensor;
    expect(Array.from(chi2.dataSync())).toEqual([0, 0, 0, 0]);
    tf.dispose([predictions, chi2]);
    layer.dispose();
  });

  it('should give identical χ² after a save and reload of a LayersModel', async () => {
    const input = tfl.input({ shape: [NDATA] });
    const training = chi2Loss({
      structure: randomEigenbasisStructure(NDATA, REPLICAS, BLOCKS, 7),
      data: pseudodata,
      name: 'training',
    }).apply(input) as tfl.SymbolicTensor;
    const experimental = chi2Loss({
      structure: randomCovarianceStructure(NDATA, 1, BLOCKS, 8),
      data: centralData,
      name: 'experimental',
    }).apply(input) as tfl.SymbolicTensor;
    const model = tfl.model({ inputs: input, outputs: [training, experimental] });
    const reloaded = await saveAndReload(model);
    const predictions = tf.tensor2d(predictionValues, [REPLICAS, NDATA]);
    const before = model.predict(predictions, { batchSize: REPLICAS }) as tf.Tensor[];
    const after = reloaded.predict(predictions, { batchSize: REPLICAS }) as tf.Tensor[];
    expect(after.map((chi2) => Array.from(chi2.dataSync()))).toEqual(
      before.map((chi2) => Array.from(chi2.dataSync())),
    );
    expect(reloaded.getLayer('training')).toBeInstanceOf(Chi2Loss);
    expect(reloaded.getLayer('training').getConfig()).toEqual(
      model.getLayer('training').getConfig(),
    );
    expect(reloaded.trainableWeights).toHaveLength(0);
    tf.dispose([predictions, ...before, ...after]);
    model.dispose();
    reloaded.dispose();
  });

  it('should not leak tensors over 100 forward and backward passes', () => {
    const layers = [
      chi2Loss({ structure: randomCovarianceStructure(NDATA, 1, BLOCKS, 9), data: pseudodata }),
      chi2Loss({
        structure: randomCovarianceStructure(NDATA, REPLICAS, BLOCKS, 10),
        data: pseudodata,
        perReplicaProduct: 'broadcast',
      }),
      chi2Loss({
        structure: randomEigenbasisStructure(NDATA, REPLICAS, BLOCKS, 11),
        data: pseudodata,
      }),
    ];
    const predictions = tf.tensor2d(predictionValues, [REPLICAS, NDATA]);
    expect(layerGradientGrowth(layers, predictions)).toBe(0);
    predictions.dispose();
    for (const layer of layers) layer.dispose();
  });
});

describeOnBackends('Chi2Loss input checks', () => {
  const structure = randomCovarianceStructure(NDATA, REPLICAS, BLOCKS, 12);

  it('should reject data whose length is not replicas × ndata, or that holds NaN', () => {
    expect(() => chi2Loss({ structure, data: pseudodata.subarray(1) })).toThrow(
      /data: length 91 is not a multiple of ndata = 23/,
    );
    expect(() => chi2Loss({ structure, data: pseudodata, dataReplicas: 2 })).toThrow(ShapeError);
    const poisoned = Float32Array.from(pseudodata);
    poisoned[5] = Number.POSITIVE_INFINITY;
    expect(() => chi2Loss({ structure, data: poisoned })).toThrow(
      /chi2 data: value \[5\] is Infinity/,
    );
  });

  it('should reject overlapping or out-of-range blocks and weights of the wrong size', () => {
    expect(() =>
      chi2Loss({
        structure: randomCovarianceStructure(
          NDATA,
          1,
          [
            [0, 5],
            [4, 3],
          ],
          1,
        ),
        data: centralData,
      }),
    ).toThrow(/chi2 structure block 1 offset: expected an integer ≥ 5/);
    expect(() =>
      chi2Loss({ structure: randomCovarianceStructure(NDATA, 1, [[20, 5]], 1), data: centralData }),
    ).toThrow(/points \[20, 25\) run past ndata = 23/);
    const [first] = structure.blocks;
    expect(() =>
      chi2Loss({
        structure: { ...structure, blocks: [{ ...first, weights: first.weights.subarray(3) }] },
        data: pseudodata,
      }),
    ).toThrow(/chi2 structure block 0 weights: expected shape \[196\]/);
    const eigen = randomEigenbasisStructure(NDATA, 1, [[0, 4, 2]], 1);
    const rotation = Float32Array.from(eigen.blocks[0].rotation);
    rotation[3] = Number.NaN;
    expect(() =>
      chi2Loss({
        structure: { ...eigen, blocks: [{ ...eigen.blocks[0], rotation }] },
        data: centralData,
      }),
    ).toThrow(/block 0 rotation: value \[3\] is NaN/);
  });

  it('should reject predictions for another replica count or data size', () => {
    const layer = chi2Loss({ structure, data: pseudodata });
    const wrongReplicas = tf.zeros([REPLICAS + 1, NDATA]);
    const wrongData = tf.zeros([REPLICAS, NDATA + 1]);
    expect(() => layer.apply(wrongReplicas)).toThrow(/expected shape \[4, 23\]/);
    expect(() => chi2Loss({ structure, data: pseudodata }).apply(wrongData)).toThrow(ShapeError);
    tf.dispose([wrongReplicas, wrongData]);
  });

  it('should reject a malformed config and an unknown product', () => {
    expect(() =>
      chi2LayoutFromConfig({ kind: 'cholesky', ndata: 1, replicas: 1, blocks: [] }),
    ).toThrow(/structure.kind: expected 'covariance' or 'eigenbasis', got "cholesky"/);
    expect(() =>
      chi2LayoutFromConfig({
        kind: 'eigenbasis',
        ndata: 4,
        replicas: 1,
        blocks: [{ offset: 0, size: 4 }],
      }),
    ).toThrow(/structure.blocks\[0\].modes: expected a number/);
    expect(() =>
      chi2Loss({ structure, data: pseudodata, perReplicaProduct: 'einsum' as 'batched' }),
    ).toThrow(InvalidArgumentError);
  });
});
