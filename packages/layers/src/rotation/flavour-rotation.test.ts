import * as tf from '@tensorflow/tfjs-core';
import * as tfl from '@tensorflow/tfjs-layers';
import {
  EVOLUTION_BASIS_SIZE,
  FIT_BASES,
  FIT_BASIS_NAMES,
  fitBasisToEvolution,
  InvalidArgumentError,
  ShapeError,
} from '@partonfit/core';
import { expect, it } from 'vitest';
import {
  expectClose,
  randomArray,
  tensorGrowth,
  toFloat32,
  values,
} from '../ops/numeric.fixture.js';
import { describeOnBackends } from '@partonfit/testing';
import { FlavourRotation, flavourRotation } from './flavour-rotation.js';
import { rebuilt } from '../multi-dense/layer-testing.fixture.js';

const REPLICAS = 3;
const POINTS = 17;

/** evolution[r, p, e] = Σ_f rotation[e, f] · fitted[r, p, f], in float64 loops. */
function rotate64(
  fitted: ArrayLike<number>,
  rotation: Float64Array,
  flavours: number,
): Float64Array {
  const out = new Float64Array(REPLICAS * POINTS * EVOLUTION_BASIS_SIZE);
  for (let rp = 0; rp < REPLICAS * POINTS; rp++) {
    for (let e = 0; e < EVOLUTION_BASIS_SIZE; e++) {
      let sum = 0;
      for (let f = 0; f < flavours; f++)
        sum += rotation[e * flavours + f] * fitted[rp * flavours + f];
      out[rp * EVOLUTION_BASIS_SIZE + e] = sum;
    }
  }
  return out;
}

/** dFitted[r, p, f] = Σ_e upstream[r, p, e] · rotation[e, f]. */
function rotateBack64(
  upstream: ArrayLike<number>,
  rotation: Float64Array,
  flavours: number,
): Float64Array {
  const out = new Float64Array(REPLICAS * POINTS * flavours);
  for (let rp = 0; rp < REPLICAS * POINTS; rp++) {
    for (let f = 0; f < flavours; f++) {
      let sum = 0;
      for (let e = 0; e < EVOLUTION_BASIS_SIZE; e++) {
        sum += upstream[rp * EVOLUTION_BASIS_SIZE + e] * rotation[e * flavours + f];
      }
      out[rp * flavours + f] = sum;
    }
  }
  return out;
}

const ORDERS = [
  ...FIT_BASIS_NAMES.map((name) => ({ name, order: FIT_BASES[name].flavours })),
  { name: 'EVOL' as const, order: ['g', 'sng', 't15', 'v', 'v3', 'v8', 't3', 't8'] },
];

describeOnBackends('FlavourRotation', () => {
  it.each(ORDERS)(
    'should equal the float64 rotation, forward and gradient ($name: $order)',
    ({ name, order }) => {
      const layer = flavourRotation({ fitBasis: name, flavours: order });
      const flavours = order.length;
      const rotation = fitBasisToEvolution(FIT_BASES[name], order).data;
      const fitted = toFloat32(randomArray(REPLICAS * POINTS * flavours, flavours));
      const upstream = toFloat32(randomArray(REPLICAS * POINTS * EVOLUTION_BASIS_SIZE, 99));
      const input = tf.tensor3d(fitted, [REPLICAS, POINTS, flavours]);
      const output = layer.apply(input) as tf.Tensor;
      const gradient = tf.grad((pdf: tf.Tensor) =>
        tf.sum(
          tf.mul(
            layer.apply(pdf) as tf.Tensor,
            tf.tensor3d(upstream, [REPLICAS, POINTS, EVOLUTION_BASIS_SIZE]),
          ),
        ),
      )(input);
      expect(output.shape).toEqual([REPLICAS, POINTS, EVOLUTION_BASIS_SIZE]);
      expectClose(values(output), rotate64(fitted, rotation, flavours), 1e-6);
      expectClose(values(gradient), rotateBack64(upstream, rotation, flavours), 1e-6);
    },
  );

  it('should put V in V24 and V35 and leave the photon at zero in the evolution basis', () => {
    const layer = flavourRotation({ fitBasis: 'EVOL' });
    const fitted = tf.tensor3d([[[0, 0, 1, 0, 0, 0, 0, 0]]]);
    expect(Array.from((layer.apply(fitted) as tf.Tensor).dataSync())).toEqual([
      0, 0, 0, 1, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0,
    ]);
  });

  it('should work in a functional model, rebuild from its config and not leak', () => {
    const layer = flavourRotation({ fitBasis: 'CCBAR_ASYMM' });
    const input = tfl.input({ batchShape: [REPLICAS, null, 9] });
    const model = tfl.model({ inputs: input, outputs: layer.apply(input) as tfl.SymbolicTensor });
    expect(model.outputs[0].shape).toEqual([REPLICAS, null, EVOLUTION_BASIS_SIZE]);
    const pdf = tf.tensor3d(toFloat32(randomArray(REPLICAS * POINTS * 9, 5)), [
      REPLICAS,
      POINTS,
      9,
    ]);
    const copy = rebuilt(layer, FlavourRotation);
    expect(values(copy.apply(pdf) as tf.Tensor)).toEqual(values(model.apply(pdf) as tf.Tensor));
    const growth = tensorGrowth(() => {
      tf.grad((x: tf.Tensor) => tf.sum(layer.apply(x) as tf.Tensor))(pdf).dispose();
    });
    expect(growth).toBe(0);
    const before = tf.memory().numTensors;
    copy.dispose();
    expect(tf.memory().numTensors).toBe(before - 2);
  });

  it('should recognise names as a saved tfjs config rewrites them (ccbarAsymm, evol)', () => {
    expect(flavourRotation({ fitBasis: 'ccbarAsymm' }).fitBasis.name).toBe('CCBAR_ASYMM');
    expect(flavourRotation({ fitBasis: 'evol' }).fitBasis.name).toBe('EVOL');
    expect(flavourRotation({ fitBasis: 'evolution' }).fitBasis.name).toBe('EVOL');
  });

  it('should reject unknown bases, bad orders and inputs with typed errors', () => {
    expect(() => flavourRotation({ fitBasis: 'NN40' })).toThrow(/fitBasis: expected one of EVOL/);
    expect(() => flavourRotation({ fitBasis: 'EVOL', flavours: ['g', 'sng'] })).toThrow(
      InvalidArgumentError,
    );
    expect(() => flavourRotation({ fitBasis: 'EVOL' }).apply(tf.zeros([2, 3, 9]))).toThrow(
      ShapeError,
    );
  });
});
