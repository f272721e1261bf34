import { join } from 'node:path';
import { InputFileError, InvalidArgumentError } from '@partonfit/core';
import { readInputText } from '../compressed/read-input.js';
import { forcePositiveOf, type LhapdfSet } from './lhapdf-set.js';
import { logXDerivativesOf } from './log-bicubic.js';
import { parseYamlRecord } from './yaml-record.js';

/**
 * One member of an LHAPDF set: the x·f(x, Q) values on its knots, ready for interpolation.
 *
 * A member file holds one or more Q blocks (subgrids, split at heavy-quark thresholds, whose Q
 * appears at the end of one block and the start of the next). All blocks share the x knots and
 * PIDs; here their Q knots are concatenated in file order, as LHAPDF 6.4+ does.
 */
export interface LhapdfGrid {
  /** The set this member belongs to. */
  readonly set: LhapdfSet;
  /** The member number (0 for NNPDF's replica average). */
  readonly member: number;
  /** The member file. */
  readonly file: string;
  /** The member file's YAML header (`PdfType`, `Format`, `FromMCReplica`, …). */
  readonly header: Readonly<Record<string, unknown>>;
  /** The PDG ids of the value columns, in file order. */
  readonly pids: readonly number[];
  /** The x knots (x), strictly increasing. */
  readonly xKnots: Float64Array;
  /** The Q knots in GeV of all blocks in order (q); a threshold Q appears twice. */
  readonly qKnots: Float64Array;
  /** The number of Q knots of each block, in order. */
  readonly blockSizes: readonly number[];
  /** x·f at the knots, (x, q, pid) row-major, pid in {@link LhapdfGrid.pids} order. */
  readonly values: Float64Array;
  /** log x of the x knots (x). */
  readonly logX: Float64Array;
  /** Q² of the Q knots (q). */
  readonly q2Knots: Float64Array;
  /** log Q² of the Q knots (q). */
  readonly logQ2: Float64Array;
  /**
   * d(x·f)/d log x at the knots, (x, q, pid): LHAPDF's estimate, the mean of the slopes to the
   * neighbouring knots (one-sided at the first and last x knot).
   */
  readonly logXDerivatives: Float64Array;
  /** `ForcePositive` of the member header, else of the set. */
  readonly forcePositive: 0 | 1 | 2;
}

/** The state of the line reader: 0-based index of the next line. */
interface Cursor {
  index: number;
}

/** The next line that is neither blank nor a `#` comment, trimmed, with its 1-based number. */
function nextLine(
  lines: readonly string[],
  cursor: Cursor,
): { text: string; line: number } | undefined {
  while (cursor.index < lines.length) {
    const text = lines[cursor.index].trim();
    cursor.index++;
    if (text !== '' && !text.startsWith('#')) return { text, line: cursor.index };
  }
  return undefined;
}

function parseNumbers(text: string, file: string, line: number, what: string): number[] {
  return text.split(/\s+/).map((token) => {
    const value = Number(token);
    if (!Number.isFinite(value)) {
      throw new InputFileError({
        file,
        line,
        problem: `${what}: '${token}' is not a finite number`,
      });
    }
    return value;
  });
}

function sameKnots(left: readonly number[], right: Float64Array): boolean {
  return left.length === right.length && left.every((value, i) => value === right[i]);
}

interface Block {
  readonly qKnots: number[];
  readonly values: Float64Array;
}

/** The validated x knots of the first block, or a check that a later block repeats them. */
function checkXKnots(knots: number[], file: string, line: number, first: Float64Array | undefined) {
  if (first !== undefined) {
    if (!sameKnots(knots, first)) {
      throw new InputFileError({
        file,
        line,
        problem: 'x knots differ from those of the first block',
      });
    }
    return first;
  }
  if (knots.length < 4) {
    throw new InputFileError({
      file,
      line,
      problem: `log-cubic interpolation needs at least 4 x knots, got ${knots.length}`,
    });
  }
  knots.forEach((x, i) => {
    if (x <= 0 || x > 1 || (i > 0 && x <= knots[i - 1])) {
      throw new InputFileError({
        file,
        line,
        problem: `x knots must increase strictly within (0, 1]; knot ${i + 1} is ${x}`,
      });
    }
  });
  return Float64Array.from(knots);
}

