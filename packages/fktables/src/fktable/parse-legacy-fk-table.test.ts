import { describe, expect, it } from 'vitest';
import { hasSharedData } from '@partonfit/testing/shared-data';
import {
  ATLAS_TTBAR_FILE,
  disFlavourMap,
  disValues,
  hadronicFlavourMap,
  hadronicValues,
  lineStartingWith,
  POSXDQ_FILE,
  readSharedText,
  syntheticLegacyText,
  type SyntheticTable,
} from './legacy-fk-table.fixture.js';
import { fkTableNameOfFile, parseLegacyFkTable } from './parse-legacy-fk-table.js';
import { inputFileError } from '@partonfit/testing';

const hasTables = hasSharedData('theory_200/fastkernel', 'legacy FK-table tests on real tables');

const SMALL_DIS: SyntheticTable = {
  hadronic: false,
  ndata: 2,
  xGrid: [0.01, 0.1, 0.5],
  flavourMap: disFlavourMap([1, 2]),
  rows: [
    [0, 0, ...disValues({ 1: 1.5, 2: -2 })],
    [0, 2, ...disValues({ 1: 3 })],
    [1, 1, ...disValues({ 2: 0.25 })],
  ],
};

const SMALL_HADRONIC: SyntheticTable = {
  hadronic: true,
  ndata: 1,
  xGrid: [0.1, 0.2],
  flavourMap: hadronicFlavourMap([
    [1, 2],
    [2, 1],
  ]),
  rows: [
    [0, 0, 1, ...hadronicValues([[1, 2, 4]])],
    [0, 1, 0, ...hadronicValues([[2, 1, 5]])],
  ],
};

const file = 'theory_x/fastkernel/FK_SYNTH.dat';

