import { beforeAll, describe, expect, it } from 'vitest';
import { atQ0, loadNnpdf40Central, NNPDF40_FOLDER } from '../fktable/nnpdf40.fixture.js';
import { predictFkTable, type PdfAtXGrid } from '../fktable/predict.js';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import { loadBundle } from './bundle.js';
import { chi2 } from './chi2.js';

/** χ² of data/README.md ("computed independently with numpy, member 0000 at Q0"). */
const hasInputs =
  hasSharedData('bundles', 'bundle χ² known numbers') &&
  hasSharedData(NNPDF40_FOLDER, 'bundle χ² known numbers');

describe.skipIf(!hasInputs)('χ² of the bundles with NNPDF4.0 member 0 at Q0', () => {
  let pdf: PdfAtXGrid;
  beforeAll(async () => {
    pdf = atQ0(await loadNnpdf40Central());
  });

  it.each([
    ['HERACOMBCCEM', 42, 53.28],
    ['SLACP', 33, 35.77],
  ])('should give %s (%i points) χ² = %f to 1e-3', async (name, ndata, expected) => {
    const bundle = await loadBundle(`${SHARED_DATA}bundles/${name}.npz`);
    expect(bundle.fkTable.ndata).toBe(ndata);
    const predictions = predictFkTable(bundle.fkTable, pdf(bundle.fkTable.xGrid));
    const value = chi2(bundle.data, predictions, bundle.covariance);
    expect(Math.abs(value / expected - 1)).toBeLessThan(1e-3);
  });
});
