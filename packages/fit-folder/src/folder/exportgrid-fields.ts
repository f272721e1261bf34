import { InputFileError, parseYamlDocument } from '@partonfit/core';
import { isMap, isScalar, isSeq, type Node } from 'yaml';

/** A value of an `.exportgrid` and the file line it starts on. */
export interface ExportGridField<T> {
  readonly value: T;
  readonly line: number | undefined;
}

/**
 * The keys of an `.exportgrid` as written, before their values are checked: list items and
 * scalars as the layout gives them (text from the fast reader, YAML values from the general one).
 * A key absent from the file is undefined; other keys are left out.
 */
export interface ExportGridFields {
  readonly labels?: ExportGridField<readonly unknown[]>;
  readonly xgrid?: ExportGridField<readonly unknown[]>;
  /** The rows, each `(flavours)`, and the line of the key. */
  readonly pdfgrid?: ExportGridField<readonly ExportGridField<readonly unknown[]>[]>;
  readonly q20?: ExportGridField<unknown>;
  readonly replica?: ExportGridField<unknown>;
}

type Fields = { -readonly [K in keyof ExportGridFields]: ExportGridFields[K] };

/** A top-level key's value: the text after `key:` and the indented or `- ` lines below it. */
interface Entry {
  readonly line: number;
  readonly head: string;
  readonly body: { line: number; text: string }[];
}

const KEY_LINE = /^([A-Za-z_]\w*):(.*)$/;
/** What only the general parser reads right: nesting, quotes, comments, anchors, tags. */
const GENERAL_YAML = /[[\]{}"'#&*!|>]/;

/** The top-level keys of the text, or undefined for a line that is not `key: …` nor indented. */
function entriesOf(text: string): Map<string, Entry> | undefined {
  const entries = new Map<string, Entry>();
  let current: Entry | undefined;
  for (const [index, raw] of text.split('\n').entries()) {
    const content = raw.trimEnd();
    if (content.trim() === '') continue;
    const key = KEY_LINE.exec(content);
    if (key !== null) {
      current = { line: index + 1, head: key[2].trim(), body: [] };
      entries.set(key[1], current);
    } else if (current !== undefined && /^[\s-]/.test(content)) {
      current.body.push({ line: index + 1, text: content });
    } else {
      return undefined;
    }
  }
  return entries;
}

/** The items of a flow sequence `[a, b, …]` written over `parts`, or undefined if it is not one. */
function flowItems(
  parts: readonly { line: number; text: string }[],
): ExportGridField<string[]> | undefined {
  const joined = parts.map((part) => part.text.trim()).join(' ');
  if (!joined.startsWith('[') || !joined.endsWith(']')) return undefined;
  const inner = joined.slice(1, -1).trim();
  if (GENERAL_YAML.test(inner)) return undefined;
  return {
    value: inner === '' ? [] : inner.split(',').map((item) => item.trim()),
    line: parts[0]?.line,
  };
}

/** The rows of a block sequence of flow sequences (`- [..]` lines, possibly wrapped). */
function blockRows(entry: Entry): ExportGridField<string[]>[] | undefined {
  if (entry.head !== '') return undefined;
  const parts: { line: number; text: string }[][] = [];
  for (const part of entry.body) {
    if (part.text.startsWith('- ')) parts.push([{ line: part.line, text: part.text.slice(2) }]);
    else if (parts.length > 0 && part.text.startsWith(' ')) parts[parts.length - 1].push(part);
    else return undefined;
  }
  const rows: ExportGridField<string[]>[] = [];
  for (const row of parts) {
    const items = flowItems(row);
    if (items === undefined) return undefined;
    rows.push(items);
  }
  return rows;
}

/**
 * The fields of an `.exportgrid` in the layout n3fit and `formatExportGrid` write (PyYAML's
 * `default_flow_style=None`): `key: value` lines, lists as flow sequences that may wrap onto
 * indented lines, `pdfgrid` as `- [...]` rows. Read line by line without a YAML parser, so that
 * a fit's hundreds of grids read in milliseconds. Undefined for any other layout.
 */
export function flowLayoutFields(text: string): ExportGridFields | undefined {
  const entries = entriesOf(text);
  if (entries === undefined) return undefined;
  const fields: Fields = {};
  for (const [key, entry] of entries) {
    if (key === 'labels' || key === 'xgrid') {
      const items = flowItems([{ line: entry.line, text: entry.head }, ...entry.body]);
      if (items === undefined) return undefined;
      fields[key] = items;
    } else if (key === 'pdfgrid') {
      const rows = blockRows(entry);
      if (rows === undefined) return undefined;
      fields.pdfgrid = { value: rows, line: entry.line };
    } else if (key === 'q20' || key === 'replica') {
      if (entry.body.length > 0 || GENERAL_YAML.test(entry.head)) return undefined;
      fields[key] = { value: entry.head, line: entry.line };
    }
  }
  return fields;
}

/**
 * The fields of an `.exportgrid` in any YAML layout (block sequences, one flow mapping, a `---`
 * document start, comments…), through the `yaml` package.
 *
 * @throws InputFileError naming the file, line and key for text that is not YAML or not a
 *   mapping, or a list key whose value is not a list (of lists, for `pdfgrid`)
 */
export function yamlLayoutFields(text: string, file: string): ExportGridFields {
  const { document, lines } = parseYamlDocument(text, file);
  const root = document.contents;
  if (!isMap(root)) {
    throw new InputFileError({
      file,
      line: 1,
      problem: 'expected a mapping of the keys labels, pdfgrid, q20, replica and xgrid',
    });
  }
  const lineOf = (node: unknown) =>
    isScalar(node) || isSeq(node) || isMap(node)
      ? lines.linePos(node.range?.[0] ?? 0).line
      : undefined;
  const listOf = (key: string, node: unknown): ExportGridField<unknown[]> => {
    if (!isSeq(node)) {
      throw new InputFileError({
        file,
        line: lineOf(node),
        key,
        problem: 'expected a list [a, b, …]',
      });
    }
    return {
      value: node.items.map((item) => (isScalar(item) ? item.value : item)),
      line: lineOf(node),
    };
  };
  const fields: Fields = {};
  for (const { key: keyNode, value: node } of root.items) {
    const key = isScalar(keyNode) ? String(keyNode.value) : '';
    const line = lineOf(keyNode);
    if (key === 'labels' || key === 'xgrid') {
      fields[key] = { ...listOf(key, node), line };
    } else if (key === 'pdfgrid') {
      const rows = listOf(key, node).value.map((row) => listOf(key, row as Node));
      fields.pdfgrid = { value: rows, line };
    } else if (key === 'q20' || key === 'replica') {
      fields[key] = { value: isScalar(node) ? node.value : node, line };
    }
  }
  return fields;
}
