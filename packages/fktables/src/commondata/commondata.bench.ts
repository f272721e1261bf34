import { join } from 'node:path';
import { bench, describe } from 'vitest';
import { covarianceMatrix } from '../covariance/index.js';
import { applyPointMask, kinematicCutMask } from '../cuts/index.js';
import { SHARED_DATA } from '@partonfit/testing/shared-data';
import { loadCommonData, type CommonData } from './index.js';

/**
 * Set-up cost of the experimental data: reading the biggest YAML commondata sets we have (HERA
 * NC e⁺p 920 GeV: 485 points × 171 uncertainties in a 2.6 MB file) and building covariances.
 */
const COMMONDATA = join(SHARED_DATA, 'commondata');
const options = { iterations: 3, time: 0, warmupIterations: 1 };

const DATASETS = [
  ['HERA_NC_318GEV_EP-SIGMARED', undefined],
  ['HERA_NC_318GEV_EM-SIGMARED', undefined],
  ['HERA_CC_318GEV_EM-SIGMARED', undefined],
  ['BCDMS_NC_NOTFIXED_P_EM-F2', 'legacy'],
  ['NMC_NC_NOTFIXED_P_EM-SIGMARED', 'legacy'],
  ['SLAC_NC_NOTFIXED_P_EM-F2', 'legacy'],
  ['CMS_Z0J_8TEV_PT-Y', undefined],
] as const;

describe('loadCommonData', () => {
  for (const [dataset, variant] of DATASETS) {
    bench(
      `load ${dataset}`,
      async () => {
        await loadCommonData(COMMONDATA, dataset, variant === undefined ? {} : { variant });
      },
      options,
    );
  }
});

describe('covarianceMatrix', async () => {
  const all: CommonData[] = [];
  for (const [dataset, variant] of DATASETS) {
    const data = await loadCommonData(
      COMMONDATA,
      dataset,
      variant === undefined ? {} : { variant },
    );
    all.push(applyPointMask(data, kinematicCutMask(data)));
  }
  const ndata = all.reduce((total, data) => total + data.ndata, 0);
  bench(
    `${all.length} datasets after cuts (${ndata} points, HERA sets correlated)`,
    () => void covarianceMatrix(all),
    options,
  );
  bench('HERA NC e+p 920 after cuts (377 points)', () => void covarianceMatrix([all[0]]), options);
});
