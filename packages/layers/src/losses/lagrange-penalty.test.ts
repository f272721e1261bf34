import * as tf from '@tensorflow/tfjs-core';
import * as tfl from '@tensorflow/tfjs-layers';
import { InvalidArgumentError, ShapeError } from '@partonfit/core';
import { expect, it } from 'vitest';
import {
  randomArray,
  saveAndReload,
  tensorGrowth,
  toFloat32,
  values,
  worstError,
} from '../ops/numeric.fixture.js';
import { describeOnBackends } from '@partonfit/testing';
import {
  integrabilityLoss,
  LagrangePenalty,
  POSITIVITY_ELU_ALPHA,
  positivityLoss,
} from './lagrange-penalty.js';

const REPLICAS = 3;
const NDATA = 40;
/** Predictions of both signs, some large (so that e^{−λy} would overflow for y < 0). */
const predictionValues = toFloat32(randomArray(REPLICAS * NDATA, 200, -3, 3));
const upstreamValues = toFloat32(randomArray(REPLICAS, 201, 0.5, 2));

/** Float64 loops: the penalty per replica and its derivative with respect to each prediction. */
function positivityReference(multiplier: number, alpha = POSITIVITY_ELU_ALPHA) {
  return reference(
    (y) => {
      const z = -multiplier * y;
      return z > 0 ? z : alpha * Math.expm1(z);
    },
    (y) => {
      const z = -multiplier * y;
      return -multiplier * (z > 0 ? 1 : alpha * Math.exp(z));
    },
  );
}

function integrabilityReference(multiplier: number) {
  return reference(
    (y) => (multiplier * y) ** 2,
    (y) => 2 * multiplier * multiplier * y,
  );
}

function reference(term: (y: number) => number, derivative: (y: number) => number) {
  const penalty = new Float64Array(REPLICAS);
  const gradient = new Float64Array(REPLICAS * NDATA);
  for (let r = 0; r < REPLICAS; r++) {
    for (let i = 0; i < NDATA; i++) {
      const y = predictionValues[r * NDATA + i];
      penalty[r] += term(y);
      gradient[r * NDATA + i] = upstreamValues[r] * derivative(y);
    }
  }
  return { penalty, gradient };
}

function run(layer: LagrangePenalty) {
  const predictions = tf.tensor2d(predictionValues, [REPLICAS, NDATA]);
  const upstream = tf.tensor1d(upstreamValues);
  const penalty = layer.apply(predictions) as tf.Tensor;
  const gradient = tf.grad((input: tf.Tensor) =>
    tf.sum(tf.mul(layer.apply(input) as tf.Tensor, upstream)),
  )(predictions);
  const result = { shape: penalty.shape, penalty: values(penalty), gradient: values(gradient) };
  tf.dispose([predictions, upstream, penalty, gradient]);
  return result;
}

