import type { DisFkTensor, HadronicFkTensor } from '@partonfit/core';
import { InvalidArgumentError } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { buildWorkload } from './build-workload.js';
import { firstReplicas } from './first-replicas.js';
import { TINY_WORKLOAD } from './workloads.fixture.js';

const REPLICAS = [1, 2, 3];

function tables(workload: ReturnType<typeof buildWorkload>) {
  return workload.inputs.datasets.map((dataset) => dataset.observable.operands[0][0]);
}

describe('buildWorkload', () => {
  const workload = buildWorkload(TINY_WORKLOAD, REPLICAS);
  const { inputs } = workload;

  it('should lay out the data axis, x-grid and replicas of the spec', () => {
    expect(inputs.ndata).toBe(18);
    expect(inputs.datasets.map((dataset) => [dataset.name, dataset.offset, dataset.ndata])).toEqual(
      [
        ['D1', 0, 6],
        ['D2', 6, 4],
        ['D3', 10, 5],
        ['H1', 15, 3],
      ],
    );
    expect(inputs.xGrid).toHaveLength(8);
    expect(inputs.xGrid[0]).toBeCloseTo(1e-4, 12);
    expect(inputs.replicas).toEqual(REPLICAS);
    expect(inputs.pseudodata).toHaveLength(3 * 18);
    expect(inputs.centralData).toHaveLength(18);
    expect(workload.counts).toEqual({ dis: 15, hadronic: 3, lagrange: 5, blocks: [10, 5, 3] });
  });

  it('should give DIS tables (x · channel, data) and hadronic tables (x1 · x2 · channel, data)', () => {
    const [d1, , , h1] = tables(workload) as [
      DisFkTensor,
      DisFkTensor,
      DisFkTensor,
      HadronicFkTensor,
    ];
    expect(d1).toMatchObject({ kind: 'dis', ndata: 6, nx: 8, xOffset: 0, channels: [1, 2, 3, 9] });
    expect(d1.values).toHaveLength(8 * 4 * 6);
    expect(h1).toMatchObject({ kind: 'hadronic', ndata: 3, nx: 8, xOffset: 0 });
    expect(h1.channels).toHaveLength(4);
    expect(new Set(h1.channels.map(([i, j]) => 14 * i + j)).size).toBe(4);
    expect(h1.values).toHaveLength(8 * 8 * 4 * 3);
  });

  it('should have finite positive central values and pseudodata near them', () => {
    expect(inputs.centralData.every((value) => Number.isFinite(value) && value > 0)).toBe(true);
    for (let r = 0; r < REPLICAS.length; r++) {
      for (let n = 0; n < inputs.ndata; n++) {
        const relative = inputs.pseudodata[r * inputs.ndata + n] / inputs.centralData[n] - 1;
        expect(Math.abs(relative)).toBeLessThan(0.5);
      }
    }
  });

  it('should split the eigenmodes of the three experiment blocks per replica', () => {
    expect(inputs.training.kind).toBe('eigenbasis');
    expect(inputs.training.blocks.map((block) => [block.offset, block.size])).toEqual([
      [0, 10],
      [10, 5],
      [15, 3],
    ]);
    expect(Array.from(inputs.trainingCounts)).toEqual([13, 13, 13]);
    expect(Array.from(inputs.validationCounts)).toEqual([5, 5, 5]);
    expect(inputs.experimental).toMatchObject({ kind: 'covariance', replicas: 1 });
  });

  it('should add the positivity and integrability sets with their multipliers', () => {
    expect(inputs.positivity.map((set) => [set.name, set.ndata, set.maxLambda])).toEqual([
      ['P1', 3, 1e6],
    ]);
    expect(inputs.integrability.map((set) => [set.name, set.ndata, set.maxLambda])).toEqual([
      ['I1', 2, 1e2],
    ]);
    expect(inputs.integrability[0].observable.operands[0][0].channels).toEqual([9]);
  });

  it('should build the same arrays from the same spec, and other FK values from another seed', () => {
    const again = buildWorkload(TINY_WORKLOAD, REPLICAS);
    expect(tables(again).map((table) => table.values)).toEqual(
      tables(workload).map((t) => t.values),
    );
    expect(again.inputs.pseudodata).toEqual(inputs.pseudodata);
    expect(again.inputs.training).toEqual(inputs.training);
    const reseeded = buildWorkload({ ...TINY_WORKLOAD, seed: 12 }, REPLICAS);
    expect(tables(reseeded)[0].values).not.toEqual(tables(workload)[0].values);
  });

  it('should give each replica the same arrays whichever replicas are built with it', () => {
    const alone = buildWorkload(TINY_WORKLOAD, [2]).inputs;
    expect(alone.pseudodata).toEqual(inputs.pseudodata.subarray(18, 36));
    const firstTwo = firstReplicas(inputs, 2);
    const built = buildWorkload(TINY_WORKLOAD, [1, 2]).inputs;
    expect(firstTwo.pseudodata).toEqual(built.pseudodata);
    expect(firstTwo.training).toEqual(built.training);
    expect(firstTwo.validation).toEqual(built.validation);
    expect(Array.from(firstTwo.trainingCounts)).toEqual(Array.from(built.trainingCounts));
    expect(firstTwo.replicas).toEqual([1, 2]);
  });

  it('should reject experiments that are not contiguous', () => {
    const [d1, d2, d3, h1] = TINY_WORKLOAD.datasets;
    const broken = { ...TINY_WORKLOAD, datasets: [d1, d3, { ...d2, experiment: 'E1' }, h1] };
    expect(() => buildWorkload(broken, [1])).toThrow(InvalidArgumentError);
    expect(() => buildWorkload(broken, [1])).toThrow(
      'datasets.D2.experiment: the datasets of experiment E1 must be consecutive',
    );
  });
});

describe('firstReplicas', () => {
  const { inputs } = buildWorkload(TINY_WORKLOAD, REPLICAS);

  it('should reject a count outside 1…R', () => {
    expect(() => firstReplicas(inputs, 0)).toThrow(InvalidArgumentError);
    expect(() => firstReplicas(inputs, 4)).toThrow('count: expected an integer from 1 to 3, got 4');
  });

  it('should return the inputs themselves for all replicas', () => {
    expect(firstReplicas(inputs, 3)).toBe(inputs);
  });
});
