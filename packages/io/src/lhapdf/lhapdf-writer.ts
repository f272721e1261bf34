import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidArgumentError } from '@partonfit/core';
import { writeFileAtomic } from '../write-file-atomic.js';
import { lhapdfInfoText, type LhapdfInfo } from './lhapdf-info-text.js';
import { writtenMember, type LhapdfMemberGrid } from './lhapdf-member-text.js';
import { numberWriter, type LhapdfNumberFormat } from './lhapdf-number-format.js';

/** The `.info` fields of a set to write; those derived from the members may be left out. */
export type LhapdfSetInfo = Omit<
  LhapdfInfo,
  'numMembers' | 'flavours' | 'xMin' | 'xMax' | 'qMin' | 'qMax'
> &
  Partial<Pick<LhapdfInfo, 'flavours' | 'xMin' | 'xMax' | 'qMin' | 'qMax'>>;

/** An LHAPDF 6 set to write with {@link writeLhapdfSet}. */
export interface LhapdfSetToWrite {
  /** The set's name: its folder and file names, e.g. `partonfit_nnlo_as_01180`. */
  readonly name: string;
  /**
   * The `.info` fields. `NumMembers` is the number of members; `Flavors` defaults to member 0's
   * PIDs; `XMin`, `XMax`, `QMin`, `QMax` default to the smallest and largest knots written.
   */
  readonly info: LhapdfSetInfo;
  /**
   * Members 0, 1, … in order (for NNPDF-style sets: 0 the replica average, then the replicas).
   * Each is formatted and written before the next is taken, so a generator can evolve one
   * replica at a time.
   */
  readonly members: Iterable<LhapdfMemberGrid> | AsyncIterable<LhapdfMemberGrid>;
  /** The number format of members and `.info` (default `%.7e`). */
  readonly format?: LhapdfNumberFormat;
}

/** What the members fix in the `.info` file. */
interface MemberSummary {
  numMembers: number;
  flavours: readonly number[];
  xMin: number;
  xMax: number;
  qMin: number;
  qMax: number;
}

function checkName(name: string): void {
  if (typeof name !== 'string' || !/^[A-Za-z0-9_+-][\w.+-]*$/.test(name)) {
    throw new InvalidArgumentError({
      argument: 'set.name',
      problem: `'${name}' is not a set name of letters, digits and '_.+-'`,
    });
  }
}

/** The `.info` fields, the caller's first, then those from the members. */
function completeInfo(info: LhapdfSetInfo, members: MemberSummary): LhapdfInfo {
  return {
    ...info,
    numMembers: members.numMembers,
    flavours: info.flavours ?? members.flavours,
    xMin: info.xMin ?? members.xMin,
    xMax: info.xMax ?? members.xMax,
    qMin: info.qMin ?? members.qMin,
    qMax: info.qMax ?? members.qMax,
  };
}

/** Stand-ins for the fields the members give, to check the caller's fields before writing. */
function placeholderSummary(info: LhapdfSetInfo): MemberSummary {
  return {
    numMembers: 1,
    flavours: [21],
    xMin: (info.xMax ?? 1) / 2,
    xMax: 1,
    qMin: (info.qMax ?? 2) / 2,
    qMax: (info.qMin ?? 1) * 2,
  };
}

function checkFlavours(pids: readonly number[], flavours: readonly number[], argument: string) {
  const same = pids.length === flavours.length && pids.every((pid) => flavours.includes(pid));
  if (!same) {
    throw new InvalidArgumentError({
      argument,
      problem: `PIDs [${pids.join(', ')}] differ from the set's Flavors [${flavours.join(', ')}]`,
    });
  }
}

/**
 * Writes an LHAPDF 6 set: `<folder>/<name>/<name>_<nnnn>.dat` for every member (see
 * {@link lhapdfMemberText}) and `<folder>/<name>/<name>.info` (see {@link lhapdfInfoText}),
 * each file atomically. An existing `.info` is removed first and the new one written last, so a
 * set whose writing failed has no `.info` and is not taken for a complete set; other files in
 * the folder are left alone (members are overwritten).
 *
 * @param folder - the folder that receives the set's folder (created if needed)
 * @param set - the set's name, `.info` fields and members
 * @returns the set's folder, `<folder>/<name>`, as {@link loadLhapdfSet} takes it
 * @throws InvalidArgumentError for a name that is not a plain file name, no members, a member
 *   whose PIDs differ from `Flavors`, or any invalid member (argument `set.members[i]…`) or
 *   `.info` field, before anything is written for the `.info` fields
 * @throws ShapeError for a member whose values do not fit its knots and PIDs
 */
export async function writeLhapdfSet(folder: string, set: LhapdfSetToWrite): Promise<string> {
  checkName(set.name);
  const writer = numberWriter(set.format);
  lhapdfInfoText(completeInfo(set.info, placeholderSummary(set.info)), set.format);
  const setFolder = join(folder, set.name);
  const infoFile = join(setFolder, `${set.name}.info`);
  await mkdir(setFolder, { recursive: true });
  await rm(infoFile, { force: true });
  let summary: MemberSummary | undefined;
  for await (const member of set.members) {
    const index = summary?.numMembers ?? 0;
    const argument = `set.members[${index}]`;
    const written = writtenMember(member, writer, argument);
    const flavours = set.info.flavours ?? summary?.flavours ?? member.pids;
    checkFlavours(member.pids, flavours, `${argument}.pids`);
    const file = join(setFolder, `${set.name}_${String(index).padStart(4, '0')}.dat`);
    await writeFileAtomic(file, written.text);
    summary = {
      numMembers: index + 1,
      flavours,
      xMin: Math.min(summary?.xMin ?? Infinity, written.xKnots[0]),
      xMax: Math.max(summary?.xMax ?? 0, written.xKnots[written.xKnots.length - 1]),
      qMin: Math.min(summary?.qMin ?? Infinity, written.qKnots[0]),
      qMax: Math.max(summary?.qMax ?? 0, written.qKnots[written.qKnots.length - 1]),
    };
  }
  if (summary === undefined) {
    throw new InvalidArgumentError({ argument: 'set.members', problem: 'the set has no members' });
  }
  await writeFileAtomic(infoFile, lhapdfInfoText(completeInfo(set.info, summary), set.format));
  return setFolder;
}
