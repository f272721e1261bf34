import * as tf from '@tensorflow/tfjs-core';
import {
  EVOLUTION_BASIS_SIZE,
  evolutionIndex,
  InvalidArgumentError,
  ShapeError,
  SUM_RULE_MODES,
} from '@partonfit/core';
import { expect, it } from 'vitest';
import { logXFeatures, xColumn } from '../feature-scaling/network-input.js';
import { expectClose, randomArray, tensorGrowth, values } from '../ops/numeric.fixture.js';
import { describeOnBackends } from '@partonfit/testing';
import {
  gaussIntegrationGrid,
  nnpdfIntegrationGrid,
  type IntegrationGrid,
} from './integration-grid.js';
import { fitXGrid, pdfInputs, pdfLayers, unnormalisedPdf } from './pdf-model.fixture.js';
import { compositeGrid } from './quadrature.fixture.js';
import { SumRuleNormalisation, sumRuleNormalisation } from './sum-rule-normalisation.js';
import type { SumRuleMode } from './sum-rules.js';
import { rebuilt } from '../multi-dense/layer-testing.fixture.js';

const F = Object.fromEntries(
  (['photon', 'Sigma', 'g', 'V', 'V3', 'V8', 'V15', 'V24', 'V35'] as const).map((name) => [
    name,
    evolutionIndex(name),
  ]),
) as Record<'photon' | 'Sigma' | 'g' | 'V' | 'V3' | 'V8' | 'V15' | 'V24' | 'V35', number>;

/**
 * The normalised PDF on the fit points in float64, written from upstream's formulas
 * (`MSR_Normalization.call`): integrals with 1/x for V, V3, V8, V15, then the factors of each mode.
 */
function normalise64(
  pdf: ArrayLike<number>,
  replicas: number,
  points: number,
  fitPoints: number,
  grid: IntegrationGrid,
  mode: SumRuleMode,
): Float64Array {
  const out = new Float64Array(replicas * fitPoints * EVOLUTION_BASIS_SIZE);
  for (let r = 0; r < replicas; r++) {
    const integral = (f: number) => {
      let sum = 0;
      grid.x.forEach((x, i) => {
        const value = pdf[(r * points + fitPoints + i) * EVOLUTION_BASIS_SIZE + f];
        sum += grid.weights[i] * (f >= F.V && f <= F.V15 ? value / x : value);
      });
      return sum;
    };
    const factor = new Float64Array(EVOLUTION_BASIS_SIZE).fill(1);
    if (mode === 'ALL' || mode === 'MSR' || mode === 'ALLBUTCSR') {
      factor[F.g] = (1 - integral(F.Sigma) - integral(F.photon)) / integral(F.g);
    }
    if (mode === 'ALL' || mode === 'VSR') {
      factor[F.V] = factor[F.V24] = factor[F.V35] = 3 / integral(F.V);
      factor[F.V3] = 1 / integral(F.V3);
      factor[F.V8] = 3 / integral(F.V8);
      factor[F.V15] = 3 / integral(F.V15);
    }
    if (mode === 'ALLBUTCSR') {
      factor[F.V] = factor[F.V24] = factor[F.V35] = (4 - integral(F.V15) / 3) / integral(F.V);
      factor[F.V3] = 1 / integral(F.V3);
      factor[F.V8] = 3 / integral(F.V8);
    }
    for (let p = 0; p < fitPoints; p++) {
      for (let f = 0; f < EVOLUTION_BASIS_SIZE; f++) {
        const at = (r * fitPoints + p) * EVOLUTION_BASIS_SIZE + f;
        out[at] = factor[f] * pdf[(r * points + p) * EVOLUTION_BASIS_SIZE + f];
      }
    }
  }
  return out;
}

/** Integrals of the normalised PDF on a grid, in float64: Σ_i w_i x_i^p A_f pdf[r, i, f]. */
function integrals64(
  pdf: ArrayLike<number>,
  factors: ArrayLike<number>,
  grid: IntegrationGrid,
  r: number,
) {
  const n = grid.x.length;
  const integral = (f: number, divideByX: boolean) =>
    grid.x.reduce((sum, x, i) => {
      const value =
        factors[r * EVOLUTION_BASIS_SIZE + f] * pdf[(r * n + i) * EVOLUTION_BASIS_SIZE + f];
      return sum + grid.weights[i] * (divideByX ? value / x : value);
    }, 0);
  return {
    momentum: integral(F.Sigma, false) + integral(F.g, false) + integral(F.photon, false),
    V: integral(F.V, true),
    V3: integral(F.V3, true),
    V8: integral(F.V8, true),
    V15: integral(F.V15, true),
    V24: integral(F.V24, true),
    V35: integral(F.V35, true),
  };
}

