import { EVOLUTION_BASIS, EVOLUTION_BASIS_SIZE, InputFileError } from '@partonfit/core';
import { parseDecimal } from './decimal-number.js';
import type { LegacySection } from './legacy-sections.js';
import { BEYOND_FLOAT32, FLOAT32_MAX } from './float32-range.js';

/**
 * The hot loop of the legacy reader: the `FastKernel` rows, scanned character by character (no
 * split of the text into lines or tokens; a lone `0`, the commonest token, is recognised without
 * allocating).
 *
 * @packageDocumentation
 */

/** What the rows must agree with, from the sections before them. */
export interface FastKernelLayout {
  /** The file, for errors. */
  readonly file: string;
  /** Whether rows are `data ix1 ix2 v0…v195` (true) or `data ix v0…v13` (false). */
  readonly hadronic: boolean;
  /** Number of data points (GridInfo `*NDATA`). */
  readonly ndata: number;
  /** Number of x nodes (GridInfo `*NX`). */
  readonly nx: number;
  /**
   * For each flattened flavour index of a row (14 for DIS, 196 = 14·i + j for hadronic), its
   * position on the compact channel axis, or −1 when the FlavourMap marks it inactive.
   */
  readonly channelOf: Int32Array;
  /** Number of active channels. */
  readonly channelCount: number;
  /** Whether a non-zero value in an inactive channel is an error or is dropped. */
  readonly inactiveChannels: 'error' | 'drop';
}

const SPACE = 32;
const TAB = 9;
const CARRIAGE_RETURN = 13;
const NEWLINE = 10;
const ZERO = 48;

/** Whether `code` can appear in a decimal floating-point number: digits, `.`, `+`, `-`, `e`, `E`. */
function isNumberCharacter(code: number): boolean {
  return (
    (code >= 48 && code <= 57) ||
    code === 46 ||
    code === 43 ||
    code === 45 ||
    code === 101 ||
    code === 69
  );
}

function channelLabel(flattened: number, hadronic: boolean): string {
  if (!hadronic) return `${EVOLUTION_BASIS[flattened].name} (flavour ${flattened})`;
  const first = Math.floor(flattened / EVOLUTION_BASIS_SIZE);
  const second = flattened % EVOLUTION_BASIS_SIZE;
  return `(${EVOLUTION_BASIS[first].name}, ${EVOLUTION_BASIS[second].name}) (flavour pair ${first}, ${second})`;
}

/**
 * Reads the `FastKernel` rows into the compact table, shape `(data, channel, x)` (DIS) or
 * `(data, channel, x1, x2)` (hadronic); combinations without a row stay zero.
 *
 * @throws InputFileError - naming the line, for a row with the wrong number of values (a cut
 *   row), a non-number or non-finite value, a data or x index out of range, a repeated
 *   (data, x) combination, a non-zero value in an inactive channel (unless dropped), and for
 *   data points without any row (a truncated file or a wrong `*NDATA`)
 */
export function readFastKernelRows(
  text: string,
  section: LegacySection,
  layout: FastKernelLayout,
): Float64Array {
  const { file, hadronic, ndata, nx, channelOf, channelCount } = layout;
  const dropInactive = layout.inactiveChannels === 'drop';
  const indexCount = hadronic ? 3 : 2;
  const flavourCount = channelOf.length;
  const width = indexCount + flavourCount;
  const xBlock = hadronic ? nx * nx : nx;
  const values = new Float64Array(ndata * channelCount * xBlock);
  const seen = new Uint8Array(ndata * xBlock);
  const row = new Float64Array(width);
  const length = text.length;
  const fail = (line: number, problem: string): never => {
    throw new InputFileError({ file, line, key: 'FastKernel', problem });
  };

  let position = section.start;
  let line = section.headerLine + 1;
  let lastLine = section.headerLine;
  while (position < length) {
    let count = 0;
    let code = text.charCodeAt(position);
    for (;;) {
      while (position < length && (code === SPACE || code === TAB || code === CARRIAGE_RETURN)) {
        code = text.charCodeAt(++position);
      }
      if (position >= length || code === NEWLINE) break;
      const tokenStart = position;
      let numeric = true;
      while (
        position < length &&
        code !== SPACE &&
        code !== TAB &&
        code !== CARRIAGE_RETURN &&
        code !== NEWLINE
      ) {
        if (!isNumberCharacter(code)) numeric = false;
        code = text.charCodeAt(++position);
      }
      if (count < width) {
        let value = 0;
        if (position - tokenStart !== 1 || text.charCodeAt(tokenStart) !== ZERO) {
          value = numeric ? parseDecimal(text, tokenStart, position) : Number.NaN;
          if (!(Math.abs(value) <= FLOAT32_MAX)) {
            const token = text.slice(tokenStart, position);
            if (Number.isFinite(value)) {
              fail(line, `${token} is ${BEYOND_FLOAT32}`);
            }
            if (count === 0 && (token.startsWith('_') || token.startsWith('{'))) {
              fail(
                line,
                `section header "${token}" after FastKernel, which must be the last section`,
              );
            }
            fail(line, `"${token}" is not a finite number`);
          }
        }
        row[count] = value;
      }
      count += 1;
    }
    if (count > 0) {
      if (count !== width) {
        const cut = count < width && position >= length ? ' (the file is cut short)' : '';
        fail(
          line,
          `expected ${width} numbers per row (${indexCount} indices and ${flavourCount} values), got ${count}${cut}`,
        );
      }
      storeRow(row, line);
      lastLine = line;
    }
    position += 1;
    line += 1;
  }

  const missing: number[] = [];
  for (let n = 0; n < ndata; n++) {
    let found = false;
    for (let k = n * xBlock; k < (n + 1) * xBlock && !found; k++) found = seen[k] === 1;
    if (!found) missing.push(n);
  }
  if (missing.length > 0) {
    const listed = missing.length > 5 ? `${missing.slice(0, 5).join(', ')}, …` : missing.join(', ');
    fail(
      lastLine,
      `${missing.length} of ${ndata} data points have no rows (data ${listed}): the file is truncated or *NDATA is wrong`,
    );
  }
  return values;

  function checkIndex(value: number, size: number, what: string, declared: string, at: number) {
    if (!Number.isInteger(value) || value < 0 || value >= size) {
      fail(at, `${what} ${value} is outside 0…${size - 1} (${declared} is ${size})`);
    }
  }

  function storeRow(cells: Float64Array, at: number): void {
    const n = cells[0];
    const a = cells[1];
    const b = hadronic ? cells[2] : 0;
    checkIndex(n, ndata, 'data index', '*NDATA', at);
    checkIndex(a, nx, hadronic ? 'x1 index' : 'x index', '*NX', at);
    if (hadronic) checkIndex(b, nx, 'x2 index', '*NX', at);
    const offset = hadronic ? a * nx + b : a;
    const seenAt = n * xBlock + offset;
    if (seen[seenAt] === 1) {
      const where = hadronic ? `x indices ${a}, ${b}` : `x index ${a}`;
      fail(at, `duplicate row: data point ${n}, ${where} appeared before`);
    }
    seen[seenAt] = 1;
    const base = n * channelCount * xBlock + offset;
    for (let f = 0; f < flavourCount; f++) {
      const value = cells[indexCount + f];
      const channel = channelOf[f];
      if (channel >= 0) {
        values[base + channel * xBlock] = value;
      } else if (value !== 0 && !dropInactive) {
        fail(
          at,
          `non-zero value ${value} in channel ${channelLabel(f, hadronic)}, which the FlavourMap marks inactive`,
        );
      }
    }
  }
}
