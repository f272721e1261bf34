import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidArgumentError, ShapeError } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { loadLhapdfMember } from './lhapdf-grid.js';
import type { LhapdfMemberGrid } from './lhapdf-member-text.js';
import { loadLhapdfSet } from './lhapdf-set.js';
import { writeLhapdfSet, type LhapdfSetInfo } from './lhapdf-writer.js';

const PIDS = [-3, -2, -1, 21, 1, 2, 3, 22];
const X_KNOTS = [1e-7, 1.2345678e-4, 0.01, 0.1, 0.5, 0.75, 1];
/** Two blocks split at 4.92 GeV. */
const Q_KNOTS = [1.65, 2.2, 4.92, 4.92, 10, 100];
const INFO: LhapdfSetInfo = { description: 'partonfit writer test', orderQCD: 2 };

/**
 * A value with eight significant digits, made from its decimal text so that it is the double the
 * file's text reads back as: the written set must return it bit for bit.
 */
function eightDigits(member: number, ix: number, iq: number, p: number): number {
  const mantissa =
    10000000 + ((member * 7919 + ix * 104729 + iq * 1299709 + p * 15485863) % 90000000);
  const exponent = ((ix + iq + p) % 7) - 4;
  const sign = p % 3 === 0 ? '-' : '';
  return Number(`${sign}${String(mantissa)[0]}.${String(mantissa).slice(1)}e${exponent}`);
}

function member(index: number, pdfType: 'central' | 'replica' = 'replica'): LhapdfMemberGrid {
  const values = new Float64Array(X_KNOTS.length * Q_KNOTS.length * PIDS.length);
  for (let ix = 0; ix < X_KNOTS.length; ix++) {
    for (let iq = 0; iq < Q_KNOTS.length; iq++) {
      for (let p = 0; p < PIDS.length; p++) {
        values[(ix * Q_KNOTS.length + iq) * PIDS.length + p] = eightDigits(index, ix, iq, p);
      }
    }
  }
  const header = pdfType === 'replica' ? { FromMCReplica: 100 + index } : {};
  return {
    pdfType,
    header,
    pids: PIDS,
    xKnots: X_KNOTS,
    qKnots: Q_KNOTS,
    blockSizes: [3, 3],
    values,
  };
}

async function temporaryFolder(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'partonfit-lhapdf-writer-'));
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection, the promise resolved');
}

