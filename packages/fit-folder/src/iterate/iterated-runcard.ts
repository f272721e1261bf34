import { InvalidArgumentError, parseYamlDocument } from '@partonfit/core';
import { isMap, isScalar, isSeq, stringify, type Document, type YAMLMap } from 'yaml';
import type { PreprocessingRange } from './next-preprocessing.js';

/** The seeds of a runcard that `--new-seeds` redraws. */
export type RuncardSeed = 'trvlseed' | 'nnseed' | 'mcseed';

/** What {@link iteratedRuncardText} changes in a runcard. */
export interface RuncardIteration {
  /** `datacuts.t0pdfset`: the LHAPDF set of the fit being iterated. */
  readonly t0pdfset: string;
  /** `data_paths.lhapdf` to write (added, or replacing the runcard's): the folder of `t0pdfset`. */
  readonly lhapdfFolder?: string;
  /** New `smallx`/`largex` ranges of `fitting.basis` entries, by `fl`; absent ones stay. */
  readonly ranges: readonly {
    readonly flavour: string;
    readonly smallx?: PreprocessingRange | undefined;
    readonly largex?: PreprocessingRange | undefined;
  }[];
  /** New values of top-level seeds. */
  readonly seeds?: Readonly<Partial<Record<RuncardSeed, number>>>;
  /** A comment line put first in the runcard (without `#`), saying where it came from. */
  readonly comment?: string;
}

/** A replacement of `text.slice(start, end)`; `start === end` is an insertion. */
interface TextEdit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** A number or string as a YAML 1.2 plain or quoted scalar. */
function scalarText(value: number | string): string {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) {
      throw new InvalidArgumentError({ argument: 'value', problem: `${value} is not finite` });
    }
    return String(value);
  }
  return stringify(value, { version: '1.2', lineWidth: 0 }).trimEnd();
}

/** The index just after the end of the line holding `position - 1` (or the end of the text). */
function lineEnd(text: string, position: number): number {
  if (position > 0 && text[position - 1] === '\n') return position;
  const newline = text.indexOf('\n', position);
  return newline === -1 ? text.length : newline + 1;
}

/** Text to insert at `position` as whole lines: a newline first where the line is not ended. */
function asLines(text: string, position: number, lines: string): string {
  return position > 0 && text[position - 1] !== '\n' ? `\n${lines}` : lines;
}

/** The edit that replaces the scalar at `path` by `value`. */
function replaceScalar(
  document: Document.Parsed,
  path: readonly (string | number)[],
  value: number | string,
): TextEdit {
  const node: unknown = document.getIn(path, true);
  if (!isScalar(node) || node.range === undefined || node.range === null) {
    throw new InvalidArgumentError({
      argument: path.join('.'),
      problem: 'expected a value written in the runcard',
    });
  }
  return { start: node.range[0], end: node.range[1], text: scalarText(value) };
}

/** The edit that adds `key: value` to a top-level section (a flow or block mapping). */
function addToSection(text: string, section: YAMLMap, key: string, value: string): TextEdit {
  const [start, valueEnd] = section.range ?? [0, 0];
  if (section.flow === true) {
    let close = text.lastIndexOf('}', valueEnd - 1);
    while (close > start && /\s/.test(text[close - 1])) close--;
    const separator = section.items.length === 0 || text[close - 1] === ',' ? '' : ', ';
    return { start: close, end: close, text: `${separator}${key}: ${value}` };
  }
  const firstKey = section.items[0]?.key;
  const keyStart = isScalar(firstKey) && firstKey.range ? firstKey.range[0] : start;
  const indent = ' '.repeat(keyStart - (text.lastIndexOf('\n', keyStart - 1) + 1));
  const last = section.items[section.items.length - 1]?.value;
  const after = lineEnd(
    text,
    isScalar(last) || isMap(last) || isSeq(last) ? (last.range?.[1] ?? valueEnd) : valueEnd,
  );
  return { start: after, end: after, text: asLines(text, after, `${indent}${key}: ${value}\n`) };
}

/**
 * The runcard `text` with the changes of an iterated fit, everything else as written — comments,
 * key order, blank lines, number formats: the values changed are replaced in place in the text
 * (`fitting.basis[].smallx`/`largex` items, `datacuts.t0pdfset`, `data_paths.lhapdf`, a
 * `theorycovmatconfig.pdf`, which becomes the t0 set too, the seeds), a missing key is added to its section (`datacuts`, `data_paths`), and a missing section
 * after `dataset_inputs`. The result is read back and checked to hold the new values.
 *
 * @param text - the runcard (a fit folder's `runcard.yml`)
 * @param file - its file, for messages
 * @throws InputFileError naming `file` when the text is not YAML; InvalidArgumentError for a
 *   flavour `fitting.basis` does not have, or a value to replace that is not written as a plain
 *   value in the text
 */
