import * as tf from '@tensorflow/tfjs-core';
import * as tfl from '@tensorflow/tfjs-layers';
import {
  InvalidArgumentError,
  OBSERVABLE_OPERATIONS,
  ShapeError,
  type FkTensor,
  type ObservableOperation,
  type ObservableTensors,
  OPERAND_COUNTS,
} from '@partonfit/core';
import { expect, it } from 'vitest';
import {
  layerGradientGrowth,
  randomArray,
  saveAndReload,
  toFloat32,
  values,
  worstError,
} from '../ops/numeric.fixture.js';
import { LUMINOSITY_CONTRACTION_KERNEL } from '@partonfit/backend';
import { describeOnBackends, registeredKernelsOf } from '@partonfit/testing';
import {
  DIS_FORMULATIONS,
  HADRONIC_FORMULATIONS,
  type FkTransposeStorage,
} from './fk-convolution.js';
import { layoutFromConfig } from './observable-config.js';
import { ObservableLayer, observableLayer } from './observable-layer.js';
import {
  observableReference,
  randomDisTable,
  randomHadronicTable,
  randomPdf,
} from './observable.fixture.js';

const REPLICAS = 3;
const X_POINTS = 11;

const disObservable: ObservableTensors = {
  name: 'DIS_TWO_TABLES',
  ndata: 9,
  operation: 'NULL',
  operands: [
    [
      randomDisTable({ name: 'low', ndata: 4, nx: 6, xOffset: 0, seed: 1 }, [1, 2, 9, 10]),
      randomDisTable({ name: 'high', ndata: 5, nx: 7, xOffset: 4, seed: 2 }, [2, 0, 13]),
    ],
  ],
};

const hadronicObservable: ObservableTensors = {
  name: 'HADRONIC_TWO_TABLES',
  ndata: 7,
  operation: 'NULL',
  operands: [
    [
      randomHadronicTable({ name: 'a', ndata: 3, nx: 5, xOffset: 2, seed: 3 }, [
        [1, 2],
        [2, 1],
        [2, 2],
        [9, 3],
      ]),
      // A repeated channel: the padded layout must add the two.
      randomHadronicTable({ name: 'b', ndata: 4, nx: 4, xOffset: 7, seed: 4 }, [
        [0, 13],
        [5, 5],
        [5, 5],
      ]),
    ],
  ],
};

/** Random upstream weights w, so that the checked gradient is d(Σ w ⊙ output)/d pdf. */
function upstream(ndata: number, seed: number): Float32Array {
  return toFloat32(randomArray(REPLICAS * ndata, seed));
}

/**
 * Runs the layer on a random PDF and compares with the float64 loop: the output shape, and the
 * worst errors (≤ 1 is float32-close) of the output and of the gradient of Σ w ⊙ output.
 */
function compareWithReference(layer: ObservableLayer, observable: ObservableTensors, pdfSeed = 5) {
  const positive = observable.operation !== 'NULL';
  const pdfValues = randomPdf(REPLICAS, X_POINTS, pdfSeed, positive);
  const weights = upstream(observable.ndata, pdfSeed + 1);
  const reference = observableReference(observable, pdfValues, REPLICAS, X_POINTS);
  const pdf = tf.tensor3d(Float32Array.from(pdfValues), [REPLICAS, X_POINTS, 14]);
  const w = tf.tensor2d(weights, [REPLICAS, observable.ndata]);
  const output = layer.apply(pdf) as tf.Tensor;
  const gradient = tf.grad((input: tf.Tensor) =>
    tf.sum(tf.mul(layer.apply(input) as tf.Tensor, w)),
  )(pdf);
  const result = {
    shape: output.shape,
    outputError: worstError(values(output), reference.output, 2e-5),
    gradientError: worstError(
      values(gradient),
      reference.gradient(Float64Array.from(weights)),
      2e-5,
    ),
  };
  tf.dispose([pdf, w, output, gradient]);
  return result;
}