describeOnBackends('SumRuleNormalisation', () => {
  it.each([
    {
      name: "upstream's 2000-point grid",
      grid: nnpdfIntegrationGrid(),
      momentum: 2e-4,
      valence: 2e-3,
    },
    {
      name: 'a 100-point Gauss–Legendre grid',
      grid: gaussIntegrationGrid(100),
      momentum: 2e-5,
      valence: 3e-5,
    },
  ])(
    'should make random NNPDF4.0-like PDFs obey the sum rules on an independent fine grid ($name)',
    ({ grid, momentum, valence }) => {
      const replicas = 4;
      const fitX = fitXGrid(20);
      const layers = pdfLayers({ replicaSeeds: [3, 40, 500, 6000], grid, fitPoints: fitX.length });
      const [nnInput, x] = pdfInputs(fitX, grid);
      const pdf = unnormalisedPdf(layers, nnInput, x);
      const factors = values(layers.sumRules.normalisationFactors(pdf));
      const normalised = layers.sumRules.apply(pdf) as tf.Tensor;
      expect(normalised.shape).toEqual([replicas, fitX.length, EVOLUTION_BASIS_SIZE]);
      const fine = compositeGrid();
      const finePdf = values(unnormalisedPdf(layers, logXFeatures(fine.x), xColumn(fine.x)));
      for (let r = 0; r < replicas; r++) {
        const sums = integrals64(finePdf, factors, fine, r);
        expect(Math.abs(sums.momentum - 1)).toBeLessThan(momentum);
        for (const [name, expected] of [
          ['V', 3],
          ['V3', 1],
          ['V8', 3],
          ['V15', 3],
          ['V24', 3],
          ['V35', 3],
        ] as const) {
          expect(Math.abs(sums[name] / expected - 1)).toBeLessThan(valence);
        }
      }
      const fitPart = values(tf.slice(pdf, [0, 0, 0], [-1, fitX.length, -1]));
      expectClose(
        values(normalised),
        fitPart.map(
          (value, i) => value * factors[Math.floor(i / (fitX.length * 14)) * 14 + (i % 14)],
        ),
        1e-6,
      );
    },
  );

  it.each(SUM_RULE_MODES)(
    'should equal the float64 formulas, forward and gradient (%s)',
    (mode) => {
      const [replicas, fitPoints] = [2, 5];
      const grid = gaussIntegrationGrid(12);
      const points = fitPoints + grid.x.length + 1;
      const pdf = Float32Array.from(
        randomArray(replicas * points * EVOLUTION_BASIS_SIZE, 7, 0.2, 1.5),
      );
      const upstream = Float32Array.from(
        randomArray(replicas * fitPoints * EVOLUTION_BASIS_SIZE, 8),
      );
      const layer = sumRuleNormalisation({ mode, grid, integrationOffset: fitPoints });
      const input = tf.tensor3d(pdf, [replicas, points, EVOLUTION_BASIS_SIZE]);
      const loss64 = (values64: ArrayLike<number>) =>
        normalise64(values64, replicas, points, fitPoints, grid, mode).reduce(
          (sum, v, i) => sum + v * upstream[i],
          0,
        );
      const gradient = tf.grad((x: tf.Tensor) =>
        tf.sum(
          tf.mul(
            layer.apply(x) as tf.Tensor,
            tf.tensor3d(upstream, [replicas, fitPoints, EVOLUTION_BASIS_SIZE]),
          ),
        ),
      )(input);
      const expectedGradient = Float64Array.from(pdf, (_, i) => {
        const step = 1e-6;
        const plus = Float64Array.from(pdf);
        const minus = Float64Array.from(pdf);
        plus[i] += step;
        minus[i] -= step;
        return (loss64(plus) - loss64(minus)) / (2 * step);
      });
      expect(gradient.shape).toEqual([replicas, points, EVOLUTION_BASIS_SIZE]);
      expectClose(
        values(layer.apply(input) as tf.Tensor),
        normalise64(pdf, replicas, points, fitPoints, grid, mode),
        2e-6,
      );
      expectClose(values(gradient), expectedGradient, 2e-5);
    },
  );

  it.each([
    ['fit', 0],
    ['fit', 3],
    ['all', 0],
    ['all', 2],
  ] as const)(
    'should give the gradient of its factors by autodiff (outputPoints %s, %i points after the grid)',
    (outputPoints, after) => {
      const [replicas, offset] = [3, 4];
      const grid = gaussIntegrationGrid(9);
      const points = offset + grid.x.length + after;
      const layer = sumRuleNormalisation({ grid, integrationOffset: offset, outputPoints });
      const shape: [number, number, number] = [replicas, points, EVOLUTION_BASIS_SIZE];
      const pdf = tf.tensor3d(
        Float32Array.from(randomArray(replicas * points * EVOLUTION_BASIS_SIZE, 13, 0.2, 1.5)),
        shape,
      );
      const returned = outputPoints === 'fit' ? offset : points;
      const upstream = tf.tensor3d(
        Float32Array.from(randomArray(replicas * returned * EVOLUTION_BASIS_SIZE, 14)),
        [replicas, returned, EVOLUTION_BASIS_SIZE],
      );
      const written = tf.grad((x: tf.Tensor) =>
        tf.sum(tf.mul(layer.apply(x) as tf.Tensor, upstream)),
      )(pdf);
      const autodiff = tf.grad((x: tf.Tensor) => {
        const factors = layer.normalisationFactors(x as tf.Tensor3D);
        const block = tf.slice(x, [0, 0, 0], [-1, returned, -1]);
        return tf.sum(tf.mul(tf.mul(block, factors), upstream));
      })(pdf);
      expect(written.shape).toEqual(shape);
      expectClose(values(written), values(autodiff), 1e-6);
    },
  );

  it('should keep what its gradient needs when the layer is disposed before the backward', () => {
    // as a model's layer for other x is (ReplicaPdfModel.at)
    const grid = gaussIntegrationGrid(9);
    const pdf = tf.tensor3d(Float32Array.from(randomArray(2 * 14 * 14, 15, 0.2, 1.5)), [2, 14, 14]);
    const kept = sumRuleNormalisation({ grid, integrationOffset: 5 });
    const expected = tf.grad((x: tf.Tensor) => tf.sum(tf.square(kept.apply(x) as tf.Tensor)))(pdf);
    const gradient = tf.grad((x: tf.Tensor) => {
      const layer = sumRuleNormalisation({ grid, integrationOffset: 5 });
      const output = layer.apply(x) as tf.Tensor;
      layer.dispose();
      return tf.sum(tf.square(output));
    })(pdf);
    expect(values(gradient)).toEqual(values(expected));
  });

  it('should return every point normalised with outputPoints all, and rebuild from its config', () => {
    const grid = gaussIntegrationGrid(10, 4);
    const layer = sumRuleNormalisation({ grid, integrationOffset: 3, outputPoints: 'all' });
    const pdf = tf.tensor3d(Float32Array.from(randomArray(2 * 13 * 14, 9, 0.1, 1)), [2, 13, 14]);
    const output = layer.apply(pdf) as tf.Tensor;
    expect(output.shape).toEqual([2, 13, 14]);
    expect(values(output)).toEqual(values(tf.mul(pdf, layer.normalisationFactors(pdf))));
    const copy = rebuilt(layer, SumRuleNormalisation);
    expect(copy.grid.x).toEqual(grid.x);
    expect(values(copy.apply(pdf) as tf.Tensor)).toEqual(values(output));
    const growth = tensorGrowth(() => {
      tf.grad((x: tf.Tensor) => tf.sum(layer.apply(x) as tf.Tensor))(pdf).dispose();
    });
    expect(growth).toBe(0);
  });

  it('should reject bad modes, offsets and inputs with typed errors', () => {
    const grid = gaussIntegrationGrid(10);
    expect(() =>
      sumRuleNormalisation({ grid, integrationOffset: 2, mode: 'TSR' as SumRuleMode }),
    ).toThrow(/mode: expected one of ALL, MSR, VSR, ALLBUTCSR, NONE/);
    expect(() => sumRuleNormalisation({ grid, integrationOffset: 0 })).toThrow(
      InvalidArgumentError,
    );
    const layer = sumRuleNormalisation({ grid, integrationOffset: 5 });
    expect(() => layer.apply(tf.zeros([2, 14, 14]))).toThrow(/points ≥ 15/);
    expect(() => layer.apply(tf.zeros([2, 20, 9]))).toThrow(ShapeError);
  });
});
