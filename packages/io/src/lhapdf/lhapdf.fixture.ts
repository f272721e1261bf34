import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** One Q block of a synthetic member file. */
export interface BlockFixture {
  readonly qKnots: readonly number[];
  /** x·f at (x, Q) for the PID; defaults to the grid's `value`. */
  readonly value?: (x: number, q: number, pid: number) => number;
}

/** The text of an LHAPDF member file whose values come from a function. */
export function memberText(options: {
  readonly xKnots: readonly number[];
  readonly blocks: readonly BlockFixture[];
  readonly pids: readonly number[];
  readonly value: (x: number, q: number, pid: number) => number;
  readonly header?: string;
}): string {
  const lines = [options.header ?? 'PdfType: central\nFormat: lhagrid1', '---'];
  for (const block of options.blocks) {
    const value = block.value ?? options.value;
    lines.push(options.xKnots.map(String).join(' '), block.qKnots.map(String).join(' '));
    lines.push(options.pids.join(' '));
    for (const x of options.xKnots) {
      for (const q of block.qKnots)
        lines.push(options.pids.map((pid) => String(value(x, q, pid))).join(' '));
    }
    lines.push('---');
  }
  return `${lines.join('\n')}\n`;
}

/** A minimal `.info` text for a synthetic set. */
export function infoText(options: {
  pids: readonly number[];
  numMembers?: number;
  extra?: string;
}): string {
  return [
    'SetDesc: "synthetic set for partonfit tests"',
    'Format: lhagrid1',
    `NumMembers: ${options.numMembers ?? 1}`,
    `Flavors: [${options.pids.join(', ')}]`,
    options.extra ?? '',
  ].join('\n');
}

/**
 * Writes a synthetic LHAPDF set `<name>/` (its `.info` and members 0, 1, …) into a new temporary
 * folder and returns the set's folder.
 */
export async function writeSet(
  name: string,
  info: string,
  members: readonly string[],
): Promise<string> {
  const folder = join(await mkdtemp(join(tmpdir(), 'partonfit-lhapdf-')), name);
  await mkdir(folder);
  await writeFile(join(folder, `${name}.info`), info);
  await Promise.all(
    members.map((text, member) =>
      writeFile(join(folder, `${name}_${String(member).padStart(4, '0')}.dat`), text),
    ),
  );
  return folder;
}

/** `count` points spaced evenly from `first` to `last`. */
export function evenly(first: number, last: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => first + ((last - first) * i) / (count - 1));
}
