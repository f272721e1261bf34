import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { InputFileError, InvalidArgumentError } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { loadLhapdfMember, parseLhapdfGrid } from './lhapdf-grid.js';
import { loadLhapdfSet, parseLhapdfInfo } from './lhapdf-set.js';
import { infoText, memberText, writeSet } from './lhapdf.fixture.js';

const PIDS = [-1, 21, 1];
const X_KNOTS = [1e-3, 1e-2, 0.1, 0.5, 1];
const Q_KNOTS = [2, 3, 5];
const value = (x: number, q: number, pid: number) => x * q + pid;
const FILE = 'Toy_0000.dat';
const SET = parseLhapdfInfo(infoText({ pids: PIDS }), {
  name: 'Toy',
  folder: '/toy',
  infoFile: '/toy/Toy.info',
});

/** A valid member text: header lines 1–2, `---` line 3, block lines 4–6, rows 7–21, `---` 22. */
const VALID = memberText({ xKnots: X_KNOTS, blocks: [{ qKnots: Q_KNOTS }], pids: PIDS, value });

function lines(text: string): string[] {
  return text.split('\n');
}

/** The InputFileError of parsing `text` as a member of the toy set. */
function gridError(text: string): InputFileError {
  try {
    parseLhapdfGrid(text, { set: SET, member: 0, file: FILE });
  } catch (error) {
    if (InputFileError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an InputFileError, nothing was thrown');
}

function edit(change: (rows: string[]) => void): string {
  const rows = lines(VALID);
  change(rows);
  return rows.join('\n');
}

describe('parseLhapdfGrid', () => {
  it('should read a valid file, skipping comments and blank lines', () => {
    const text = edit((rows) => rows.splice(9, 0, '# a comment', ''));
    const grid = parseLhapdfGrid(text, { set: SET, member: 0, file: FILE });
    expect(grid.values).toHaveLength(5 * 3 * 3);
    // (x = 0.01, Q = 5, pid 1) is row 1·3 + 2, column 2
    expect(grid.values[(1 * 3 + 2) * 3 + 2]).toBe(0.01 * 5 + 1);
  });

  it('should name the line of a row with the wrong number of values', () => {
    const text = edit((rows) => {
      rows[9] = '1 2';
    });
    expect(gridError(text).message).toBe(`${FILE}:10: expected 3 values (one per PID), got 2`);
  });

  it('should name the line and token of a value that is not a number', () => {
    const text = edit((rows) => {
      rows[12] = '0.1 nan 0.3';
    });
    const error = gridError(text);
    expect(error.line).toBe(13);
    expect(error.message).toBe(`${FILE}:13: values: 'nan' is not a finite number`);
  });

  it('should report a block with a row too few or too many', () => {
    const missing = edit((rows) => rows.splice(10, 1));
    expect(gridError(missing).message).toBe(
      `${FILE}:21: the block has 14 rows of values, expected 5 × 3 = 15`,
    );
    const extra = edit((rows) => rows.splice(10, 0, '1 2 3'));
    expect(gridError(extra).message).toBe(
      `${FILE}:22: more than 5 × 3 = 15 rows of values in the block`,
    );
  });

  it("should report a missing '---' at the end and after the header", () => {
    const unterminated = VALID.replace(/---\n$/, '');
    expect(gridError(unterminated).message).toMatch(
      new RegExp(
        `^${FILE}:\\d+: missing '---' at the end of the block \\(after 15 rows of values\\)$`,
      ),
    );
    expect(gridError('PdfType: central\n').message).toBe(`${FILE}: missing '---' after the header`);
    expect(gridError('PdfType: central\n---\n').message).toBe(
      `${FILE}: no data blocks after the header`,
    );
  });

  it('should check knots and PIDs', () => {
    const decreasing = edit((rows) => {
      rows[4] = '2 5 3';
    });
    expect(gridError(decreasing).message).toBe(
      `${FILE}:5: Q knots must be positive and increase strictly; knot 3 is 3`,
    );
    const fewX = edit((rows) => {
      rows[3] = '0.1 0.5 1';
    });
    expect(gridError(fewX).message).toBe(
      `${FILE}:4: log-cubic interpolation needs at least 4 x knots, got 3`,
    );
    const pids = edit((rows) => {
      rows[5] = '-1 21';
    });
    expect(gridError(pids).message).toBe(`${FILE}:6: 2 PIDs, but the set's Flavors lists 3`);
  });

  it('should require every block to repeat the x knots and PIDs of the first', () => {
    const blocks = [{ qKnots: Q_KNOTS }, { qKnots: [5, 10] }];
    const twoBlocks = memberText({ xKnots: X_KNOTS, blocks, pids: PIDS, value });
    expect(parseLhapdfGrid(twoBlocks, { set: SET, member: 0, file: FILE }).blockSizes).toEqual([
      3, 2,
    ]);
    const otherX = lines(twoBlocks);
    otherX[22] = '1e-3 2e-2 0.1 0.5 1';
    expect(gridError(otherX.join('\n')).message).toBe(
      `${FILE}:23: x knots differ from those of the first block`,
    );
    const otherPids = lines(twoBlocks);
    otherPids[24] = '1 21 -1';
    expect(gridError(otherPids.join('\n')).message).toBe(
      `${FILE}:25: PIDs differ from those of the first block`,
    );
    const backwards = lines(twoBlocks);
    backwards[23] = '4 10';
    expect(gridError(backwards.join('\n')).message).toBe(
      `${FILE}:24: the block starts at Q = 4, below the previous block's last Q = 5`,
    );
  });

  it('should report an invalid YAML header with its line', () => {
    const error = gridError(
      `PdfType: central\nFormat: [unclosed\n---\n${VALID.split('---\n')[1]}---\n`,
    );
    expect(error.message).toMatch(new RegExp(`^${FILE}:\\d: not valid YAML`));
  });
});

describe('loadLhapdfSet and loadLhapdfMember', () => {
  it('should read a set and its member from files', async () => {
    const folder = await writeSet(
      'Toy',
      infoText({ pids: PIDS, extra: 'MCharm: 1.51\nOrderQCD: 1' }),
      [VALID],
    );
    const set = await loadLhapdfSet(`${folder}/`);
    expect(set).toMatchObject({ name: 'Toy', numMembers: 1, flavours: PIDS, orderQCD: 1 });
    expect(set.masses).toEqual({ charm: 1.51, bottom: undefined, top: undefined });
    const grid = await loadLhapdfMember(set, 0);
    expect(grid.file).toBe(join(`${folder}/`, 'Toy_0000.dat'));
  });

  it('should name a missing member file and refuse member numbers outside the set', async () => {
    const folder = await writeSet('Toy', infoText({ pids: PIDS, numMembers: 3 }), [VALID]);
    const set = await loadLhapdfSet(folder);
    await expect(loadLhapdfMember(set, 2)).rejects.toThrow(
      new RegExp(`^${join(folder, 'Toy_0002.dat')}: cannot read the file \\(ENOENT`),
    );
    await expect(loadLhapdfMember(set, 3)).rejects.toThrow(InvalidArgumentError);
    await expect(loadLhapdfMember(set, 3)).rejects.toThrow(
      'member: set Toy has members 0 to 2, got 3',
    );
  });

  it('should name a missing set and the command that downloads it', async () => {
    await expect(loadLhapdfSet('/no/such/Set')).rejects.toThrow(
      /^\/no\/such\/Set: no LHAPDF set Set here; `partonfit get pdf Set` downloads it/,
    );
  });

  it('should name a missing .info file', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'partonfit-lhapdf-empty-'));
    await expect(loadLhapdfSet(folder)).rejects.toThrow(
      `${join(folder, basename(folder))}.info: cannot read the file`,
    );
  });

  it.each([
    ['SetDesc: "x"\nNumMembers: [1\n', /^I\.info:\d: not valid YAML/],
    ['SetDesc: toy\nFlavors: [1, 2]\n', /^I\.info: NumMembers: required key is missing$/],
    [
      'NumMembers: 0\nFlavors: [1]\n',
      /^I\.info:1: NumMembers: expected a positive integer, got 0$/,
    ],
    [
      'NumMembers: 2\nFlavors: gluon\n',
      /^I\.info:2: Flavors: expected a list of integers, got "gluon"$/,
    ],
    [
      'NumMembers: 2\nFlavors: [21]\nXMin: small\n',
      /^I\.info:3: XMin: expected a number, got "small"$/,
    ],
    [
      'NumMembers: 2\nFlavors: [21]\nExtrapolator: wild\n',
      /^I\.info:3: Extrapolator: unknown extrapolator 'wild'/,
    ],
    [
      'NumMembers: 2\nFlavors: [21]\nInterpolator: linear\n',
      /^I\.info:3: Interpolator: interpolator 'linear' is not supported/,
    ],
    [
      'NumMembers: 2\nFlavors: [21]\nForcePositive: 3\n',
      /^I\.info:3: ForcePositive: expected 0, 1 or 2, got 3$/,
    ],
    ['- just\n- a list\n', /^I\.info:1: expected a YAML mapping of keys$/],
  ])('should reject the bad .info %j', (text, message) => {
    expect(() => parseLhapdfInfo(text, { name: 'I', folder: '.', infoFile: 'I.info' })).toThrow(
      message,
    );
  });
});