describeOnBackends('ObservableLayer', (backend) => {
  for (const disFormulation of DIS_FORMULATIONS) {
    for (const fkTranspose of ['keep', 'recompute'] as FkTransposeStorage[]) {
      it(`should equal the float64 loop for DIS tables (${disFormulation}, ${fkTranspose})`, () => {
        const layer = observableLayer({ observable: disObservable, disFormulation, fkTranspose });
        const result = compareWithReference(layer, disObservable);
        expect(result.outputError).toBeLessThanOrEqual(1);
        expect(result.gradientError).toBeLessThanOrEqual(1);
        layer.dispose();
      });
    }
  }

  for (const hadronicFormulation of HADRONIC_FORMULATIONS) {
    for (const fkTranspose of ['keep', 'recompute'] as FkTransposeStorage[]) {
      it(`should equal the float64 loop for hadronic tables (${hadronicFormulation}, ${fkTranspose})`, () => {
        const layer = observableLayer({
          observable: hadronicObservable,
          hadronicFormulation,
          fkTranspose,
        });
        const result = compareWithReference(layer, hadronicObservable);
        expect(result.outputError).toBeLessThanOrEqual(1);
        expect(result.gradientError).toBeLessThanOrEqual(1);
        layer.dispose();
      });
    }
  }

  if (backend === 'native') {
    it('should run the fused contraction alone for a hadronic table over the whole x-grid', async () => {
      const observable: ObservableTensors = {
        name: 'HADRONIC_WHOLE_GRID',
        ndata: 3,
        operation: 'NULL',
        operands: [
          [
            randomHadronicTable({ name: 'whole', ndata: 3, nx: X_POINTS, xOffset: 0, seed: 6 }, [
              [1, 2],
              [2, 1],
            ]),
          ],
        ],
      };
      const layer = observableLayer({ observable });
      const pdf = tf.tensor3d(Float32Array.from(randomPdf(REPLICAS, X_POINTS, 7)), [
        REPLICAS,
        X_POINTS,
        14,
      ]);
      const apply = () => {
        tf.dispose(layer.apply(pdf) as tf.Tensor);
      };
      apply();
      expect(await registeredKernelsOf(apply)).toEqual([LUMINOSITY_CONTRACTION_KERNEL]);
      tf.dispose(pdf);
      layer.dispose();
    });
  }

  for (const operation of OBSERVABLE_OPERATIONS) {
    it(`should apply the compound operation ${operation}`, () => {
      const ndata = 3;
      const operands = Array.from({ length: OPERAND_COUNTS[operation] }, (_, k): FkTensor[] => [
        k === 1 && operation === 'RATIO'
          ? // A one-point hadronic denominator, broadcast over the numerator's points.
            randomHadronicTable(
              { name: `total`, ndata: 1, nx: 3, xOffset: 1, seed: 40, positive: true },
              [
                [2, 2],
                [1, 2],
              ],
            )
          : randomDisTable(
              { name: `op${k}`, ndata, nx: 4, xOffset: k % 5, seed: 20 + k, positive: true },
              [1, 2, (k % 12) + 2],
            ),
      ]);
      const observable: ObservableTensors = { name: operation, ndata, operation, operands };
      const layer = observableLayer({ observable });
      const result = compareWithReference(layer, observable, 50);
      expect(result.shape).toEqual([REPLICAS, ndata]);
      expect(result.outputError).toBeLessThanOrEqual(1);
      expect(result.gradientError).toBeLessThanOrEqual(1);
      layer.dispose();
    });
  }

  it('should give identical outputs after a save and reload of a LayersModel', async () => {
    const observable: ObservableTensors = {
      name: 'ATLAS_RATIO_like',
      ndata: 4,
      operation: 'RATIO',
      operands: [hadronicObservable.operands[0].slice(1), disObservable.operands[0].slice(0, 1)],
    };
    const input = tfl.input({ shape: [X_POINTS, 14] });
    const output = observableLayer({
      observable,
      hadronicFormulation: 'two-step',
      name: 'atlas',
    }).apply(input) as tfl.SymbolicTensor;
    const model = tfl.model({ inputs: input, outputs: output });
    const reloaded = await saveAndReload(model);
    const pdf = tf.tensor3d(toFloat32(randomArray(REPLICAS * X_POINTS * 14, 9, 0.1, 1)), [
      REPLICAS,
      X_POINTS,
      14,
    ]);
    const before = model.predict(pdf, { batchSize: REPLICAS }) as tf.Tensor;
    const after = reloaded.predict(pdf, { batchSize: REPLICAS }) as tf.Tensor;
    expect(Array.from(after.dataSync())).toEqual(Array.from(before.dataSync()));
    const reloadedLayer = reloaded.getLayer('atlas');
    expect(reloadedLayer).toBeInstanceOf(ObservableLayer);
    expect(reloadedLayer.getConfig()).toEqual(model.getLayer('atlas').getConfig());
    expect(reloadedLayer.getConfig().hadronicFormulation).toBe('two-step');
    expect(reloadedLayer.trainableWeights).toHaveLength(0);
    expect(reloadedLayer.weights.map((weight) => weight.shape)).toEqual([
      [3, 4, 4 * 4],
      [6 * 4, 4],
    ]);
    tf.dispose([pdf, before, after]);
    model.dispose();
    reloaded.dispose();
  });

  it('should follow weights set after the first call (the cached transpose is refreshed)', () => {
    const layer = observableLayer({ observable: disObservable, fkTranspose: 'keep' });
    const pdf = tf.tensor3d(Float32Array.from(randomPdf(REPLICAS, X_POINTS, 7)), [
      REPLICAS,
      X_POINTS,
      14,
    ]);
    const gradient = (): Float64Array => {
      const result = tf.grad((input: tf.Tensor) => tf.sum(layer.apply(input) as tf.Tensor))(pdf);
      const gradientValues = values(result);
      result.dispose();
      return gradientValues;
    };
    const first = gradient();
    layer.setWeights(layer.getWeights().map((weight) => tf.mul(weight, 2)));
    const second = gradient();
    expect(
      worstError(
        second,
        first.map((value) => 2 * value),
      ),
    ).toBeLessThanOrEqual(1);
    expect(worstError(second, first)).toBeGreaterThan(1);
    pdf.dispose();
    layer.dispose();
  });

  it('should not leak tensors over 100 forward and backward passes', () => {
    const layers = [
      observableLayer({ observable: disObservable }),
      observableLayer({ observable: hadronicObservable }),
      observableLayer({ observable: hadronicObservable, hadronicFormulation: 'two-step' }),
      observableLayer({ observable: hadronicObservable, fkTranspose: 'recompute' }),
    ];
    const pdf = tf.tensor3d(Float32Array.from(randomPdf(REPLICAS, X_POINTS, 8)), [
      REPLICAS,
      X_POINTS,
      14,
    ]);
    expect(layerGradientGrowth(layers, pdf)).toBe(0);
    pdf.dispose();
    for (const layer of layers) layer.dispose();
  });
});

