import { describe, expect, it } from 'vitest';
import { buildWorkload } from '../workloads/build-workload.js';
import { TINY_WORKLOAD } from '../workloads/workloads.fixture.js';
import { networkFlops, observableFlops } from './component-flops.js';

describe('networkFlops', () => {
  it('should count forward, weight gradient and input gradient except at the first layer', () => {
    // NNPDF4.0's 2-25-20-8 on 150 points for 10 replicas:
    // forward 2·10·150·(2·25 + 25·20 + 20·8) = 2,130,000; weight gradients as much; input
    // gradients of the second and third layers 2·10·150·(25·20 + 20·8) = 1,980,000.
    expect(networkFlops(2, [25, 20, 8], 150, 10)).toBe(2 * 2_130_000 + 1_980_000);
  });
});

describe('observableFlops', () => {
  it('should count 4 · R · |FK| over the tables of one kind', () => {
    const { inputs } = buildWorkload(TINY_WORKLOAD, [1]);
    const tables = inputs.datasets.flatMap((dataset) => dataset.observable.operands.flat());
    const size = (kind: string) =>
      tables
        .filter((table) => table.kind === kind)
        .reduce(
          (sum, table) =>
            sum +
            table.ndata *
              table.channels.length *
              (table.kind === 'dis' ? table.nx : table.nx * table.nx),
          0,
        );
    expect(size('hadronic')).toBeGreaterThan(0);
    expect(observableFlops(inputs.datasets, 'hadronic', 3)).toBe(12 * size('hadronic'));
    expect(observableFlops(inputs.datasets, 'dis', 3)).toBe(12 * size('dis'));
  });
});