describe('parseLegacyFkTable', () => {
  describe('on small synthetic tables', () => {
    it('should store a DIS table compactly as (data, channel, x)', () => {
      const table = parseLegacyFkTable(syntheticLegacyText(SMALL_DIS), { file });
      expect(table).toMatchObject({
        name: 'SYNTH',
        file,
        hadronic: false,
        ndata: 2,
        q0: 1.65,
        channels: [1, 2],
        cFactors: [],
      });
      expect(Array.from(table.xGrid)).toEqual([0.01, 0.1, 0.5]);
      // (n, c, a): n0 Σ [1.5, 0, 3], n0 g [-2, 0, 0], n1 Σ [0, 0, 0], n1 g [0, 0.25, 0]
      expect(Array.from(table.values)).toEqual([1.5, 0, 3, -2, 0, 0, 0, 0, 0, 0, 0.25, 0]);
    });

    it('should store a hadronic table as (data, channel, x1, x2) with [first, second] pairs', () => {
      const table = parseLegacyFkTable(syntheticLegacyText(SMALL_HADRONIC), { file });
      expect(table.hadronic).toBe(true);
      expect(table.channels).toEqual([
        [1, 2],
        [2, 1],
      ]);
      // channel (1,2): x1=0,x2=1 → 4; channel (2,1): x1=1,x2=0 → 5
      expect(Array.from(table.values)).toEqual([0, 4, 0, 0, 0, 0, 5, 0]);
    });

    it('should accept a name and derive one from the file name', () => {
      const text = syntheticLegacyText(SMALL_DIS);
      expect(parseLegacyFkTable(text, { file, name: 'OTHER' }).name).toBe('OTHER');
      expect(parseLegacyFkTable(text, { file: 'table.txt' }).name).toBe('SYNTH');
      expect(fkTableNameOfFile('/a/b/FK_NMCPD_D.dat.gz')).toBe('NMCPD_D');
    });

    it('should keep the theory’s scale ratios *XIF and *XIR with its *ID, and have none without them', () => {
      const varied = syntheticLegacyText({ ...SMALL_DIS, scales: [0.5, 2], theoryId: 9001 });
      expect(parseLegacyFkTable(varied, { file }).theoryScales).toEqual({
        factorisation: 0.5,
        renormalisation: 2,
        theoryId: 9001,
      });
      const withoutId = syntheticLegacyText({ ...SMALL_DIS, scales: [0.5, 2] });
      expect(parseLegacyFkTable(withoutId, { file }).theoryScales).toEqual({
        factorisation: 0.5,
        renormalisation: 2,
      });
      expect(parseLegacyFkTable(syntheticLegacyText(SMALL_DIS), { file })).not.toHaveProperty(
        'theoryScales',
      );
      const onlyXif = inputFileError(() =>
        parseLegacyFkTable(varied.replace('*XIR: 2\n', ''), { file }),
      );
      expect(onlyXif).toMatchObject({ key: 'XIR', line: lineStartingWith(varied, '*XIF:') });
      expect(onlyXif.message).toContain('TheoryInfo has *XIF but not *XIR');
      const badId = inputFileError(() =>
        parseLegacyFkTable(varied.replace('*ID: 9001', '*ID: 9001.5'), { file }),
      );
      expect(badId).toMatchObject({ key: 'ID', line: lineStartingWith(varied, '*ID:') });
      const bad = inputFileError(() =>
        parseLegacyFkTable(varied.replace('*XIR: 2', '*XIR: two'), { file }),
      );
      expect(bad).toMatchObject({ key: 'XIR', line: lineStartingWith(varied, '*XIR:') });
    });

    it('should read rows separated by spaces, tabs and CRLF line ends alike', () => {
      const text = syntheticLegacyText(SMALL_DIS).replace(/\t/g, '  ').replace(/\n/g, '\r\n');
      const table = parseLegacyFkTable(text, { file });
      expect(Array.from(table.values)).toEqual([1.5, 0, 3, -2, 0, 0, 0, 0, 0, 0, 0.25, 0]);
    });
  });

  describe.skipIf(!hasTables)('on the real theory-200 tables', () => {
    it('should read FK_POSXDQ as a DIS table with 9 active flavours', () => {
      const text = readSharedText(POSXDQ_FILE);
      const table = parseLegacyFkTable(text, { file: POSXDQ_FILE });
      expect(table).toMatchObject({ name: 'POSXDQ', hadronic: false, ndata: 20, q0: 1.65 });
      // TheoryInfo's "*XIF: 1" and "*XIR: 1": theory 200 is at the central scales
      expect(table.theoryScales).toEqual({ factorisation: 1, renormalisation: 1, theoryId: 200 });
      expect(table.channels).toEqual([1, 2, 3, 4, 5, 6, 9, 10, 11]);
      expect(table.xGrid).toHaveLength(100);
      expect(table.xGrid[0]).toBe(4.9499999999997663e-7);
      // The row "0 5 0 9.6170563483610749e-04 …" of the file: Σ and T15 at data 0, x 5.
      const row = text
        .split('\n')
        .find((line) => line.startsWith('0\t5\t'))!
        .split('\t');
      const nx = 100;
      expect(table.values[(0 * 9 + 0) * nx + 5]).toBe(Number(row[3]));
      expect(table.values[(0 * 9 + 8) * nx + 5]).toBe(Number(row[13]));
      expect(table.values[(0 * 9 + 8) * nx + 5]).toBe(2.7102854801341891e-4);
    });

    it('should read FK_ATLASTTBARTOT13TEV as a hadronic table with 81 channels', () => {
      const text = readSharedText(ATLAS_TTBAR_FILE);
      const table = parseLegacyFkTable(text, { file: ATLAS_TTBAR_FILE });
      expect(table).toMatchObject({ name: 'ATLASTTBARTOT13TEV', hadronic: true, ndata: 1 });
      expect(table.xGrid).toHaveLength(30);
      expect(table.channels).toHaveLength(81);
      expect(table.channels[0]).toEqual([1, 1]);
      expect(table.channels.at(-1)).toEqual([11, 11]);
      // The row "0 0 22 …": value 14·1 + 1 = 15 is column 3 + 15 of the row.
      const row = text
        .split('\n')
        .find((line) => line.startsWith('0\t0\t22\t'))!
        .split('\t');
      expect(table.values[0 * 30 + 22]).toBe(Number(row[3 + 15]));
    });
  });

  describe.skipIf(!hasTables)('on malformed input', () => {
    // skipIf still collects this body: read nothing when the data is absent.
    const text = hasTables ? readSharedText(POSXDQ_FILE) : '';
    const lines = text.split('\n');
    const fastKernelLine = hasTables ? lineStartingWith(text, '{FastKernel') : 0;

    it('should name the line of a row cut short by truncation', () => {
      // The last row (line lines.length - 1, before the final newline) keeps 13 of 16 numbers.
      const lastRow = lines[lines.length - 2].split('\t').slice(0, 13).join('\t');
      const cut = [...lines.slice(0, lines.length - 2), lastRow].join('\n');
      const error = inputFileError(() => parseLegacyFkTable(cut, { file: POSXDQ_FILE }));
      expect(error).toMatchObject({ file: POSXDQ_FILE, line: lines.length - 1, key: 'FastKernel' });
      expect(error.message).toMatch(
        /expected 16 numbers per row .* got 13 \(the file is cut short\)/,
      );
    });

    it('should reject a file truncated between rows, whose last data points have no rows', () => {
      const kept = lines.slice(0, lines.length - 100);
      const error = inputFileError(() =>
        parseLegacyFkTable(kept.join('\n'), { file: POSXDQ_FILE }),
      );
      expect(error.line).toBe(kept.length);
      expect(error.message).toMatch(
        /of 20 data points have no rows .*truncated or \*NDATA is wrong/,
      );
    });

    it('should reject a file that ends before its FastKernel section', () => {
      const error = inputFileError(() =>
        parseLegacyFkTable(lines.slice(0, fastKernelLine - 1).join('\n'), { file: POSXDQ_FILE }),
      );
      expect(error.key).toBe('FastKernel');
      expect(error.message).toMatch(/missing section/);
    });

    it('should name a missing section', () => {
      const theory = lineStartingWith(text, '_TheoryInfo');
      const xGrid = lineStartingWith(text, '{xGrid');
      const without = [...lines.slice(0, theory - 1), ...lines.slice(xGrid - 1)].join('\n');
      const error = inputFileError(() => parseLegacyFkTable(without, { file: POSXDQ_FILE }));
      expect(error).toMatchObject({ key: 'TheoryInfo', line: fastKernelLine - (xGrid - theory) });
      expect(error.message).toMatch(/missing section: TheoryInfo/);
    });

    it('should reject a data index beyond NDATA', () => {
      const edited = text.replace('*NDATA: 20', '*NDATA: 19');
      const error = inputFileError(() => parseLegacyFkTable(edited, { file: POSXDQ_FILE }));
      expect(error.line).toBe(lines.findIndex((line) => line.startsWith('19\t')) + 1);
      expect(error.message).toMatch(/data index 19 is outside 0…18 \(\*NDATA is 19\)/);
    });

    it('should reject an x index beyond NX', () => {
      const table = { ...SMALL_DIS, rows: [...SMALL_DIS.rows, [1, 3, ...disValues({ 1: 1 })]] };
      const error = inputFileError(() => parseLegacyFkTable(syntheticLegacyText(table), { file }));
      expect(error.line).toBe(lineStartingWith(syntheticLegacyText(table), '1\t3\t'));
      expect(error.message).toMatch(/x index 3 is outside 0…2 \(\*NX is 3\)/);
    });

    it('should reject a value in a channel the FlavourMap marks inactive, or drop it on request', () => {
      // Switch T15 (flavour 11) off in the map; the rows still carry T15 values.
      const edited = text.replace('0 1 1 1 1 1 1 0 0 1 1 1 0 0', '0 1 1 1 1 1 1 0 0 1 1 0 0 0');
      const error = inputFileError(() => parseLegacyFkTable(edited, { file: POSXDQ_FILE }));
      expect(error.line).toBe(fastKernelLine + 1);
      expect(error.message).toMatch(/non-zero value .* in channel T15 \(flavour 11\).*inactive/);
      const dropped = parseLegacyFkTable(edited, {
        file: POSXDQ_FILE,
        inactiveChannels: 'drop',
      });
      expect(dropped.channels).toEqual([1, 2, 3, 4, 5, 6, 9, 10]);
    });

    it('should reject counts that are not decimal integers or more than the file holds', () => {
      const text = syntheticLegacyText(SMALL_DIS);
      for (const ndata of ['1e9', '20.0', '0x14', '+2', '']) {
        const error = inputFileError(() =>
          parseLegacyFkTable(text.replace('*NDATA: 2', `*NDATA: ${ndata}`), { file }),
        );
        expect(error.key).toBe('NDATA');
        expect(error.message).toMatch(/written in decimal digits/);
      }
      const huge = inputFileError(() =>
        parseLegacyFkTable(text.replace('*NDATA: 2', '*NDATA: 5000000'), { file }),
      );
      expect(huge).toMatchObject({ key: 'NDATA', line: 7 });
      expect(huge.message).toMatch(
        /5000000 is more than the file can hold \(its FastKernel section has 3 lines/,
      );
    });

    it('should reject an x-grid that does not increase strictly', () => {
      const swapped = { ...SMALL_DIS, xGrid: [0.01, 0.5, 0.1] };
      const error = inputFileError(() =>
        parseLegacyFkTable(syntheticLegacyText(swapped), { file }),
      );
      expect(error).toMatchObject({ key: 'xGrid', line: 18 });
      expect(error.message).toMatch(/x values must increase strictly, got 1\.0+1e-1 after 0\.5/);
    });

    it('should reject a kernel value beyond the float32 range of a fit', () => {
      const table = {
        ...SMALL_DIS,
        rows: [[0, 0, ...disValues({ 1: 1e308 })], ...SMALL_DIS.rows.slice(1)],
      };
      const error = inputFileError(() => parseLegacyFkTable(syntheticLegacyText(table), { file }));
      expect(error).toMatchObject({ key: 'FastKernel', line: 20 });
      expect(error.message).toMatch(/1e\+308 is beyond the float32 range/);
    });

    it('should reject a flavour map with the wrong shape for the table kind', () => {
      const edited = text.replace('*HADRONIC: 0', '*HADRONIC: 1');
      const error = inputFileError(() => parseLegacyFkTable(edited, { file: POSXDQ_FILE }));
      expect(error.key).toBe('FlavourMap');
      expect(error.message).toMatch(/expected 14 rows of 14 flags for a hadronic table, got 1/);
    });

    it('should reject a row with the wrong number of values', () => {
      const hadronicRow = [0, 0, 0, ...hadronicValues([[1, 1, 1]])];
      const table = { ...SMALL_DIS, rows: [...SMALL_DIS.rows, hadronicRow] };
      const error = inputFileError(() => parseLegacyFkTable(syntheticLegacyText(table), { file }));
      expect(error.line).toBe(syntheticLegacyText(table).split('\n').length);
      expect(error.message).toMatch(
        /expected 16 numbers per row \(2 indices and 14 values\), got 199/,
      );
      const short = { ...SMALL_HADRONIC, rows: [[0, 0, 0, ...disValues({ 1: 1 })]] };
      expect(
        inputFileError(() => parseLegacyFkTable(syntheticLegacyText(short), { file })).message,
      ).toMatch(/expected 199 numbers per row \(3 indices and 196 values\), got 17/);
    });

    it.each(['nan', 'inf', '-Infinity', '1.5e999', '1.2.3', 'abc', '0x10'])(
      'should reject the value %s',
      (bad) => {
        const row = lineStartingWith(text, '3\t40\t');
        const edited = lines.map((line, i) => {
          if (i !== row - 1) return line;
          const tokens = line.split('\t');
          tokens[4] = bad;
          return tokens.join('\t');
        });
        const error = inputFileError(() =>
          parseLegacyFkTable(edited.join('\n'), { file: POSXDQ_FILE }),
        );
        expect(error).toMatchObject({ line: row, key: 'FastKernel' });
        expect(error.message).toContain(`"${bad}" is not a finite number`);
      },
    );

    it('should reject a repeated row', () => {
      const row = lineStartingWith(text, '7\t50\t');
      const edited = [...lines.slice(0, row), lines[row - 1], ...lines.slice(row)];
      const error = inputFileError(() =>
        parseLegacyFkTable(edited.join('\n'), { file: POSXDQ_FILE }),
      );
      expect(error.line).toBe(row + 1);
      expect(error.message).toMatch(/duplicate row: data point 7, x index 50/);
    });

    it('should reject an xGrid shorter than NX', () => {
      const xGridLine = lineStartingWith(text, '{xGrid');
      const edited = [...lines.slice(0, xGridLine), ...lines.slice(xGridLine + 1)].join('\n');
      const error = inputFileError(() => parseLegacyFkTable(edited, { file: POSXDQ_FILE }));
      expect(error.key).toBe('xGrid');
      expect(error.message).toMatch(/expected 100 x values \(\*NX\), got 99/);
    });

    it('should reject a missing or bad GridInfo or TheoryInfo key', () => {
      const noNdata = text.replace('*NDATA: 20\n', '');
      expect(
        inputFileError(() => parseLegacyFkTable(noNdata, { file: POSXDQ_FILE })).message,
      ).toMatch(/GridInfo: missing \*NDATA/);
      const badQ0 = text.replace('*Q0: 1.65', '*Q0: -1');
      const error = inputFileError(() => parseLegacyFkTable(badQ0, { file: POSXDQ_FILE }));
      expect(error).toMatchObject({ key: 'Q0', line: lineStartingWith(text, '*Q0:') });
    });

    it('should reject text that is not an FK table', () => {
      const error = inputFileError(() => parseLegacyFkTable('hello\nworld\n', { file }));
      expect(error).toMatchObject({ line: 1 });
      expect(error.message).toMatch(/expected a section header/);
    });

    it('should reject a section that appears twice', () => {
      const gridInfo = lineStartingWith(text, '_GridInfo');
      const repeated = [...lines.slice(0, gridInfo + 4), ...lines.slice(gridInfo - 1)].join('\n');
      const error = inputFileError(() => parseLegacyFkTable(repeated, { file: POSXDQ_FILE }));
      expect(error).toMatchObject({ key: 'GridInfo', line: gridInfo + 5 });
    });
  });
});