describeOnBackends('ObservableLayer input checks', () => {
  const table = disObservable.operands[0][0];
  const withTable = (changes: Partial<Record<keyof FkTensor, unknown>>): ObservableTensors => ({
    ...disObservable,
    ndata: 4,
    operands: [[{ ...table, ...changes } as FkTensor]],
  });

  it('should reject an operation with the wrong number of operands, naming the observable', () => {
    const observable = { ...disObservable, operation: 'RATIO' as ObservableOperation };
    expect(() => observableLayer({ observable })).toThrow(
      /observable DIS_TWO_TABLES: operation RATIO takes 2 operand\(s\), got 1/,
    );
  });

  it('should reject operands whose sizes do not match the observable', () => {
    expect(() => observableLayer({ observable: { ...disObservable, ndata: 8 } })).toThrow(
      /operand 0 has 9 data points; expected 8/,
    );
  });

  it('should reject tables with bad channels, sizes, values or x offsets', () => {
    expect(() => observableLayer({ observable: withTable({ channels: [1, 14, 2, 3] }) })).toThrow(
      /table low: channel flavour 14 is outside the evolution basis/,
    );
    expect(() => observableLayer({ observable: withTable({ nx: 0 }) })).toThrow(
      InvalidArgumentError,
    );
    expect(() => observableLayer({ observable: withTable({ xOffset: -1 }) })).toThrow(/xOffset/);
    expect(() =>
      observableLayer({ observable: withTable({ values: table.values.subarray(1) }) }),
    ).toThrow(ShapeError);
    const poisoned = Float32Array.from(table.values);
    poisoned[17] = Number.NaN;
    expect(() => observableLayer({ observable: withTable({ values: poisoned }) })).toThrow(
      /table low: values\[17\] is NaN/,
    );
  });

  it('should reject a PDF whose x-grid is shorter than a table reads, or with 13 flavours', () => {
    const layer = observableLayer({ observable: disObservable });
    const short = tf.zeros([REPLICAS, 10, 14]);
    expect(() => layer.apply(short)).toThrow(/table high: pdf: expected shape \[\*, 11, 14\]/);
    const thirteen = tf.zeros([REPLICAS, X_POINTS, 13]);
    expect(() => observableLayer({ observable: disObservable }).apply(thirteen)).toThrow(
      ShapeError,
    );
    tf.dispose([short, thirteen]);
  });

  it('should reject an unknown formulation and a malformed config', () => {
    expect(() =>
      observableLayer({
        observable: disObservable,
        hadronicFormulation: 'einsum' as 'padded',
      }),
    ).toThrow(/hadronicFormulation: expected one of luminosity, padded, two-step, got 'einsum'/);
    expect(() =>
      layoutFromConfig({ name: 'x', ndata: 1, operation: 'null', operands: [[{}]] }),
    ).toThrow(/observable.operands\[0\]\[0\].kind: expected a string/);
    expect(() => layoutFromConfig({ name: 'x', ndata: 1, operation: 'div', operands: [] })).toThrow(
      /observable.operation: unknown operation 'DIV'/,
    );
  });
});
