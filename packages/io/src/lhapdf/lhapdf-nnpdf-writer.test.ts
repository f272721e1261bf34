import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import { lhapdfMemberFile, loadLhapdfMember, type LhapdfGrid } from './lhapdf-grid.js';
import { lhapdfMemberText } from './lhapdf-member-text.js';
import { loadLhapdfSet, type LhapdfSet } from './lhapdf-set.js';
import { writeLhapdfSet, type LhapdfSetInfo } from './lhapdf-writer.js';
import { firstDifference, memberOfGrid } from './lhapdf-writer.fixture.js';

const NAME = 'NNPDF40_nnlo_as_01180';
const FOLDER = `${SHARED_DATA}lhapdf/${NAME}`;
const hasSet = hasSharedData(`lhapdf/${NAME}/${NAME}_0001.dat`, 'NNPDF4.0 LHAPDF set');

describe.skipIf(!hasSet)('writing the NNPDF4.0 NNLO members back', () => {
  let set: LhapdfSet;
  let central: LhapdfGrid;
  let replica: LhapdfGrid;
  beforeAll(async () => {
    set = await loadLhapdfSet(FOLDER);
    [central, replica] = await Promise.all([loadLhapdfMember(set, 0), loadLhapdfMember(set, 1)]);
  });

  it('should reproduce member 0 byte for byte with upper-case exponents', async () => {
    const original = await readFile(lhapdfMemberFile(set, 0), 'utf8');
    const text = lhapdfMemberText(memberOfGrid(central), { exponent: 'E' });
    expect(firstDifference(text, original)).toBeUndefined();
    expect(text === original).toBe(true);
  });

  it('should reproduce replica 1 and its FromMCReplica header byte for byte', async () => {
    const original = await readFile(lhapdfMemberFile(set, 1), 'utf8');
    const text = lhapdfMemberText(memberOfGrid(replica));
    expect(firstDifference(text, original)).toBeUndefined();
    expect(text === original).toBe(true);
  });
});

/** The `.info` fields of a set read with {@link loadLhapdfSet}. */
function infoOf(set: LhapdfSet): LhapdfSetInfo {
  const record = set.record as Record<string, never>;
  return {
    description: record.SetDesc,
    setIndex: record.SetIndex,
    authors: record.Authors,
    reference: record.Reference,
    dataVersion: record.DataVersion,
    particle: record.Particle,
    flavours: record.Flavors,
    orderQCD: record.OrderQCD,
    flavorScheme: record.FlavorScheme,
    numFlavors: record.NumFlavors,
    errorType: record.ErrorType,
    xMin: record.XMin,
    xMax: record.XMax,
    qMin: record.QMin,
    qMax: record.QMax,
    mZ: record.MZ,
    masses: {
      up: record.MUp,
      down: record.MDown,
      strange: record.MStrange,
      charm: record.MCharm,
      bottom: record.MBottom,
      top: record.MTop,
    },
    alphaS: {
      mZ: record.AlphaS_MZ,
      orderQCD: record.AlphaS_OrderQCD,
      type: record.AlphaS_Type,
      qs: record.AlphaS_Qs,
      values: record.AlphaS_Vals,
      lambda4: record.AlphaS_Lambda4,
      lambda5: record.AlphaS_Lambda5,
    },
  };
}

/** The lines of the flow list `key` in a YAML text. */
function listLines(text: string, key: string): string[] {
  const lines = text.split('\n');
  const first = lines.findIndex((line) => line.startsWith(`${key}: [`));
  const last = lines.findIndex((line, i) => i >= first && line.endsWith(']'));
  return lines.slice(first, last + 1);
}

describe.skipIf(!hasSet)('writing the NNPDF4.0 NNLO set back with writeLhapdfSet', () => {
  it('should write the .info keys and members so that the reader returns the same set', async () => {
    const set = await loadLhapdfSet(FOLDER);
    const grids = await Promise.all([loadLhapdfMember(set, 0), loadLhapdfMember(set, 1)]);
    const parent = await mkdtemp(join(tmpdir(), 'partonfit-nnpdf-writer-'));
    const folder = await writeLhapdfSet(parent, {
      name: NAME,
      info: infoOf(set),
      members: grids.map(memberOfGrid),
    });
    const written = await loadLhapdfSet(folder);
    const { NumMembers, Interpolator, Extrapolator, ...rest } = written.record;
    expect({ NumMembers, Interpolator, Extrapolator }).toEqual({
      NumMembers: 2,
      Interpolator: 'logcubic',
      Extrapolator: 'continuation',
    });
    const { NumMembers: originalMembers, ...originalRest } = set.record;
    expect(originalMembers).toBe(101);
    expect(rest).toEqual(originalRest);
    const [infoText, originalInfo] = await Promise.all([
      readFile(written.infoFile, 'utf8'),
      readFile(set.infoFile, 'utf8'),
    ]);
    for (const key of ['AlphaS_Qs', 'AlphaS_Vals']) {
      expect(listLines(infoText, key)).toEqual(listLines(originalInfo, key));
    }
    for (const [member, grid] of grids.entries()) {
      const reread = await loadLhapdfMember(written, member);
      expect(reread.values).toEqual(grid.values);
      expect(reread.header).toEqual(grid.header);
      const [text, original] = await Promise.all([
        readFile(lhapdfMemberFile(written, member), 'utf8'),
        readFile(lhapdfMemberFile(set, member), 'utf8'),
      ]);
      // member 0 of the NNPDF set has upper-case exponents; the set is written with one format
      expect(firstDifference(text, member === 0 ? original.replaceAll('E', 'e') : original)).toBe(
        undefined,
      );
    }
  });
});