export function iteratedRuncardText(
  text: string,
  file: string,
  iteration: RuncardIteration,
): string {
  const { document } = parseYamlDocument(text, file);
  const root = document.contents;
  if (!isMap(root)) {
    throw new InvalidArgumentError({
      argument: file,
      problem: 'expected a mapping of keys to values',
    });
  }
  const edits: TextEdit[] = [];
  const basis: unknown = document.getIn(['fitting', 'basis'], true);
  const flavours = isSeq(basis)
    ? basis.items.map((entry) => (isMap(entry) ? entry.get('fl') : undefined))
    : [];
  for (const { flavour, smallx, largex } of iteration.ranges) {
    const index = flavours.indexOf(flavour);
    if (index === -1) {
      throw new InvalidArgumentError({
        argument: 'fitting.basis',
        problem: `has no flavour '${flavour}'`,
      });
    }
    for (const [key, range] of [
      ['smallx', smallx],
      ['largex', largex],
    ] as const) {
      if (range === undefined) continue;
      for (const end of [0, 1]) {
        edits.push(replaceScalar(document, ['fitting', 'basis', index, key, end], range[end]));
      }
    }
  }
  for (const [seed, value] of Object.entries(iteration.seeds ?? {})) {
    edits.push(replaceScalar(document, [seed], value));
  }
  const newSections: string[] = [];
  const setInSection = (section: string, key: string, value: string) => {
    const node: unknown = root.get(section, true);
    if (isMap(node) && node.has(key)) edits.push(replaceScalar(document, [section, key], value));
    else if (isMap(node)) edits.push(addToSection(text, node, key, scalarText(value)));
    else newSections.push(`${section}:\n  ${key}: ${scalarText(value)}\n`);
  };
  setInSection('datacuts', 't0pdfset', iteration.t0pdfset);
  // a theory covariance's shifts are computed with the new t0 set too (upstream's rule)
  if (document.hasIn(['theorycovmatconfig', 'pdf'])) {
    edits.push(replaceScalar(document, ['theorycovmatconfig', 'pdf'], iteration.t0pdfset));
  }
  if (iteration.lhapdfFolder !== undefined) {
    setInSection('data_paths', 'lhapdf', iteration.lhapdfFolder);
  }
  if (newSections.length > 0) {
    const datasets: unknown = root.get('dataset_inputs', true);
    const anchor =
      isSeq(datasets) || isMap(datasets) ? (datasets.range?.[1] ?? text.length) : text.length;
    const at = lineEnd(text, anchor);
    edits.push({ start: at, end: at, text: asLines(text, at, `\n${newSections.join('\n')}`) });
  }
  if (iteration.comment !== undefined) {
    edits.push({ start: 0, end: 0, text: `# ${iteration.comment.replaceAll('\n', '\n# ')}\n` });
  }
  const result = [...edits]
    .sort((a, b) => b.start - a.start)
    .reduce(
      (current, edit) => current.slice(0, edit.start) + edit.text + current.slice(edit.end),
      text,
    );
  checkIteration(result, file, iteration);
  return result;
}

/** Reads the new text back and checks that it holds the iteration's values. */
function checkIteration(text: string, file: string, iteration: RuncardIteration): void {
  const values = parseYamlDocument(text, file).document.toJS() as {
    datacuts?: { t0pdfset?: unknown };
    data_paths?: { lhapdf?: unknown };
    theorycovmatconfig?: { pdf?: unknown };
    fitting?: { basis?: { fl?: unknown; smallx?: unknown; largex?: unknown }[] };
    [seed: string]: unknown;
  };
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const wrong = [
    ...(same(values.datacuts?.t0pdfset, iteration.t0pdfset) ? [] : ['datacuts.t0pdfset']),
    ...(values.theorycovmatconfig?.pdf === undefined ||
    same(values.theorycovmatconfig.pdf, iteration.t0pdfset)
      ? []
      : ['theorycovmatconfig.pdf']),
    ...(iteration.lhapdfFolder === undefined ||
    same(values.data_paths?.lhapdf, iteration.lhapdfFolder)
      ? []
      : ['data_paths.lhapdf']),
    ...iteration.ranges.flatMap(({ flavour, smallx, largex }) => {
      const entry = values.fitting?.basis?.find((candidate) => candidate.fl === flavour);
      return [
        ...(smallx === undefined || same(entry?.smallx, smallx) ? [] : [`${flavour} smallx`]),
        ...(largex === undefined || same(entry?.largex, largex) ? [] : [`${flavour} largex`]),
      ];
    }),
    ...Object.entries(iteration.seeds ?? {}).flatMap(([seed, value]) =>
      same(values[seed], value) ? [] : [seed],
    ),
  ];
  if (wrong.length > 0) {
    throw new InvalidArgumentError({
      argument: file,
      problem: `could not write ${wrong.join(', ')} into the runcard's text as written: edit it by hand`,
    });
  }
}
