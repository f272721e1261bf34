import { evolutionBasisXf, loadLhapdfMember, loadLhapdfSet, type LhapdfGrid } from '@partonfit/io';
import { SHARED_DATA } from '@partonfit/testing/shared-data';
import type { PdfAtXGrid } from './predict.js';

/** The shared NNPDF4.0 NNLO set (members 0 and 1 only), relative to the shared data. */
export const NNPDF40_FOLDER = 'lhapdf/NNPDF40_nnlo_as_01180';

/** NNPDF4.0's Q0 in GeV, the scale of theory 200's FK tables and of the set's first Q block. */
export const NNPDF40_Q0 = 1.65;

/** Member 0 (the central PDF) of the shared NNPDF4.0 NNLO set. */
export async function loadNnpdf40Central(): Promise<LhapdfGrid> {
  const set = await loadLhapdfSet(`${SHARED_DATA}${NNPDF40_FOLDER}`);
  return loadLhapdfMember(set, 0);
}

/** x·f of a member in the evolution basis at Q0, as predictions need it. */
export function atQ0(grid: LhapdfGrid): PdfAtXGrid {
  return (xGrid) => evolutionBasisXf(grid, xGrid, NNPDF40_Q0);
}