describeOnBackends('LagrangePenalty', () => {
  it('should give the positivity elu penalty per replica and its gradient', () => {
    const layer = positivityLoss({ multiplier: 30 });
    const result = run(layer);
    const expected = positivityReference(30);
    expect(result.shape).toEqual([REPLICAS]);
    expect(worstError(result.penalty, expected.penalty)).toBeLessThanOrEqual(1);
    expect(worstError(result.gradient, expected.gradient)).toBeLessThanOrEqual(1);
    expect(result.gradient.every(Number.isFinite)).toBe(true);
    layer.dispose();
  });

  it('should give the integrability penalty Σ (λy)² per replica and its gradient', () => {
    const layer = integrabilityLoss({ multiplier: 0.5 });
    const result = run(layer);
    const expected = integrabilityReference(0.5);
    expect(worstError(result.penalty, expected.penalty)).toBeLessThanOrEqual(1);
    expect(worstError(result.gradient, expected.gradient)).toBeLessThanOrEqual(1);
    layer.dispose();
  });

  it('should follow λ set or scaled on the device without a rebuild', () => {
    const layer = positivityLoss({ multiplier: 1 });
    run(layer);
    layer.setMultiplier(100);
    expect(worstError(run(layer).penalty, positivityReference(100).penalty)).toBeLessThanOrEqual(1);
    layer.scaleMultiplier(1.5);
    expect(layer.multiplierValue()).toBeCloseTo(150, 4);
    const scaled = run(layer);
    expect(worstError(scaled.penalty, positivityReference(150).penalty)).toBeLessThanOrEqual(1);
    expect(worstError(scaled.gradient, positivityReference(150).gradient)).toBeLessThanOrEqual(1);
    layer.dispose();
  });

  it('should give each replica its own λ, as a layer of that λ alone would', () => {
    const multipliers = [30, 2, 0.5];
    const layer = positivityLoss({ multiplier: multipliers });
    const result = run(layer);
    const alone = multipliers.map((multiplier) => run(positivityLoss({ multiplier })));
    expect(layer.perReplica).toBe(true);
    expect(layer.multiplierTensor().shape).toEqual([REPLICAS, 1]);
    for (let r = 0; r < REPLICAS; r++) {
      expect(result.penalty[r]).toBe(alone[r].penalty[r]);
      expect(result.gradient.slice(r * NDATA, (r + 1) * NDATA)).toEqual(
        alone[r].gradient.slice(r * NDATA, (r + 1) * NDATA),
      );
    }
    layer.scaleMultiplier([2, 1.5, 1]);
    expect(Array.from(layer.multiplierTensor().dataSync())).toEqual([60, 3, 0.5]);
    layer.setMultiplier(4);
    expect(Array.from(layer.multiplierTensor().dataSync())).toEqual([4, 4, 4]);
    expect(() => {
      layer.scaleMultiplier([1, 2]);
    }).toThrow(/factor: expected 3 value\(s\), one per replica, got 2/);
    const wrong = tf.zeros([2, NDATA]);
    expect(() => integrabilityLoss({ multiplier: [1, 2, 3] }).apply(wrong)).toThrow(ShapeError);
    wrong.dispose();
    layer.dispose();
  });

  it('should keep λ and α through a save and reload', async () => {
    const input = tfl.input({ shape: [NDATA] });
    const positivity = positivityLoss({ multiplier: 2, alpha: 1e-3, name: 'positivity' });
    const integrability = integrabilityLoss({ name: 'integrability' });
    const model = tfl.model({
      inputs: input,
      outputs: [positivity.apply(input), integrability.apply(input)] as tfl.SymbolicTensor[],
    });
    positivity.setMultiplier(7);
    const reloaded = await saveAndReload(model);
    const reloadedPositivity = reloaded.getLayer('positivity');
    if (!(reloadedPositivity instanceof LagrangePenalty)) {
      throw new Error('the reloaded layer is not a LagrangePenalty');
    }
    expect(reloadedPositivity.multiplierValue()).toBe(7);
    const result = run(reloadedPositivity);
    const expected = positivityReference(7, 1e-3);
    expect(worstError(result.penalty, expected.penalty)).toBeLessThanOrEqual(1);
    model.dispose();
    reloaded.dispose();
  });

  it('should not leak tensors over 100 steps, λ updates included', () => {
    const layers = [positivityLoss({ multiplier: 3 }), integrabilityLoss({ multiplier: 2 })];
    const predictions = tf.tensor2d(predictionValues, [REPLICAS, NDATA]);
    const step = () => {
      tf.tidy(() => {
        for (const layer of layers) {
          tf.grad((input: tf.Tensor) => tf.sum(layer.apply(input) as tf.Tensor))(predictions);
          layer.scaleMultiplier(1.001);
        }
      });
    };
    expect(tensorGrowth(step)).toBe(0);
    predictions.dispose();
    for (const layer of layers) layer.dispose();
  });

  it('should reject a non-finite λ or α and predictions that are not (replicas, data)', () => {
    expect(() => positivityLoss({ multiplier: Number.NaN })).toThrow(
      /multiplier: expected a finite number, got NaN/,
    );
    expect(() => positivityLoss({ alpha: Number.POSITIVE_INFINITY })).toThrow(InvalidArgumentError);
    expect(() => {
      positivityLoss().setMultiplier(1);
    }).toThrow(/not built yet/);
    const layer = integrabilityLoss();
    const wrong = tf.zeros([2, 3, 4]);
    expect(() => layer.apply(wrong)).toThrow(/ndim/);
    expect(() => layer.computeOutputShape([2, 3, 4])).toThrow(ShapeError);
    wrong.dispose();
  });
});
