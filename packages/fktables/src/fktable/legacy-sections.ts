import { InputFileError } from '@partonfit/core';

/**
 * The sections of a legacy FK-table file. Each opens with a header line: a marker (`{` for a
 * free-text blob, `_` for `*KEY: value` lines), the section name, then `_` padding to 60
 * characters. `FastKernel` is the last section and runs to the end of the file.
 *
 * @packageDocumentation
 */

/** One section before `FastKernel`: where its body lies in the text. */
export interface LegacySection {
  /** The section name, e.g. `GridInfo`. */
  readonly name: string;
  /** 1-based line of the header. */
  readonly headerLine: number;
  /** Character offset of the first body line. */
  readonly start: number;
  /** Character offset just past the body (the start of the next header). */
  readonly end: number;
}

/** The sections of a legacy file, and where its `FastKernel` rows begin. */
export interface LegacyLayout {
  /** The sections before `FastKernel`, by name. */
  readonly sections: ReadonlyMap<string, LegacySection>;
  /** The `FastKernel` section: its body runs from `start` to the end of the text. */
  readonly fastKernel: LegacySection;
}

/** One line of a section body, without its line break. */
export interface SectionLine {
  /** The text of the line (a trailing `\r` removed). */
  readonly text: string;
  /** 1-based line number in the file. */
  readonly line: number;
}

function isHeaderStart(code: number): boolean {
  return code === 95 /* _ */ || code === 123; /* { */
}

function lineEnd(text: string, start: number): number {
  const newline = text.indexOf('\n', start);
  return newline === -1 ? text.length : newline;
}

/**
 * Splits a legacy FK-table text into its sections, reading only the header part (the
 * `FastKernel` rows are not touched).
 *
 * @throws InputFileError - when the first line is not a header, a header has no name, a section
 *   appears twice, or the file has no `FastKernel` section
 */
export function splitLegacySections(text: string, file: string): LegacyLayout {
  const sections = new Map<string, LegacySection>();
  let current: { name: string; headerLine: number; start: number } | undefined;
  let position = 0;
  let line = 1;
  while (position < text.length) {
    const end = lineEnd(text, position);
    if (isHeaderStart(text.charCodeAt(position))) {
      const nameEnd = text.indexOf('_', position + 1);
      const name = text.slice(position + 1, nameEnd === -1 || nameEnd > end ? end : nameEnd);
      if (name.trim() === '' || name !== name.trim()) {
        throw new InputFileError({
          file,
          line,
          problem: `bad section header "${text.slice(position, end).trimEnd()}": expected '{' or '_', a name, then '_' padding`,
        });
      }
      if (current !== undefined) {
        sections.set(current.name, { ...current, end: position });
      }
      if (sections.has(name)) {
        throw new InputFileError({ file, line, key: name, problem: 'the section appears twice' });
      }
      const bodyStart = Math.min(end + 1, text.length);
      if (name === 'FastKernel') {
        return {
          sections,
          fastKernel: { name, headerLine: line, start: bodyStart, end: text.length },
        };
      }
      current = { name, headerLine: line, start: bodyStart };
    } else if (current === undefined) {
      throw new InputFileError({
        file,
        line,
        problem: "expected a section header starting with '{' or '_' (is this an FK table?)",
      });
    }
    position = end + 1;
    line += 1;
  }
  throw new InputFileError({
    file,
    line: Math.max(1, line - 1),
    key: 'FastKernel',
    problem: 'missing section: the file ends before the FastKernel rows (truncated?)',
  });
}

/** The non-blank lines of a section body, in order. */
export function sectionLines(text: string, section: LegacySection): SectionLine[] {
  const lines: SectionLine[] = [];
  let position = section.start;
  let line = section.headerLine + 1;
  while (position < section.end) {
    const end = Math.min(lineEnd(text, position), section.end);
    const content = text.slice(position, end).replace(/\r$/, '');
    if (content.trim() !== '') lines.push({ text: content, line });
    position = end + 1;
    line += 1;
  }
  return lines;
}

/**
 * The `*KEY: value` lines of a section, by key, with their line numbers.
 *
 * @throws InputFileError - for a line that is not `*KEY: value`
 */
export function readKeyValues(
  text: string,
  section: LegacySection,
  file: string,
): Map<string, SectionLine> {
  const values = new Map<string, SectionLine>();
  for (const { text: content, line } of sectionLines(text, section)) {
    const colon = content.indexOf(':');
    if (!content.startsWith('*') || colon === -1) {
      throw new InputFileError({
        file,
        line,
        key: section.name,
        problem: `expected "*KEY: value", got "${content.trim()}"`,
      });
    }
    values.set(content.slice(1, colon).trim(), { text: content.slice(colon + 1).trim(), line });
  }
  return values;
}
