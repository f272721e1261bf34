import { beforeAll, describe, expect, it } from 'vitest';
import { hasSharedData } from '@partonfit/testing/shared-data';
import {
  ATLAS_TTBAR_FILE,
  ATLAS_TTBAR_TAR_FILE,
  POSXDQ_FILE,
  POSXDQ_TAR_FILE,
} from './legacy-fk-table.fixture.js';
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
});
