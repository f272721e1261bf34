import type { YamlEntry, YamlMapping, YamlNode, YamlScalar, YamlSequence } from './yaml-node.js';

/**
 * A fast reader for the plain block-style YAML that NNPDF's data files are written in
 * (`key: value` mappings, `- ` sequences, plain or simply quoted scalars, plain scalars folded
 * over several lines), many times faster than the general parser on the large uncertainty
 * files. Scalars are resolved by the YAML 1.2 core schema, as the `yaml` package does by default.
 *
 * Anything outside that subset (flow collections, anchors and aliases, tags, block scalars,
 * multi-line quoted scalars, comments after content, tabs, escapes, several documents,
 * duplicate keys) makes it return `undefined`, and the caller parses the text with the general
 * parser instead.
 *
 * @packageDocumentation
 */

/** One non-blank, non-comment line. */
interface Line {
  /** 1-based line number. */
  readonly line: number;
  /** Number of leading spaces. */
  readonly indent: number;
  /** The content after the indentation, trailing spaces removed. */
  readonly content: string;
  /** Whether a blank or comment line came right before it. */
  readonly afterGap: boolean;
}

/** Thrown inside the reader when the text leaves the supported subset. */
class OutsideSubset extends Error {}

const KEY = /^([A-Za-z_][A-Za-z0-9_.+-]*):(?: +(.*))?$/;
const NULL = /^(?:~|[Nn]ull|NULL)?$/;
const BOOLEAN = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const NUMBER = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
const INFINITY = /^[-+]?\.(?:inf|Inf|INF)$/;
const NAN = /^\.(?:nan|NaN|NAN)$/;
/** Hexadecimal and octal integers, left to the general parser. */
const BASED_INTEGER = /^0[xo]/;
/** Characters that may not start a plain scalar here (YAML indicators, and `-` unless a number). */
const PLAIN_START = /^[-?:,[\]{}#&*!|>'"%@`]/;

function outside(): never {
  throw new OutsideSubset();
}

/** The value of a scalar's text by the core schema (integers and floats alike), or a string. */
function scalarValue(text: string): unknown {
  if (NUMBER.test(text)) return Number(text);
  if (NULL.test(text)) return null;
  if (BOOLEAN.test(text)) return text.toLowerCase() === 'true';
  if (INFINITY.test(text)) return text.startsWith('-') ? -Infinity : Infinity;
  if (NAN.test(text)) return NaN;
  if (BASED_INTEGER.test(text)) outside();
  if (text.startsWith("'")) {
    const inner = text.slice(1, -1);
    if (text.length < 2 || !text.endsWith("'") || inner.replaceAll("''", '').includes("'")) {
      outside();
    }
    return inner.replaceAll("''", "'");
  }
  if (text.startsWith('"')) {
    const inner = text.slice(1, -1);
    if (text.length < 2 || !text.endsWith('"') || inner.includes('"') || inner.includes('\\')) {
      outside();
    }
    return inner;
  }
  if (PLAIN_START.test(text) || text.includes(': ') || text.endsWith(':')) outside();
  return text;
}

function splitLines(text: string): Line[] {
  if (text.includes('\t') || text.includes('\r')) outside();
  const result: Line[] = [];
  let afterGap = false;
  text.split('\n').forEach((raw, i) => {
    const content = raw.trimEnd();
    const body = content.trimStart();
    if (body === '' || body.startsWith('#')) {
      afterGap = true;
      return;
    }
    const indent = content.length - body.length;
    if (body.includes('#') || (indent === 0 && /^(?:---|\.\.\.|%)/.test(body))) outside();
    result.push({ line: i + 1, indent, content: body, afterGap });
    afterGap = false;
  });
  return result;
}

function isItem(content: string): boolean {
  return content === '-' || content.startsWith('- ');
}

/** Reads nodes from the lines, keeping the position of the next unread line. */
class BlockReader {
  private next = 0;

  constructor(private readonly lines: Line[]) {}

  get done(): boolean {
    return this.next >= this.lines.length;
  }

  private peek(): Line | undefined {
    return this.lines.at(this.next);
  }

  /** A mapping or sequence starting at the next line, whose indentation is `indent`. */
  node(indent: number): YamlNode {
    const line = this.peek() ?? outside();
    return isItem(line.content) ? this.sequence(indent) : this.mapping(indent);
  }

  private sequence(indent: number): YamlSequence {
    const items: YamlNode[] = [];
    const first = this.peek() ?? outside();
    for (
      let line = this.peek();
      line?.indent === indent && isItem(line.content);
      line = this.peek()
    ) {
      const rest = line.content.slice(1).trimStart();
      if (rest === '' || isItem(rest)) outside();
      if (KEY.test(rest)) {
        // `- key: …`: a mapping whose first entry shares the item's line.
        const inner = indent + line.content.length - rest.length;
        this.lines[this.next] = { line: line.line, indent: inner, content: rest, afterGap: false };
        items.push(this.mapping(inner));
      } else {
        this.next += 1;
        items.push(this.scalar(rest, indent, line.line));
      }
    }
    this.expectShallower(indent);
    return { kind: 'sequence', items, line: first.line };
  }

  private mapping(indent: number): YamlMapping {
    const entries: YamlEntry[] = [];
    const keys = new Set<string>();
    const first = this.peek() ?? outside();
    for (
      let line = this.peek();
      line?.indent === indent && !isItem(line.content);
      line = this.peek()
    ) {
      const [, key, inline] = KEY.exec(line.content) ?? outside();
      if (keys.has(key) || NULL.test(key) || BOOLEAN.test(key)) outside();
      keys.add(key);
      this.next += 1;
      entries.push({ key, keyLine: line.line, value: this.value(indent, inline, line.line) });
    }
    this.expectShallower(indent);
    return { kind: 'mapping', entries, line: first.line };
  }

  /**
   * The value of a key at `indent`: inline, a nested block, a sequence at the same
   * indentation, or null.
   */
  private value(indent: number, inline: string | undefined, line: number): YamlNode {
    if (inline !== undefined) return this.scalar(inline, indent, line);
    const next = this.peek();
    if (next !== undefined && next.indent > indent) return this.node(next.indent);
    if (next?.indent === indent && isItem(next.content)) return this.sequence(indent);
    return { kind: 'scalar', value: null, line };
  }

  /** A scalar; a plain one continues on deeper lines, folded with single spaces. */
  private scalar(inline: string, indent: number, line: number): YamlScalar {
    let text = inline;
    for (let next = this.peek(); next !== undefined && next.indent > indent; next = this.peek()) {
      const continues = !next.afterGap && !/^['"]/.test(inline) && !isItem(next.content);
      if (!continues || next.content.includes(': ')) outside();
      text += ` ${next.content}`;
      this.next += 1;
    }
    return { kind: 'scalar', value: scalarValue(text), line };
  }

  /** After a block at `indent`, the next line must not be deeper. */
  private expectShallower(indent: number): void {
    const line = this.peek();
    if (line !== undefined && line.indent > indent) outside();
  }
}

/**
 * Parses `text` if it is in the simple block subset described above.
 *
 * @returns the top-level node (undefined for a text without content), or undefined when the text
 *   must be read by the general parser
 */
export function parseSimpleYaml(text: string): { root: YamlNode | undefined } | undefined {
  try {
    const lines = splitLines(text);
    const first = lines.at(0);
    if (first === undefined) return { root: undefined };
    if (first.indent !== 0) return undefined;
    const reader = new BlockReader(lines);
    const root = reader.node(0);
    return reader.done ? { root } : undefined;
  } catch (error) {
    if (error instanceof OutsideSubset) return undefined;
    throw error;
  }
}
