import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputFileError, SeededRandom } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import { EXPORT_X_GRID } from './export-x-grid.js';
import { parseExportGrid, readExportGrid } from './exportgrid-reader.js';
import { formatExportGrid } from './exportgrid.js';
import {
  flattenRows,
  readReferenceExportGrid,
  REFERENCE_EXPORT_GRID,
} from './fit-folder.fixture.js';

const hasReference = hasSharedData(REFERENCE_EXPORT_GRID, 'reading upstream’s exportgrid');

/** A grid of values of every sign and magnitude, `(x, 14)` on the export grid. */
function randomGrid(): Float64Array {
  const random = new SeededRandom(5);
  return Float64Array.from(
    { length: EXPORT_X_GRID.length * 14 },
    (_, i) => (random.uniform() - 0.3) * 10 ** ((i % 23) - 12),
  );
}

/** The text of a small valid exportgrid (2 x points) with one line replaced. */
function smallGrid(replace?: [string | RegExp, string]): string {
  const text = formatExportGrid({
    replica: 3,
    q20: 2,
    xGrid: Float64Array.from([0.1, 0.2]),
    pdfGrid: Float64Array.from({ length: 28 }, (_, i) => i / 7),
  });
  return replace === undefined ? text : text.replace(replace[0], replace[1]);
}

