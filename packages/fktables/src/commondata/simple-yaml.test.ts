import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import { parseSimpleYaml } from './simple-yaml.js';
import type { YamlNode } from './yaml-node.js';

/** The plain JavaScript value of a node (mappings become objects). */
function plainValue(node: YamlNode | undefined): unknown {
  if (node === undefined) return null;
  if (node.kind === 'scalar') return node.value;
  if (node.kind === 'sequence') return node.items.map(plainValue);
  return Object.fromEntries(
    node.entries.map((entry) => [String(entry.key), plainValue(entry.value)]),
  );
}

/** The plain value of what the fast reader read, or `OUTSIDE` when it declined. */
function simpleValue(text: string): unknown {
  const parsed = parseSimpleYaml(text);
  return parsed === undefined ? 'OUTSIDE' : plainValue(parsed.root);
}

/** The value the general `yaml` parser gives. */
function generalValue(text: string): unknown {
  return parseDocument(text).toJS() as unknown;
}

describe('parseSimpleYaml', () => {
  it('should read block mappings, sequences and core-schema scalars as the general parser does', () => {
    const text = `# a comment
definitions:
  stat:
    description: Statistical uncertainty.
    treatment: ADD
    quoted: 'Sys uncertainty idx: 1, it''s'
    double: "plain text"
  empty:
bins:
- stat: 0.01
  other: -1.5e-03
- stat: .nan
  other: -.inf
  flag: true
  none: ~
  big: 12
numbers:
- 1
- +2.
- .5
- 1_000
- key:value
nested:
  inner:
  - a
  - b
  description: Artificial uncertainty 1, corresponding to a covmat in eigenvector
    basis
  after: 1
`;
    expect(simpleValue(text)).toEqual(generalValue(text));
    expect(simpleValue(text)).not.toBe('OUTSIDE');
  });

  it('should keep the lines of keys and values', () => {
    const root = parseSimpleYaml('a:\n  b: 1\n\nc:\n- 2\n- x: 3\n  y: 4\n')?.root;
    if (root?.kind !== 'mapping') throw new Error('expected a mapping');
    expect(root.entries.map(({ keyLine }) => keyLine)).toEqual([1, 4]);
    const list = root.entries[1].value;
    if (list.kind !== 'sequence') throw new Error('expected a list');
    expect(list.items.map(({ line }) => line)).toEqual([5, 6]);
    const item = list.items[1];
    expect(item.kind === 'mapping' && item.entries.map(({ keyLine }) => keyLine)).toEqual([6, 7]);
  });

  it('should leave everything else to the general parser', () => {
    const texts = [
      'a: {b: 1}\n',
      'a: [1, 2]\n',
      'a: &x 1\nb: *x\n',
      'a: !!str 1\n',
      'a: |\n  text\n',
      'a: long\n\n  continued after a blank line\n',
      "a: 'quoted\n  continued'\n",
      'a: long\n  b: 1\n',
      'a: 1 # comment\n',
      'a: 1\na: 2\n',
      'a:\n\t- 1\n',
      '---\na: 1\n',
      'a: "escaped \\n"\n',
      'a: 0x1F\n',
      '- - 1\n',
      'a: b: c\n',
      'null: 1\n',
    ];
    expect(texts.filter((text) => parseSimpleYaml(text) !== undefined)).toEqual([]);
  });
});

const hasShared = hasSharedData('commondata/HERA_NC_318GEV/metadata.yaml', 'real commondata');

/** Every YAML file under the shared commondata folder. */
function yamlFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return name === 'rawdata' ? [] : yamlFiles(path);
    return /\.ya?ml$/.test(name) ? [path] : [];
  });
}

describe.skipIf(!hasShared)('parseSimpleYaml on the real commondata files', () => {
  it('should read every data, kinematics and uncertainties file exactly as the general parser', () => {
    const files = yamlFiles(join(SHARED_DATA, 'commondata'));
    const isDataFile = (file: string) => /\/(data|kinematics|uncertainties)[^/]*\.yaml$/.test(file);
    const values = files.map((file) => {
      const text = readFileSync(file, 'utf8');
      return { file, simple: simpleValue(text), general: generalValue(text) };
    });
    const read = values.filter(({ simple }) => simple !== 'OUTSIDE');
    expect(
      values
        .filter(({ file, simple }) => isDataFile(file) && simple === 'OUTSIDE')
        .map(({ file }) => file),
    ).toEqual([]);
    expect(
      read
        .filter(({ simple, general }) => !isDeepStrictEqual(simple, general))
        .map(({ file }) => file),
    ).toEqual([]);
    expect(read.length).toBeGreaterThan(60);
  });
});
