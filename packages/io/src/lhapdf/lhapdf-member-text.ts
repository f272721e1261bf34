import { InvalidArgumentError, ShapeError } from '@partonfit/core';
import {
  numberWriter,
  type LhapdfNumberFormat,
  type NumberWriter,
} from './lhapdf-number-format.js';
import { checkedYamlValue, yamlEntry, type LhapdfYamlValue } from './lhapdf-yaml-text.js';

/**
 * One member of an LHAPDF set to be written: x·f(x, Q) on knots, in the layout of the reader's
 * `LhapdfGrid`.
 */
export interface LhapdfMemberGrid {
  /** `PdfType`: `central` for a central member (NNPDF's replica average), `replica` otherwise. */
  readonly pdfType: 'central' | 'replica';
  /** Further header keys, written after `PdfType` and `Format` in this order (`FromMCReplica`). */
  readonly header?: Readonly<Record<string, LhapdfYamlValue>>;
  /** The PDG ids of the value columns, in column order (21 gluon, 22 photon). */
  readonly pids: readonly number[];
  /** The x knots (x): at least 4, strictly increasing within (0, 1]. */
  readonly xKnots: ArrayLike<number>;
  /**
   * The Q knots in GeV of all blocks in order (q), each block strictly increasing; a threshold Q
   * that ends one block and starts the next appears twice.
   */
  readonly qKnots: ArrayLike<number>;
  /** The number of Q knots of each block, each at least 2 (default: one block of all). */
  readonly blockSizes?: readonly number[];
  /** x·f at the knots, (x, q, pid) row-major, q over the blocks' knots in order. */
  readonly values: ArrayLike<number>;
}

/** A member's text and its knots as written (rounded to the format). */
export interface WrittenMember {
  readonly text: string;
  /** The x knots as the file holds them (x). */
  readonly xKnots: readonly number[];
  /** The Q knots as the file holds them (q). */
  readonly qKnots: readonly number[];
}

const PDF_TYPES: readonly string[] = ['central', 'replica'];

/** The texts of `knots`, checked to stay strictly increasing once written. */
function knotTexts(
  knots: readonly number[],
  writer: NumberWriter,
  argument: string,
  offset = 0,
): string[] {
  const texts = knots.map((knot) => writer.write(knot));
  texts.forEach((text, i) => {
    if (i > 0 && Number(text) <= Number(texts[i - 1])) {
      throw new InvalidArgumentError({
        argument,
        problem: `knots ${offset + i} and ${offset + i + 1} (${knots[i - 1]}, ${knots[i]}) are both written as ${text}`,
      });
    }
  });
  return texts;
}

function checkIncreasing(
  knots: readonly number[],
  argument: string,
  valid: (knot: number) => boolean,
  range: string,
  offset = 0,
): void {
  knots.forEach((knot, i) => {
    if (!Number.isFinite(knot) || !valid(knot)) {
      throw new InvalidArgumentError({
        argument,
        problem: `knot ${offset + i + 1} is ${knot}, outside ${range}`,
      });
    }
    if (i > 0 && knot <= knots[i - 1]) {
      throw new InvalidArgumentError({
        argument,
        problem: `knots must increase strictly; knot ${offset + i + 1} (${knot}) follows ${knots[i - 1]}`,
      });
    }
  });
}

function checkPids(pids: readonly number[], argument: string): void {
  if (pids.length === 0) throw new InvalidArgumentError({ argument, problem: 'no PIDs' });
  pids.forEach((pid, i) => {
    if (!Number.isSafeInteger(pid) || pid === 0) {
      throw new InvalidArgumentError({ argument, problem: `PID ${pid} is not a non-zero integer` });
    }
    if (pids.indexOf(pid) !== i) {
      throw new InvalidArgumentError({ argument, problem: `PID ${pid} appears twice` });
    }
  });
}

function checkBlockSizes(blockSizes: readonly number[], nq: number, argument: string): void {
  if (blockSizes.length === 0) throw new InvalidArgumentError({ argument, problem: 'no blocks' });
  for (const size of blockSizes) {
    if (!Number.isInteger(size) || size < 2) {
      throw new InvalidArgumentError({
        argument,
        problem: `a block needs an integer number of at least 2 Q knots, got ${size}`,
      });
    }
  }
  const total = blockSizes.reduce((sum, size) => sum + size, 0);
  if (total !== nq) {
    throw new InvalidArgumentError({
      argument,
      problem: `the blocks hold ${total} Q knots, but qKnots has ${nq}`,
    });
  }
}

/** The header lines up to and including the `---` that ends it. */
function headerLines(member: LhapdfMemberGrid, argument: string): string[] {
  if (!PDF_TYPES.includes(member.pdfType)) {
    throw new InvalidArgumentError({
      argument: `${argument}.pdfType`,
      problem: `expected 'central' or 'replica', got '${member.pdfType}'`,
    });
  }
  const lines = [`PdfType: ${member.pdfType}`, 'Format: lhagrid1'];
  for (const [key, value] of Object.entries(member.header ?? {})) {
    if (key === 'PdfType' || key === 'Format') {
      throw new InvalidArgumentError({
        argument: `${argument}.header`,
        problem: `'${key}' is written by the writer; give pdfType instead`,
      });
    }
    lines.push(...yamlEntry(key, checkedYamlValue(`${argument}.header`, key, value)));
  }
  lines.push('---');
  return lines;
}