describe('parseExportGrid', () => {
  it('should read back exactly what formatExportGrid writes', () => {
    const pdfGrid = randomGrid();
    const text = formatExportGrid({ replica: 0, q20: 2.7225, xGrid: EXPORT_X_GRID, pdfGrid });
    const grid = parseExportGrid(text, 'a.exportgrid');
    expect(grid.replica).toBe(0);
    expect(grid.q20).toBe(2.7225);
    expect(grid.xGrid).toEqual(EXPORT_X_GRID);
    expect(grid.pdfGrid).toEqual(pdfGrid);
  });

  it.skipIf(!hasReference)('should read upstream n3fit’s quickcard_1.exportgrid', async () => {
    const reference = readReferenceExportGrid();
    const grid = await readExportGrid(`${SHARED_DATA}${REFERENCE_EXPORT_GRID}`);
    expect(grid.replica).toBe(reference.replica);
    expect(grid.q20).toBe(reference.q20);
    expect(Array.from(grid.xGrid)).toEqual(reference.xgrid);
    expect(grid.pdfGrid).toEqual(flattenRows(reference.pdfgrid));
  });

  it('should read the layouts PyYAML writes besides n3fit’s, through the general parser', () => {
    // yaml.safe_dump of one grid (PyYAML 6.0): block style (the default), one flow mapping
    // (default_flow_style=True, width=60), and n3fit's style with a document start
    const row = (first: string, third: string, value: string) => [
      first,
      '0.0',
      third,
      ...Array<string>(10).fill(value),
      '0.0',
    ];
    const rows = [row('0.0', '-0.46810004115104675', '0.125'), row('1.0e-09', '-4.5e-05', '0.5')];
    const labels = 'TBAR BBAR CBAR SBAR UBAR DBAR GLUON D U S C B T PHT'.split(' ');
    const block = [
      'labels:',
      ...labels.map((label) => `- ${label}`),
      'pdfgrid:',
      ...rows.flatMap((items) => items.map((item, i) => `${i === 0 ? '- - ' : '  - '}${item}`)),
      'q20: 2.7224999999999997',
      'replica: 1',
      'xgrid:',
      '- 1.0e-09',
      '- 0.5',
      '',
    ].join('\n');
    const flowMapping = [
      '{labels: [TBAR, BBAR, CBAR, SBAR, UBAR, DBAR, GLUON, D, U, S,',
      '    C, B, T, PHT], pdfgrid: [[0.0, 0.0, -0.46810004115104675,',
      '      0.125, 0.125, 0.125, 0.125, 0.125, 0.125, 0.125, 0.125,',
      '      0.125, 0.125, 0.0], [1.0e-09, 0.0, -4.5e-05, 0.5, 0.5, 0.5,',
      '      0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.0]], q20: 2.7224999999999997,',
      '  replica: 1, xgrid: [1.0e-09, 0.5]}',
      '',
    ].join('\n');
    const documentStart = [
      '---',
      'labels: [TBAR, BBAR, CBAR, SBAR, UBAR, DBAR, GLUON,',
      '  D, U, S, C, B, T, PHT]',
      'pdfgrid:',
      '- [0.0, 0.0, -0.46810004115104675, 0.125, 0.125, 0.125,',
      '  0.125, 0.125, 0.125, 0.125, 0.125, 0.125, 0.125, 0.0]',
      '- [1.0e-09, 0.0, -4.5e-05, 0.5, 0.5, 0.5, 0.5, 0.5,',
      '  0.5, 0.5, 0.5, 0.5, 0.5, 0.0]',
      'q20: 2.7224999999999997',
      'replica: 1',
      'xgrid: [1.0e-09, 0.5]',
      '',
    ].join('\n');
    const expected = {
      replica: 1,
      q20: 2.7224999999999997,
      xGrid: Float64Array.from([1e-9, 0.5]),
      pdfGrid: Float64Array.from(rows.flat().map(Number)),
    };
    for (const text of [block, flowMapping, documentStart]) {
      expect(parseExportGrid(text, 'p.exportgrid')).toEqual(expected);
    }
    // the fast reader's layout with the rows in block style is read the same
    const mixed = documentStart.replace(
      /pdfgrid:\n[^q]*/,
      block.slice(block.indexOf('pdfgrid:'), block.indexOf('q20')),
    );
    expect(parseExportGrid(mixed, 'p.exportgrid')).toEqual(expected);
    // what is wrong is still named with its line in any layout
    expect(() => parseExportGrid(block.replace('- 0.125', '- .nan'), 'p.exportgrid')).toThrow(
      "p.exportgrid:17: pdfgrid: 'NaN' is not a finite number",
    );
    expect(() => parseExportGrid(block.replace('- PHT\n', ''), 'p.exportgrid')).toThrow(
      'p.exportgrid:1: labels: expected [TBAR',
    );
  });

  it('should name the file, line and key of what is wrong', () => {
    const cases: [string, string][] = [
      [smallGrid(['q20: 2.0\n', '']), 'g.exportgrid: q20: missing'],
      [smallGrid(['GLUON', 'GLU']), 'g.exportgrid:1: labels: expected [TBAR'],
      [
        smallGrid([', 1.8571428571428572]', ']']),
        'g.exportgrid:3: pdfgrid: expected 14 values in the row of x index 0, got 13',
      ],
      [
        smallGrid(['0.14285714285714285', '.nan']),
        "g.exportgrid:3: pdfgrid: '.nan' is not a finite number",
      ],
      [
        smallGrid(['xgrid: [0.1, 0.2]', 'xgrid: [0.1, 0.2, 0.3]']),
        'g.exportgrid:2: pdfgrid: 2 rows for 3 x points',
      ],
      [smallGrid(['q20: 2.0', 'q20: -2.0']), 'g.exportgrid:9: q20: expected Q0² > 0'],
      [
        smallGrid(['replica: 3', 'replica: 1.5']),
        'g.exportgrid:10: replica: expected an integer ≥ 0, got 1.5',
      ],
      [
        smallGrid(['xgrid: [0.1, 0.2]', 'xgrid: 0.1']),
        'g.exportgrid:11: xgrid: expected a list [a, b, …]',
      ],
      ['labels: [A]\n%garbage', 'g.exportgrid:2: not valid YAML'],
      ['[1, 2]', 'g.exportgrid:1: expected a mapping of the keys labels, pdfgrid'],
      [
        smallGrid(['pdfgrid:\n', 'pdfgrid: 3\nrows:\n']),
        'g.exportgrid:2: pdfgrid: expected a list [a, b, …]',
      ],
    ];
    for (const [text, message] of cases) {
      expect(() => parseExportGrid(text, 'g.exportgrid')).toThrow(InputFileError);
      expect(() => parseExportGrid(text, 'g.exportgrid')).toThrow(message);
    }
  });

  it('should read a file and name a missing one', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'partonfit-exportgrid-'));
    const file = join(folder, 'fit.exportgrid');
    await writeFile(file, smallGrid());
    expect((await readExportGrid(file)).replica).toBe(3);
    await expect(readExportGrid(join(folder, 'absent'))).rejects.toThrow(
      `${join(folder, 'absent')}: cannot read the file`,
    );
  });
});