describe('writeLhapdfSet', () => {
  it('should write a set that the reader returns bit for bit', async () => {
    const members = [member(0, 'central'), member(1), member(2)];
    const folder = await writeLhapdfSet(await temporaryFolder(), {
      name: 'partonfit_test',
      info: INFO,
      members,
    });
    const set = await loadLhapdfSet(folder);
    expect(set).toMatchObject({
      name: 'partonfit_test',
      numMembers: 3,
      flavours: PIDS,
      xMin: 1e-7,
      xMax: 1,
      qMin: 1.65,
      qMax: 100,
      orderQCD: 2,
      errorType: 'replicas',
      extrapolation: 'continuation',
    });
    expect(set.record).toMatchObject({ Format: 'lhagrid1', NumFlavors: 3, Particle: 2212 });
    for (const [index, written] of members.entries()) {
      const grid = await loadLhapdfMember(set, index);
      expect(grid.pids).toEqual(PIDS);
      expect(Array.from(grid.xKnots)).toEqual(X_KNOTS);
      expect(Array.from(grid.qKnots)).toEqual(Q_KNOTS);
      expect(grid.blockSizes).toEqual([3, 3]);
      expect(grid.values).toEqual(written.values);
      expect(grid.header).toEqual(
        index === 0
          ? { PdfType: 'central', Format: 'lhagrid1' }
          : { PdfType: 'replica', Format: 'lhagrid1', FromMCReplica: 100 + index },
      );
    }
    expect((await readdir(folder)).sort()).toEqual([
      'partonfit_test.info',
      'partonfit_test_0000.dat',
      'partonfit_test_0001.dat',
      'partonfit_test_0002.dat',
    ]);
  });

  it('should round values to eight significant digits, ties to even as C does', async () => {
    const values = Float64Array.from(member(0).values);
    values[0] = 0.123456789;
    values[1] = -1.00390625;
    values[2] = 1.01171875;
    const folder = await writeLhapdfSet(await temporaryFolder(), {
      name: 'rounded',
      info: INFO,
      members: [{ ...member(0, 'central'), values }],
    });
    const grid = await loadLhapdfMember(await loadLhapdfSet(folder), 0);
    expect(Array.from(grid.values.subarray(0, 3))).toEqual([0.12345679, -1.0039062, 1.0117188]);
  });

  it('should take members from an async generator, one at a time', async () => {
    const parent = await temporaryFolder();
    /** For each member taken, whether the member before it was already on disk. */
    const previousWritten: boolean[] = [];
    async function* replicas() {
      for (let index = 0; index < 3; index++) {
        const previous = join(parent, 'generated', `generated_000${index - 1}.dat`);
        previousWritten.push(index === 0 || existsSync(previous));
        await Promise.resolve();
        yield member(index, index === 0 ? 'central' : 'replica');
      }
    }
    const folder = await writeLhapdfSet(parent, {
      name: 'generated',
      info: { ...INFO, xMin: 1e-9, qMax: 1e5, flavours: [...PIDS].reverse() },
      members: replicas(),
      format: { exponent: 'E' },
    });
    expect(previousWritten).toEqual([true, true, true]);
    const set = await loadLhapdfSet(folder);
    expect(set).toMatchObject({ numMembers: 3, xMin: 1e-9, qMin: 1.65, qMax: 1e5 });
    const text = await readFile(join(folder, 'generated_0002.dat'), 'utf8');
    expect(text.split('\n')[4]).toBe(
      '1.0000000E-07 1.2345678E-04 1.0000000E-02 1.0000000E-01 5.0000000E-01 7.5000000E-01 1.0000000E+00',
    );
  });

  it('should reject a bad name or .info field before writing anything', async () => {
    const parent = await temporaryFolder();
    const badName = await rejection(
      writeLhapdfSet(parent, { name: '../escape', info: INFO, members: [member(0)] }),
    );
    expect(InvalidArgumentError.isInstance(badName)).toBe(true);
    expect((badName as Error).message).toBe(
      "set.name: '../escape' is not a set name of letters, digits and '_.+-'",
    );
    const badInfo = await rejection(
      writeLhapdfSet(parent, { name: 'set', info: { ...INFO, description: '' }, members: [] }),
    );
    expect((badInfo as Error).message).toBe(
      'info.description: expected a non-empty string, got ""',
    );
    expect(await readdir(parent)).toEqual([]);
  });

  it('should leave no .info when a member is invalid, naming the member', async () => {
    const parent = await temporaryFolder();
    const first = await writeLhapdfSet(parent, { name: 'set', info: INFO, members: [member(0)] });
    const values = Float64Array.from(member(1).values);
    values[5] = NaN;
    const error = await rejection(
      writeLhapdfSet(parent, {
        name: 'set',
        info: INFO,
        members: [member(0), { ...member(1), values }],
      }),
    );
    expect((error as Error).message).toBe(
      'set.members[1].values: x·f is NaN at x knot 1, Q knot 1, PID 2',
    );
    expect(await readdir(first)).toEqual(['set_0000.dat']);
    const short = await rejection(
      writeLhapdfSet(parent, {
        name: 'set',
        info: INFO,
        members: [{ ...member(0), values: Array.from(member(0).values).slice(1) }],
      }),
    );
    expect(ShapeError.isInstance(short)).toBe(true);
    expect(existsSync(join(first, 'set.info'))).toBe(false);
  });

  it('should require the same flavours in every member and at least one member', async () => {
    const parent = await temporaryFolder();
    const otherPids = { ...member(1), pids: [...PIDS.slice(0, -1), 4] };
    const mismatch = await rejection(
      writeLhapdfSet(parent, { name: 'set', info: INFO, members: [member(0), otherPids] }),
    );
    expect((mismatch as Error).message).toBe(
      "set.members[1].pids: PIDs [-3, -2, -1, 21, 1, 2, 3, 4] differ from the set's Flavors [-3, -2, -1, 21, 1, 2, 3, 22]",
    );
    const empty = await rejection(
      writeLhapdfSet(parent, { name: 'empty', info: INFO, members: [] }),
    );
    expect((empty as Error).message).toBe('set.members: the set has no members');
    expect(await readdir(join(parent, 'empty'))).toEqual([]);
  });

  it('should replace an existing set, its .info written last', async () => {
    const parent = await temporaryFolder();
    const folder = join(parent, 'set');
    await writeLhapdfSet(parent, { name: 'set', info: INFO, members: [member(0), member(1)] });
    await writeFile(join(folder, 'notes.txt'), 'kept');
    await writeLhapdfSet(parent, {
      name: 'set',
      info: { ...INFO, description: 'second' },
      members: [member(5)],
    });
    const set = await loadLhapdfSet(folder);
    expect(set).toMatchObject({ description: 'second', numMembers: 1 });
    expect((await loadLhapdfMember(set, 0)).values).toEqual(member(5).values);
    expect(await readFile(join(folder, 'notes.txt'), 'utf8')).toBe('kept');
  });
});
