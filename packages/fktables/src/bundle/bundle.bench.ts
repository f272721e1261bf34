import { bench, describe } from 'vitest';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import { loadBundle } from './bundle.js';

/** Loading the npz bundles: unzip, parse the arrays, check shapes and the covariance. */
const options = { iterations: 20, warmupIterations: 3, time: 0 };

describe.skipIf(!hasSharedData('bundles', 'bundle benchmarks'))('npz bundles', () => {
  for (const name of ['HERACOMBCCEM', 'HERACOMBNCEP920', 'SLACP']) {
    bench(
      `load ${name}`,
      async () => {
        await loadBundle(`${SHARED_DATA}bundles/${name}.npz`);
      },
      options,
    );
  }
});
