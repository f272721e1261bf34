import type { LhapdfGrid } from './lhapdf-grid.js';
import type { LhapdfMemberGrid } from './lhapdf-member-text.js';
import type { LhapdfYamlValue } from './lhapdf-yaml-text.js';

/** A member read with the reader, ready for the writer: its header split into pdfType and the rest. */
export function memberOfGrid(grid: LhapdfGrid): LhapdfMemberGrid {
  const { PdfType: pdfType, Format: format, ...header } = grid.header;
  if ((pdfType !== 'central' && pdfType !== 'replica') || format !== 'lhagrid1') {
    throw new Error(`unexpected member header ${JSON.stringify(grid.header)}`);
  }
  return {
    pdfType,
    header: header as Record<string, LhapdfYamlValue>,
    pids: grid.pids,
    xKnots: grid.xKnots,
    qKnots: grid.qKnots,
    blockSizes: grid.blockSizes,
    values: grid.values,
  };
}

/** The first line where two texts differ (1-based) with both lines, or undefined when equal. */
export function firstDifference(
  actual: string,
  expected: string,
): { line: number; actual: string | undefined; expected: string | undefined } | undefined {
  const actualLines = actual.split('\n');
  const expectedLines = expected.split('\n');
  const count = Math.max(actualLines.length, expectedLines.length);
  for (let i = 0; i < count; i++) {
    if (actualLines[i] !== expectedLines[i]) {
      return { line: i + 1, actual: actualLines[i], expected: expectedLines[i] };
    }
  }
  return undefined;
}
