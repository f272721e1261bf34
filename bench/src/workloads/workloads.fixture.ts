import type { WorkloadSpec } from './workload-spec.js';

/**
 * A workload small enough for unit tests: 8 x nodes, two DIS datasets sharing one experiment
 * plus one alone, one hadronic dataset with 4 channels, one positivity and one integrability set.
 */
export const TINY_WORKLOAD: WorkloadSpec = {
  name: 'tiny',
  description: 'unit-test workload',
  seed: 11,
  xGrid: { xMin: 1e-4, xMax: 0.8, nodes: 8 },
  disChannels: [1, 2, 3, 9],
  hadronicChannels: 4,
  datasets: [
    { name: 'D1', kind: 'dis', ndata: 6, experiment: 'E1' },
    { name: 'D2', kind: 'dis', ndata: 4, experiment: 'E1' },
    { name: 'D3', kind: 'dis', ndata: 5, experiment: 'E2' },
    { name: 'H1', kind: 'hadronic', ndata: 3, experiment: 'E3' },
  ],
  positivity: [{ name: 'P1', ndata: 3, channels: [1, 2], maxLambda: 1e6 }],
  integrability: [{ name: 'I1', ndata: 2, channels: [9], maxLambda: 1e2 }],
};