function checkQKnots(knots: number[], file: string, line: number, previousLast: number): void {
  if (knots.length < 2) {
    throw new InputFileError({
      file,
      line,
      problem: `a block needs at least 2 Q knots, got ${knots.length}`,
    });
  }
  knots.forEach((q, i) => {
    if (q <= 0 || (i > 0 && q <= knots[i - 1])) {
      throw new InputFileError({
        file,
        line,
        problem: `Q knots must be positive and increase strictly; knot ${i + 1} is ${q}`,
      });
    }
  });
  if (knots[0] < previousLast) {
    throw new InputFileError({
      file,
      line,
      problem: `the block starts at Q = ${knots[0]}, below the previous block's last Q = ${previousLast}`,
    });
  }
}

/**
 * Parses the text of an LHAPDF 6 member file (`lhagrid1`): a YAML header ended by `---`, then
 * blocks of an x-knots line, a Q-knots line, a PIDs line and nx·nQ rows (x-major, Q-minor) of one
 * value per PID, each block ended by `---`. Blank lines and `#` comments are skipped.
 *
 * @param text - the member file's text
 * @param options - the set, the member number and the file (for errors)
 * @throws InputFileError (with the line) for a missing `---`, a block with the wrong number of
 *   rows or values per row, non-numbers, knots that do not increase, blocks whose x knots or PIDs
 *   differ, or a PIDs line whose length differs from the set's `Flavors`
 */
export function parseLhapdfGrid(
  text: string,
  options: { set: LhapdfSet; member: number; file: string },
): LhapdfGrid {
  const { file, set } = options;
  const lines = text.split(/\r?\n/);
  const separator = lines.findIndex((line) => line.trim() === '---');
  if (separator === -1) {
    throw new InputFileError({ file, problem: "missing '---' after the header" });
  }
  const headerRecord = parseYamlRecord(lines.slice(0, separator).join('\n'), file);
  const cursor: Cursor = { index: separator + 1 };
  let xKnots: Float64Array | undefined;
  let pids: number[] | undefined;
  const blocks: Block[] = [];
  let firstLine = nextLine(lines, cursor);
  while (firstLine !== undefined) {
    const knots = parseNumbers(firstLine.text, file, firstLine.line, 'x knots');
    xKnots = checkXKnots(knots, file, firstLine.line, xKnots);
    const qLine = nextLine(lines, cursor);
    if (qLine === undefined)
      throw new InputFileError({ file, problem: 'the file ends before the Q knots' });
    const qKnots = parseNumbers(qLine.text, file, qLine.line, 'Q knots');
    checkQKnots(qKnots, file, qLine.line, blocks.at(-1)?.qKnots.at(-1) ?? 0);
    const pidLine = nextLine(lines, cursor);
    if (pidLine === undefined)
      throw new InputFileError({ file, problem: 'the file ends before the PIDs' });
    const blockPids = parseNumbers(pidLine.text, file, pidLine.line, 'PIDs');
    if (!blockPids.every((pid) => Number.isInteger(pid))) {
      throw new InputFileError({ file, line: pidLine.line, problem: 'PIDs must be integers' });
    }
    if (pids === undefined) {
      if (blockPids.length !== set.flavours.length) {
        throw new InputFileError({
          file,
          line: pidLine.line,
          problem: `${blockPids.length} PIDs, but the set's Flavors lists ${set.flavours.length}`,
        });
      }
      pids = blockPids;
    } else if (blockPids.join(' ') !== pids.join(' ')) {
      throw new InputFileError({
        file,
        line: pidLine.line,
        problem: 'PIDs differ from those of the first block',
      });
    }
    blocks.push({
      qKnots,
      values: readRows(lines, cursor, file, xKnots.length, qKnots.length, pids.length),
    });
    firstLine = nextLine(lines, cursor);
  }
  if (xKnots === undefined || pids === undefined) {
    throw new InputFileError({ file, problem: 'no data blocks after the header' });
  }
  return assembleGrid(blocks, xKnots, pids, {
    ...options,
    header: headerRecord.values,
    forcePositive: forcePositiveOf(headerRecord) ?? set.forcePositive,
  });
}