/**
 * The text of a member and its written knots, checking it first (see {@link lhapdfMemberText}).
 *
 * @param argument - the member's name in errors, e.g. `members[3]`
 */
export function writtenMember(
  member: LhapdfMemberGrid,
  writer: NumberWriter,
  argument: string,
): WrittenMember {
  const lines = headerLines(member, argument);
  checkPids(member.pids, `${argument}.pids`);
  const xKnots = Array.from(member.xKnots);
  if (xKnots.length < 4) {
    throw new InvalidArgumentError({
      argument: `${argument}.xKnots`,
      problem: `log-cubic interpolation needs at least 4 x knots, got ${xKnots.length}`,
    });
  }
  checkIncreasing(xKnots, `${argument}.xKnots`, (x) => x > 0 && x <= 1, '(0, 1]');
  const xTexts = knotTexts(xKnots, writer, `${argument}.xKnots`);
  const qKnots = Array.from(member.qKnots);
  const blockSizes = member.blockSizes ?? [qKnots.length];
  checkBlockSizes(blockSizes, qKnots.length, `${argument}.blockSizes`);
  const nx = xKnots.length;
  const nq = qKnots.length;
  const npid = member.pids.length;
  if (member.values.length !== nx * nq * npid) {
    throw new ShapeError({
      quantity: `${argument}.values`,
      expected: [nx * nq * npid],
      actual: [member.values.length],
      axes: `(x ${nx} · q ${nq} · pid ${npid})`,
    });
  }
  const qTexts: string[] = [];
  let first = 0;
  blockSizes.forEach((size, b) => {
    const block = qKnots.slice(first, first + size);
    const argumentQ = `${argument}.qKnots`;
    checkIncreasing(block, argumentQ, (q) => q > 0, '(0, ∞)', first);
    if (first > 0 && block[0] < qKnots[first - 1]) {
      throw new InvalidArgumentError({
        argument: argumentQ,
        problem: `block ${b + 1} starts at Q = ${block[0]}, below the previous block's last Q = ${qKnots[first - 1]}`,
      });
    }
    const texts = knotTexts(block, writer, argumentQ, first);
    lines.push(xTexts.join(' '), texts.join(' '), member.pids.join(' '));
    pushBlockRows(lines, member, writer, { argument, first, size, nq });
    lines.push('---');
    qTexts.push(...texts);
    first += size;
  });
  return {
    text: `${lines.join('\n')}\n`,
    xKnots: xTexts.map(Number),
    qKnots: qTexts.map(Number),
  };
}

/** Appends the value rows of one block: for each x, for each Q of the block, every PID's value. */
function pushBlockRows(
  rows: string[],
  member: LhapdfMemberGrid,
  writer: NumberWriter,
  block: { argument: string; first: number; size: number; nq: number },
): void {
  const { values, pids } = member;
  const nx = member.xKnots.length;
  for (let ix = 0; ix < nx; ix++) {
    for (let iq = block.first; iq < block.first + block.size; iq++) {
      let row = '';
      for (let p = 0; p < pids.length; p++) {
        const value = values[(ix * block.nq + iq) * pids.length + p];
        if (!Number.isFinite(value)) {
          throw new InvalidArgumentError({
            argument: `${block.argument}.values`,
            problem: `x·f is ${value} at x knot ${ix + 1}, Q knot ${iq + 1}, PID ${pids[p]}`,
          });
        }
        row += ` ${writer.write(value).padStart(writer.width)}`;
      }
      rows.push(row);
    }
  }
}

/**
 * The text of an LHAPDF 6 member file `<set>_<nnnn>.dat` (format `lhagrid1`): the header
 * (`PdfType`, `Format: lhagrid1`, then `member.header`) ended by `---`, then per Q block a line
 * of x knots, a line of Q knots and a line of PIDs (knots as `%.7e`, single spaces), the values
 * x-major, Q-minor, one row per (x, Q) with each value right-aligned in a column as wide as a
 * negative number and preceded by a space (`%14.7e` for the default format), and `---`.
 * With `{ exponent: 'E' }` this reproduces NNPDF4.0's member 0 byte for byte, with the default
 * format its replicas.
 *
 * @param member - the member's knots and values
 * @param format - digits and exponent symbol (default `%.7e`)
 * @throws InvalidArgumentError for fewer than 4 x knots, knots outside (0, 1] (x) or (0, ∞) (Q),
 *   knots that do not increase strictly within a block (also once rounded to the format), a block
 *   that starts below the previous block's end, block sizes below 2 or not adding up to the Q
 *   knots, PIDs that are empty, not integers or repeated, a non-finite value (naming its knots and
 *   PID), an unknown `pdfType` or an invalid header key or value
 * @throws ShapeError when `values` does not hold x · q · pid numbers
 */
export function lhapdfMemberText(member: LhapdfMemberGrid, format?: LhapdfNumberFormat): string {
  return writtenMember(member, numberWriter(format), 'member').text;
}
