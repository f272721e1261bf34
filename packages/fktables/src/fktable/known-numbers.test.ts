import { beforeAll, describe, expect, it } from 'vitest';
import { hasSharedData } from '@partonfit/testing/shared-data';
import {
  ATLAS_TTBAR_FILE,
  ATLAS_TTBAR_TAR_FILE,
  POSXDQ_FILE,
  POSXDQ_TAR_FILE,
} from './legacy-fk-table.fixture.js';
import { toFkTensor } from './fk-tensor.js';
import { loadFkTable } from './load-fk-table.js';
import { atQ0, loadNnpdf40Central, NNPDF40_FOLDER } from './nnpdf40.fixture.js';
import { createObservable } from './observable.js';
import { predictFkTable, predictObservable, type PdfAtXGrid } from './predict.js';

/**
 * The convolutions of data/README.md ("computed independently with numpy, member 0000 at Q0"),
 * quoted there to 5–6 significant digits.
 */
const hasInputs =
  hasSharedData('theory_200', 'FK-table known numbers') &&
  hasSharedData(NNPDF40_FOLDER, 'FK-table known numbers');

/** The relative tolerance the README's numbers are checked to. */
const RELATIVE = 1e-3;

describe.skipIf(!hasInputs)('predictions of real tables with NNPDF4.0 member 0 at Q0', () => {
  let pdf: PdfAtXGrid;
  beforeAll(async () => {
    pdf = atQ0(await loadNnpdf40Central());
  });

  it.each([
    ['plain', POSXDQ_FILE],
    ['gzip tar', POSXDQ_TAR_FILE],
  ])('should reproduce FK_POSXDQ (x·d at Q² = 5 GeV²) from the %s file', async (_, file) => {
    const table = await loadFkTable(file);
    const predictions = predictFkTable(table, pdf(table.xGrid));
    expect(predictions).toHaveLength(20);
    [1.24252, 1.05899, 0.90396].forEach((expected, n) => {
      expect(Math.abs(predictions[n] / expected - 1)).toBeLessThan(RELATIVE);
    });
    // The last point is quoted as 1.0e-4, two digits: half a unit of the last digit is 5e-6.
    expect(Math.abs(predictions[19] - 1.0e-4)).toBeLessThan(5e-6);
  });

  it.each([
    ['plain', ATLAS_TTBAR_FILE],
    ['gzip tar', ATLAS_TTBAR_TAR_FILE],
  ])('should reproduce the ATLAS 13 TeV tt̄ cross section from the %s file', async (_, file) => {
    const table = await loadFkTable(file);
    const observable = createObservable(table.name, 'NULL', [[table]]);
    const [sigma] = predictObservable(observable, pdf);
    expect(Math.abs(sigma / 750.62 - 1)).toBeLessThan(RELATIVE);
  });

  it('should give the tt̄ cross section from the step tensor, its 81 channels merged into 45', async () => {
    const table = await loadFkTable(ATLAS_TTBAR_FILE);
    const tensor = toFkTensor(table, 0);
    if (tensor.kind !== 'hadronic') throw new Error('expected a hadronic tensor');
    expect([table.channels.length, tensor.channels.length]).toEqual([81, 45]);
    const xf = pdf(table.xGrid);
    const nx = tensor.nx;
    const merged = tensor.channels.length;
    let sigma = 0;
    for (let a = 0; a < nx; a++) {
      for (let b = 0; b < nx; b++) {
        tensor.channels.forEach(([i, j], c) => {
          sigma += tensor.values[(a * nx + b) * merged + c] * xf[a * 14 + i] * xf[b * 14 + j];
        });
      }
    }
    expect(Math.abs(sigma / 750.62 - 1)).toBeLessThan(RELATIVE);
    // the float64 table's own prediction, up to the float32 rounding of the merged values
    expect(Math.abs(sigma / predictFkTable(table, xf)[0] - 1)).toBeLessThan(1e-6);
  });
});
