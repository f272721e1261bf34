import * as tf from '@tensorflow/tfjs-core';
import * as tfl from '@tensorflow/tfjs-layers';
import { InvalidArgumentError, ShapeError, type BasisFlavourSettings } from '@partonfit/core';
import { expect, it } from 'vitest';
import {
  expectClose,
  randomArray,
  tensorGrowth,
  toFloat32,
  values,
} from '../ops/numeric.fixture.js';
import { describeOnBackends } from '@partonfit/testing';
import { initialExponents } from './exponents.js';
import { NNPDF40_BASIS } from './nnpdf40-basis.fixture.js';
import { Preprocessing, preprocessing } from './preprocessing.js';
import {
  allVariablesOf,
  asVariable,
  rebuilt,
  variablesOf,
} from '../multi-dense/layer-testing.fixture.js';

/** Half the flavours trainable, to check both kinds side by side. */
const MIXED_BASIS = NNPDF40_BASIS.map((flavour, f) => ({ ...flavour, trainable: f % 2 === 0 }));

const POINTS = 41;

/** x in (0, 1], with x = 1 as the last point, `(points, 1)`. */
function xGrid(): Float32Array {
  const x = toFloat32(randomArray(POINTS, 3, 1e-6, 0.999));
  x[POINTS - 1] = 1;
  return x;
}

function exponentsOf(layer: Preprocessing, kind: 'alpha' | 'beta'): Float64Array[] {
  return layer.flavours.map((flavour) => {
    const weight = layer.weights.find((w) => w.originalName.endsWith(`${kind}_${flavour.fl}`));
    return values(weight!.read());
  });
}

