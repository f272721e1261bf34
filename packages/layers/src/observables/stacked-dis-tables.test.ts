import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, type ObservableTensors } from '@partonfit/core';
import { describeOnBackends } from '@partonfit/testing';
import { expect, it } from 'vitest';
import { randomArray, toFloat32, values, worstError } from '../ops/numeric.fixture.js';
import { observableReference, randomDisTable, randomPdf } from './observable.fixture.js';
import { StackedDisTables } from './stacked-dis-tables.js';

const REPLICAS = 3;
const X_POINTS = 11;

/**
 * Three tables on x nodes [2, 9) with different flavours, one of them repeated (its two columns
 * must add), as one NULL observable whose float64 loop is the reference.
 */
const observable: ObservableTensors = {
  name: 'STACKED',
  ndata: 12,
  operation: 'NULL',
  operands: [
    [
      randomDisTable({ name: 'a', ndata: 4, nx: 7, xOffset: 2, seed: 11 }, [1, 2, 9, 10]),
      randomDisTable({ name: 'b', ndata: 5, nx: 7, xOffset: 2, seed: 12 }, [2, 0, 13]),
      randomDisTable({ name: 'c', ndata: 3, nx: 7, xOffset: 2, seed: 13 }, [5, 5, 1]),
    ],
  ],
};

const TABLES = observable.operands[0].map((table) => {
  if (table.kind !== 'dis') throw new Error('expected DIS tables');
  return table;
});

describeOnBackends('StackedDisTables', () => {
  it('should stack the union of the flavours and every data point', () => {
    const stacked = new StackedDisTables(TABLES);
    expect(stacked.flavours).toEqual([0, 1, 2, 5, 9, 10, 13]);
    expect(stacked.ndata).toBe(12);
    stacked.dispose();
  });

  it('should equal the float64 loop of the tables side by side, value and gradient', () => {
    const stacked = new StackedDisTables(TABLES);
    const pdfValues = randomPdf(REPLICAS, X_POINTS, 21);
    const weights = toFloat32(randomArray(REPLICAS * observable.ndata, 22));
    const reference = observableReference(observable, pdfValues, REPLICAS, X_POINTS);
    const pdf = tf.tensor3d(Float32Array.from(pdfValues), [REPLICAS, X_POINTS, 14]);
    const w = tf.tensor2d(weights, [REPLICAS, observable.ndata]);
    const output = stacked.apply(pdf);
    const gradient = tf.grad((input: tf.Tensor) =>
      tf.sum(tf.mul(stacked.apply(input as tf.Tensor3D), w)),
    )(pdf);
    expect(output.shape).toEqual([REPLICAS, 12]);
    expect(worstError(values(output), reference.output, 2e-5)).toBeLessThanOrEqual(1);
    expect(
      worstError(values(gradient), reference.gradient(Float64Array.from(weights)), 2e-5),
    ).toBeLessThanOrEqual(1);
    tf.dispose([pdf, w, output, gradient]);
    stacked.dispose();
  });

  it('should refuse tables on different x nodes, and no tables', () => {
    const other = randomDisTable({ name: 'd', ndata: 2, nx: 6, xOffset: 2, seed: 14 }, [1]);
    expect(() => new StackedDisTables([TABLES[0], other])).toThrow(InvalidArgumentError);
    expect(() => new StackedDisTables([TABLES[0], other])).toThrow(
      'table d reads x nodes [2, 8), table a [2, 9): stacked tables share their x nodes',
    );
    expect(() => new StackedDisTables([])).toThrow('expected at least one table');
  });

  it('should leave no tensor behind', () => {
    const before = tf.memory().numTensors;
    const stacked = new StackedDisTables(TABLES);
    tf.tidy(() => {
      stacked.apply(tf.ones([REPLICAS, X_POINTS, 14]));
    });
    stacked.dispose();
    expect(tf.memory().numTensors).toBe(before);
  });
});
