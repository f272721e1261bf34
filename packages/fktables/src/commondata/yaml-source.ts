import { readFile } from 'node:fs/promises';
import { InputFileError, parseYamlDocument } from '@partonfit/core';
import { isAlias, isMap, isScalar, isSeq, type Document, type LineCounter, type Node } from 'yaml';
import { parseSimpleYaml } from './simple-yaml.js';
import type { YamlMapping, YamlNode, YamlSequence } from './yaml-node.js';

/**
 * A parsed YAML file whose nodes keep their lines, so that every complaint about its content
 * names the file, the line and the key path (e.g. `bins[3].sys_corr_2`).
 */
export class YamlSource {
  /** The file, for messages. */
  readonly file: string;
  /** The top-level node (undefined for a file without content). */
  readonly root: YamlNode | undefined;

  private constructor(file: string, root: YamlNode | undefined) {
    this.file = file;
    this.root = root;
  }

  /**
   * Reads and parses `file`.
   *
   * @throws InputFileError - if the file cannot be read or is not valid YAML
   */
  static async read(file: string, what: string): Promise<YamlSource> {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (cause) {
      throw new InputFileError({ file, problem: `cannot read the ${what}`, cause });
    }
    return YamlSource.parse(file, text);
  }

  /**
   * Parses `text` as the content of `file`: with the fast reader of plain block YAML when the
   * text allows it (see `parseSimpleYaml`), else with the general `yaml` parser.
   *
   * @throws InputFileError - if the text is not valid YAML
   */
  static parse(file: string, text: string): YamlSource {
    const simple = parseSimpleYaml(text);
    if (simple !== undefined) return new YamlSource(file, simple.root);
    const { document, lines } = parseYamlDocument(text, file);
    return new YamlSource(file, fromDocument(document, document.contents, lines));
  }

  /** Throws an {@link InputFileError} at `line`. */
  fail(line: number | undefined, keyPath: string | undefined, problem: string): never {
    throw new InputFileError({
      file: this.file,
      line,
      key: keyPath === '' ? undefined : keyPath,
      problem,
    });
  }

  /** Whether `node` is absent or a null scalar. */
  isNull(node: YamlNode | undefined): boolean {
    return node === undefined || (node.kind === 'scalar' && node.value === null);
  }

  /** `node` as a mapping, or an error naming `keyPath`. */
  map(node: YamlNode | undefined, keyPath: string): YamlMapping {
    if (node?.kind !== 'mapping')
      this.fail(node?.line, keyPath, `expected a mapping, got ${describe(node)}`);
    return node;
  }

  /** `node` as a sequence, or an error naming `keyPath`. */
  seq(node: YamlNode | undefined, keyPath: string): YamlSequence {
    if (node?.kind !== 'sequence')
      this.fail(node?.line, keyPath, `expected a list, got ${describe(node)}`);
    return node;
  }

  /** The entries of a mapping as [key, value, key line], checking that every key is a name. */
  entries(node: YamlMapping, keyPath: string): [string, YamlNode, number][] {
    return node.entries.map(({ key, keyLine, value }) => {
      if (typeof key !== 'string')
        this.fail(keyLine, keyPath, `expected a name as key, got ${String(key)}`);
      return [key, value, keyLine];
    });
  }

  /** The value of `key` in a mapping, undefined when absent. */
  get(node: YamlMapping, key: string): YamlNode | undefined {
    return node.entries.find((entry) => entry.key === key)?.value;
  }

  /** The value of `key`, or an error saying it is missing. */
  required(node: YamlMapping, key: string, keyPath: string): YamlNode {
    return this.get(node, key) ?? this.fail(node.line, joinKey(keyPath, key), 'missing');
  }

  /** A string scalar, or an error. */
  text(node: YamlNode | undefined, keyPath: string): string {
    if (node?.kind === 'scalar' && typeof node.value === 'string') return node.value;
    this.fail(node?.line, keyPath, `expected a string, got ${describe(node)}`);
  }

  /**
   * A finite number, or an error (NaN, infinities, strings and null are refused). `keyPath` is
   * a function so that the path is only built for a message.
   */
  number(node: YamlNode | undefined, keyPath: () => string): number {
    if (node?.kind === 'scalar' && typeof node.value === 'number' && Number.isFinite(node.value)) {
      return node.value;
    }
    this.fail(node?.line, keyPath(), `expected a finite number, got ${describe(node)}`);
  }

  /** A list of finite numbers, or an error naming the first bad entry. */
  numbers(node: YamlNode | undefined, keyPath: string): Float64Array {
    const { items } = this.seq(node, keyPath);
    return Float64Array.from(items, (item, i) => this.number(item, () => `${keyPath}[${i}]`));
  }

  /** A list of strings, or an error. */
  texts(node: YamlNode | undefined, keyPath: string): string[] {
    return this.seq(node, keyPath).items.map((item, i) => this.text(item, `${keyPath}[${i}]`));
  }
}

/** `parent.key`, or `key` at the top level. */
export function joinKey(parent: string, key: string): string {
  return parent === '' ? key : `${parent}.${key}`;
}

/** The tree of a document of the general parser, aliases resolved, with lines. */
function fromDocument(
  document: Document.Parsed,
  node: Node | null,
  lines: LineCounter,
): YamlNode | undefined {
  if (node === null) return undefined;
  const resolved = isAlias(node) ? node.resolve(document) : node;
  const line = lines.linePos(resolved?.range?.[0] ?? 0).line;
  if (isMap(resolved)) {
    return {
      kind: 'mapping',
      line,
      entries: resolved.items.map((pair) => {
        const key = pair.key as Node;
        const value = fromDocument(document, pair.value as Node | null, lines);
        return {
          key: isScalar(key) ? key.value : key,
          keyLine: lines.linePos(key.range?.[0] ?? 0).line,
          value: value ?? { kind: 'scalar', value: null, line },
        };
      }),
    };
  }
  if (isSeq(resolved)) {
    return {
      kind: 'sequence',
      line,
      items: resolved.items.map(
        (item) =>
          fromDocument(document, item as Node | null, lines) ?? {
            kind: 'scalar',
            value: null,
            line,
          },
      ),
    };
  }
  return { kind: 'scalar', value: isScalar(resolved) ? resolved.value : null, line };
}

/** A short description of a node for messages: its value, or what kind of node it is. */
function describe(node: YamlNode | undefined): string {
  if (node === undefined) return 'nothing';
  if (node.kind === 'mapping') return 'a mapping';
  if (node.kind === 'sequence') return 'a list';
  const { value } = node;
  if (value === null) return 'null';
  if (typeof value === 'string') return `'${value}'`;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return 'an unexpected value';
}