describeOnBackends('Preprocessing', () => {
  it('should equal x^(1−α)(1−x)^β and its exponent gradients in float64', () => {
    const replicas = 3;
    const trainable = NNPDF40_BASIS.map((flavour) => ({ ...flavour, trainable: true }));
    const layer = preprocessing({ flavours: trainable, seeds: [5, 6, 7] });
    const x = xGrid();
    const output = layer.apply(tf.tensor2d(x, [POINTS, 1])) as tf.Tensor;
    expect(output.shape).toEqual([replicas, POINTS, 8]);
    const upstream = toFloat32(randomArray(replicas * POINTS * 8, 4));
    const { grads } = tf.variableGrads(
      () =>
        tf.sum<tf.Scalar>(
          tf.mul(
            layer.apply(tf.tensor2d(x, [POINTS, 1])) as tf.Tensor,
            tf.tensor3d(upstream, [replicas, POINTS, 8]),
          ),
        ),
      allVariablesOf(layer),
    );
    const alpha = exponentsOf(layer, 'alpha');
    const beta = exponentsOf(layer, 'beta');
    const expected = new Float64Array(replicas * POINTS * 8);
    const dAlpha = alpha.map(() => new Float64Array(replicas));
    const dBeta = beta.map(() => new Float64Array(replicas));
    for (let r = 0; r < replicas; r++) {
      for (let p = 0; p < POINTS; p++) {
        for (let f = 0; f < 8; f++) {
          const at = (r * POINTS + p) * 8 + f;
          const factor = x[p] ** (1 - alpha[f][r]) * (1 - x[p]) ** beta[f][r];
          expected[at] = factor;
          dAlpha[f][r] += -Math.log(x[p]) * factor * upstream[at];
          dBeta[f][r] += (x[p] === 1 ? 0 : Math.log(1 - x[p])) * factor * upstream[at];
        }
      }
    }
    expectClose(values(output), expected, 2e-6);
    layer.weights.forEach((weight) => {
      const name = weight.originalName.split('/').pop()!;
      const f = layer.flavours.findIndex((flavour) => name.endsWith(`_${flavour.fl}`));
      const expectedGrad = name.startsWith('alpha') ? dAlpha[f] : dBeta[f];
      const grad = values(grads[asVariable(weight.read()).name]);
      expect(grad.every(Number.isFinite)).toBe(true);
      expectClose(
        grad,
        expectedGrad,
        1e-4,
        expectedGrad.map(() => Math.max(...expectedGrad.map(Math.abs)) + 1),
      );
    });
  });

  it("should draw each replica's exponents from its own seed only, inside the runcard ranges", () => {
    const together = preprocessing({ flavours: NNPDF40_BASIS, seeds: [11, 22, 33] });
    const alone = preprocessing({ flavours: NNPDF40_BASIS, seeds: [22] });
    together.apply(tf.ones([2, 1]));
    alone.apply(tf.ones([2, 1]));
    const expected = initialExponents(NNPDF40_BASIS, 22, true);
    for (const kind of ['alpha', 'beta'] as const) {
      const fromTogether = exponentsOf(together, kind).map((replicaValues) => replicaValues[1]);
      const fromAlone = exponentsOf(alone, kind).map((replicaValues) => replicaValues[0]);
      expect(fromTogether).toEqual(fromAlone);
      expect(fromAlone).toEqual(Array.from(Float32Array.from(expected[kind])));
    }
    exponentsOf(together, 'alpha').forEach((replicaValues, f) => {
      const [low, high] = NNPDF40_BASIS[f].smallx;
      for (const alpha of replicaValues) {
        expect(alpha).toBeGreaterThanOrEqual(Math.fround(low));
        expect(alpha).toBeLessThanOrEqual(Math.fround(high));
      }
    });
    expect(exponentsOf(together, 'alpha')[0]).not.toEqual(exponentsOf(together, 'alpha')[1]);
  });

  it('should keep α independent of the large-x switch and drop β when it is off', () => {
    const withBeta = initialExponents(NNPDF40_BASIS, 77, true);
    const withoutBeta = initialExponents(NNPDF40_BASIS, 77, false);
    expect(withoutBeta.alpha).toEqual(withBeta.alpha);
    expect(Array.from(withoutBeta.beta)).toEqual(new Array(8).fill(0));
    const noLargeX = NNPDF40_BASIS.map(({ fl, smallx }) => ({ fl, smallx }));
    const layer = preprocessing({ flavours: noLargeX, seeds: [77], largeX: false });
    const x = xGrid();
    const output = values(layer.apply(tf.tensor2d(x, [POINTS, 1])) as tf.Tensor);
    expect(layer.weights.map((weight) => weight.originalName.split('/').pop())).toEqual(
      noLargeX.map((flavour) => `alpha_${flavour.fl}`),
    );
    const alpha = exponentsOf(layer, 'alpha');
    const expected = Array.from(
      { length: POINTS * 8 },
      (_, i) => x[Math.floor(i / 8)] ** (1 - alpha[i % 8][0]),
    );
    expectClose(output, expected, 2e-6);
  });

  it('should move only trainable exponents under an optimiser and clip them back into range', () => {
    const layer = preprocessing({ flavours: MIXED_BASIS, seeds: [1, 2] });
    const x = tf.tensor2d(xGrid(), [POINTS, 1]);
    layer.apply(x);
    expect(layer.trainableWeights.map((weight) => weight.originalName.split('/').pop())).toEqual(
      ['sng', 'v', 'v8', 't8'].flatMap((fl) => [`alpha_${fl}`, `beta_${fl}`]),
    );
    const before = layer.getWeights().map(values);
    const optimizer = tf.train.sgd(50);
    for (let step = 0; step < 3; step++) {
      optimizer.minimize(
        () => tf.sum<tf.Scalar>(layer.apply(x) as tf.Tensor),
        false,
        variablesOf([layer]),
      );
      layer.clipToRanges();
    }
    const after = layer.getWeights().map(values);
    const weights = layer.weights.map((weight, k) => {
      const name = weight.originalName.split('/').pop()!;
      const flavour = MIXED_BASIS.find((candidate) => name.endsWith(`_${candidate.fl}`))!;
      const [low, high] = name.startsWith('alpha') ? flavour.smallx : flavour.largex!;
      const inRange = after[k].every(
        (value) => value >= Math.fround(low) && value <= Math.fround(high),
      );
      const moved = after[k].some((value, r) => value !== before[k][r]);
      return { trainable: flavour.trainable, moved, inRange };
    });
    expect(weights.filter((weight) => weight.trainable)).toEqual(
      new Array(8).fill({ trainable: true, moved: true, inRange: true }),
    );
    expect(weights.filter((weight) => !weight.trainable)).toEqual(
      new Array(8).fill({ trainable: false, moved: false, inRange: true }),
    );
  });

  it("should take the runcard's fitting.basis entries as they are", () => {
    const basis: readonly BasisFlavourSettings[] = [
      { fl: 'g', smallx: [0.8, 1.0], largex: [3, 5], trainable: true },
      { fl: 'sng', smallx: [1.0, 1.1], trainable: false },
    ];
    const layer = preprocessing({ flavours: basis, seeds: [4], largeX: false });
    expect((layer.apply(tf.ones([3, 1])) as tf.Tensor).shape).toEqual([1, 3, 2]);
    expect(layer.trainableWeights.map((weight) => weight.originalName.split('/').pop())).toEqual([
      'alpha_g',
    ]);
  });

  it('should clip exactly to the range ends', () => {
    const layer = preprocessing({
      flavours: [{ fl: 'g', smallx: [0.5, 1.5], largex: [2, 4] }],
      seeds: [3, 4],
    });
    layer.apply(tf.ones([1, 1]));
    layer.setWeights([tf.tensor2d([[-7], [1.25]]), tf.tensor2d([[9], [1]])]);
    layer.clipToRanges();
    expect(layer.getWeights().map((weight) => Array.from(weight.dataSync()))).toEqual([
      [0.5, 1.25],
      [4, 2],
    ]);
  });

  it('should reuse the prefactor of fixed exponents until x or an exponent is written', async () => {
    const fixed = NNPDF40_BASIS.map((flavour) => ({ ...flavour, trainable: false }));
    const layer = preprocessing({ flavours: fixed, seeds: [5, 6] });
    const x = tf.tensor2d(xGrid(), [POINTS, 1]);
    const first = layer.apply(x) as tf.Tensor;
    // x^(1−α)(1−x)^β in float64 with the exponents the layer holds now
    const expected = () => {
      const alpha = exponentsOf(layer, 'alpha');
      const beta = exponentsOf(layer, 'beta');
      const xs = x.dataSync();
      const out = new Float64Array(2 * POINTS * 8);
      for (let r = 0; r < 2; r++) {
        for (let p = 0; p < POINTS; p++) {
          for (let f = 0; f < 8; f++) {
            out[(r * POINTS + p) * 8 + f] = xs[p] ** (1 - alpha[f][r]) * (1 - xs[p]) ** beta[f][r];
          }
        }
      }
      return out;
    };
    const alphaG = layer.weights.find((w) => w.originalName.endsWith('alpha_g'))!;
    // a second call is one clone of the kept prefactor, and disposing it keeps the cache
    const profile = await tf.profile(() => {
      tf.dispose(layer.apply(x) as tf.Tensor);
    });
    expect(profile.kernels.map((kernel) => kernel.name)).toEqual(['Identity']);
    expectClose(values(layer.apply(x) as tf.Tensor), expected(), 2e-6);
    alphaG.write(tf.tensor2d([[1.05], [1.05]]));
    const rewritten = layer.apply(x) as tf.Tensor;
    expectClose(values(rewritten), expected(), 2e-6);
    expect(values(rewritten)).not.toEqual(values(first));
    tf.dispose([x, first, rewritten]);
    layer.dispose();
  });

  it('should keep the number of tensors constant over 100 forward and backward passes', () => {
    const layer = preprocessing({ flavours: MIXED_BASIS, seeds: [1, 2, 3] });
    const x = tf.tensor2d(xGrid(), [POINTS, 1]);
    layer.apply(x);
    const growth = tensorGrowth(() => {
      const { value, grads } = tf.variableGrads(
        () => tf.sum<tf.Scalar>(layer.apply(x) as tf.Tensor),
        variablesOf([layer]),
      );
      layer.clipToRanges();
      value.dispose();
      Object.values(grads).forEach((grad) => {
        grad.dispose();
      });
    });
    expect(growth).toBe(0);
  });

  it('should work in a functional model and rebuild from its config', () => {
    const layer = preprocessing({ flavours: MIXED_BASIS, seeds: [8, 9] });
    const input = tfl.input({ shape: [1] });
    const model = tfl.model({ inputs: input, outputs: layer.apply(input) as tfl.SymbolicTensor });
    expect(model.outputs[0].shape).toEqual([2, null, 8]);
    const copy = rebuilt(layer, Preprocessing);
    const x = tf.tensor2d(xGrid(), [POINTS, 1]);
    expect(values(copy.apply(x) as tf.Tensor)).toEqual(values(model.apply(x) as tf.Tensor));
  });

  it('should reject bad settings and inputs with typed errors', () => {
    const base = { flavours: NNPDF40_BASIS, seeds: [1] };
    expect(() => preprocessing({ ...base, flavours: [{ fl: 'g', smallx: [1, 2] }] })).toThrow(
      /flavours\[0\]\.largex: flavour 'g' has no large-x range/,
    );
    expect(() =>
      preprocessing({ ...base, flavours: [NNPDF40_BASIS[0], NNPDF40_BASIS[0]] }),
    ).toThrow(/flavours\[1\]\.fl: flavour 'sng' appears twice/);
    expect(() =>
      preprocessing({ ...base, flavours: [{ fl: 'g', smallx: [2, 1], largex: [1, 2] }] }),
    ).toThrow(InvalidArgumentError);
    expect(() => preprocessing({ ...base, flavours: [] })).toThrow(/at least one flavour/);
    expect(() =>
      preprocessing({ ...base, flavours: [{ fl: 'Sigma', smallx: [1, 2], largex: [1, 2] }] }),
    ).toThrow(/flavours\[0\]\.fl: expected a name of lower-case letters and digits/);
    expect(() => preprocessing({ ...base, seeds: [] })).toThrow(/one seed per replica/);
    expect(() => preprocessing({ ...base, seeds: [-1] })).toThrow(/seeds\[0\]/);
    expect(() => preprocessing(base).apply(tf.ones([4, 2]))).toThrow(ShapeError);
  });
});