/** Reads a block's rows up to and including its closing `---`. */
function readRows(
  lines: readonly string[],
  cursor: Cursor,
  file: string,
  nx: number,
  nq: number,
  npid: number,
): Float64Array {
  const expectedRows = nx * nq;
  const values = new Float64Array(expectedRows * npid);
  let rows = 0;
  for (;;) {
    const row = nextLine(lines, cursor);
    if (row === undefined) {
      throw new InputFileError({
        file,
        line: lines.length,
        problem: `missing '---' at the end of the block (after ${rows} rows of values)`,
      });
    }
    if (row.text === '---') break;
    const numbers = parseNumbers(row.text, file, row.line, 'values');
    if (numbers.length !== npid) {
      throw new InputFileError({
        file,
        line: row.line,
        problem: `expected ${npid} values (one per PID), got ${numbers.length}`,
      });
    }
    if (rows < expectedRows) values.set(numbers, rows * npid);
    rows++;
    if (rows === expectedRows + 1) {
      throw new InputFileError({
        file,
        line: row.line,
        problem: `more than ${nx} × ${nq} = ${expectedRows} rows of values in the block`,
      });
    }
  }
  if (rows !== expectedRows) {
    throw new InputFileError({
      file,
      line: cursor.index,
      problem: `the block has ${rows} rows of values, expected ${nx} × ${nq} = ${expectedRows}`,
    });
  }
  return values;
}

function assembleGrid(
  blocks: readonly Block[],
  xKnots: Float64Array,
  pids: readonly number[],
  rest: {
    set: LhapdfSet;
    member: number;
    file: string;
    header: Readonly<Record<string, unknown>>;
    forcePositive: 0 | 1 | 2;
  },
): LhapdfGrid {
  const qKnots = Float64Array.from(blocks.flatMap((block) => block.qKnots));
  const nx = xKnots.length;
  const nq = qKnots.length;
  const npid = pids.length;
  const values = new Float64Array(nx * nq * npid);
  let qOffset = 0;
  for (const block of blocks) {
    const blockQ = block.qKnots.length;
    for (let ix = 0; ix < nx; ix++) {
      for (let iq = 0; iq < blockQ; iq++) {
        const from = (ix * blockQ + iq) * npid;
        values.set(block.values.subarray(from, from + npid), (ix * nq + qOffset + iq) * npid);
      }
    }
    qOffset += blockQ;
  }
  const logX = xKnots.map(Math.log);
  const q2Knots = qKnots.map((q) => q * q);
  return {
    ...rest,
    pids,
    xKnots,
    qKnots,
    blockSizes: blocks.map((block) => block.qKnots.length),
    values,
    logX,
    q2Knots,
    logQ2: q2Knots.map(Math.log),
    logXDerivatives: logXDerivativesOf(values, logX, nq * npid),
  };
}

/** The path of member `member` of `set`: `<folder>/<name>_<NNNN>.dat`. */
export function lhapdfMemberFile(set: LhapdfSet, member: number): string {
  return join(set.folder, `${set.name}_${String(member).padStart(4, '0')}.dat`);
}

/**
 * Reads member `member` of an LHAPDF set (see {@link parseLhapdfGrid} for the format).
 *
 * @param set - the set from {@link loadLhapdfSet}
 * @param member - 0 … set.numMembers − 1
 * @throws InvalidArgumentError for a member number outside the set
 * @throws InputFileError when the member file is missing or invalid
 */
export async function loadLhapdfMember(set: LhapdfSet, member: number): Promise<LhapdfGrid> {
  if (!Number.isInteger(member) || member < 0 || member >= set.numMembers) {
    throw new InvalidArgumentError({
      argument: 'member',
      problem: `set ${set.name} has members 0 to ${set.numMembers - 1}, got ${member}`,
    });
  }
  const file = lhapdfMemberFile(set, member);
  const { text } = await readInputText(file);
  return parseLhapdfGrid(text, { set, member, file });
}
