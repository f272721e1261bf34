import type { Uncertainty, UncertaintyTreatment } from './commondata.js';
import type { YamlNode } from './yaml-node.js';
import { joinKey, type YamlSource } from './yaml-source.js';

/**
 * Readers of the three kinds of data file of a YAML commondata set: `data_*.yaml`,
 * `kinematics_*.yaml` and `uncertainties_*.yaml`. Each checks the number of points against the
 * metadata's `ndata` and names the line of any bad entry.
 *
 * @packageDocumentation
 */

function checkCount(
  source: YamlSource,
  node: YamlNode,
  keyPath: string,
  count: number,
  ndata: number,
): void {
  if (count !== ndata) {
    source.fail(node.line, keyPath, `has ${count} points, but the metadata says ndata = ${ndata}`);
  }
}

/**
 * The central values of a `data_*.yaml` (`data_central: [numbers]`), shape `(data)`.
 *
 * @throws InputFileError - for a missing key, a non-number or NaN, or a count other than ndata
 */
export function readCentralValues(source: YamlSource, ndata: number): Float64Array {
  const root = source.map(source.root, '');
  const node = source.required(root, 'data_central', '');
  const values = source.numbers(node, 'data_central');
  checkCount(source, node, 'data_central', values.length, ndata);
  return values;
}

/**
 * The mid values of the `variables` of each bin of a `kinematics_*.yaml`, row-major
 * `(data, variables)`. A null `mid` is (min + max)/2; a variable named `extra_<i>` repeats the
 * last variable of its bin (as validphys pads the kinematics to three).
 *
 * @throws InputFileError - for a missing variable, non-numbers, or a count other than ndata
 */
export function readKinematics(
  source: YamlSource,
  variables: readonly string[],
  ndata: number,
): Float64Array {
  const root = source.map(source.root, '');
  const binsNode = source.required(root, 'bins', '');
  const bins = source.seq(binsNode, 'bins').items;
  checkCount(source, binsNode, 'bins', bins.length, ndata);
  const values = new Float64Array(ndata * variables.length);
  bins.forEach((binNode, i) => {
    const binPath = `bins[${i}]`;
    const entries = source.entries(source.map(binNode, binPath), binPath);
    variables.forEach((name, v) => {
      const entry =
        entries.find(([given]) => given === name) ??
        (name.startsWith('extra_') ? entries.at(-1) : undefined);
      if (entry === undefined) {
        source.fail(binNode.line, binPath, `missing kinematic variable '${name}'`);
      }
      values[i * variables.length + v] = midValue(source, entry[1], joinKey(binPath, entry[0]));
    });
  });
  return values;
}

function midValue(source: YamlSource, node: YamlNode | undefined, keyPath: string): number {
  const entry = source.map(node, keyPath);
  const mid = source.get(entry, 'mid');
  if (!source.isNull(mid)) return source.number(mid, () => joinKey(keyPath, 'mid'));
  const min = source.get(entry, 'min');
  const max = source.get(entry, 'max');
  if (source.isNull(min) || source.isNull(max)) {
    source.fail(entry.line, keyPath, 'mid is null and min or max is missing');
  }
  return (
    0.5 *
    (source.number(min, () => joinKey(keyPath, 'min')) +
      source.number(max, () => joinKey(keyPath, 'max')))
  );
}

const TREATMENTS: readonly string[] = ['ADD', 'MULT'];

/**
 * The uncertainties of an `uncertainties_*.yaml`: `definitions` (name → treatment, type) in file
 * order, with per bin one absolute value for every definition. MULT uncertainties also get their
 * value relative to `central`.
 *
 * @throws InputFileError - for a bin value whose name is not in `definitions` or a definition a
 *   bin lacks, non-numbers, a treatment other than ADD/MULT, a `stat` column that is not
 *   ADD/UNCORR, a count other than ndata, or a MULT value on a zero central value or too large
 *   to divide by it
 */
export function readUncertainties(source: YamlSource, central: Float64Array): Uncertainty[] {
  const ndata = central.length;
  const root = source.map(source.root, '');
  const definitionsNode = source.required(root, 'definitions', '');
  const definitions = source
    .entries(source.map(definitionsNode, 'definitions'), 'definitions')
    .map(([name, node, keyLine]) => {
      const keyPath = joinKey('definitions', name);
      const definition = source.map(node, keyPath);
      const treatmentNode = source.required(definition, 'treatment', keyPath);
      const treatment = source.text(treatmentNode, joinKey(keyPath, 'treatment'));
      if (!TREATMENTS.includes(treatment)) {
        source.fail(
          treatmentNode.line,
          joinKey(keyPath, 'treatment'),
          `expected ADD or MULT, got '${treatment}'`,
        );
      }
      const type = source.text(
        source.required(definition, 'type', keyPath),
        joinKey(keyPath, 'type'),
      );
      if (name.toLowerCase() === 'stat' && (treatment !== 'ADD' || type !== 'UNCORR')) {
        source.fail(
          keyLine,
          keyPath,
          `a statistical uncertainty must be ADD/UNCORR, got ${treatment}/${type}`,
        );
      }
      return { name, treatment: treatment as UncertaintyTreatment, type };
    });
  const column = new Map(definitions.map((definition, k) => [definition.name, k]));
  const binsNode = source.required(root, 'bins', '');
  const bins = source.seq(binsNode, 'bins').items;
  checkCount(source, binsNode, 'bins', bins.length, ndata);
  const values = definitions.map(() => new Float64Array(ndata));
  const relative = definitions.map((definition) =>
    definition.treatment === 'MULT' ? new Float64Array(ndata) : undefined,
  );
  bins.forEach((binNode, i) => {
    const binPath = `bins[${i}]`;
    const entries = source.entries(source.map(binNode, binPath), binPath);
    for (const [name, node, keyLine] of entries) {
      const k = column.get(name);
      if (k === undefined) source.fail(keyLine, joinKey(binPath, name), 'not in definitions');
      const value = source.number(node, () => joinKey(binPath, name));
      values[k][i] = value;
      const fraction = relative[k];
      if (fraction === undefined || value === 0) continue;
      if (central[i] === 0) {
        source.fail(
          node.line,
          joinKey(binPath, name),
          'a MULT uncertainty of a zero central value has no relative size',
        );
      }
      fraction[i] = value / central[i];
      if (!Number.isFinite(fraction[i])) {
        source.fail(
          node.line,
          joinKey(binPath, name),
          `${value} is too large relative to the central value ${central[i]}`,
        );
      }
    }
    if (entries.length !== definitions.length) {
      const given = new Set(entries.map(([name]) => name));
      const missing = definitions.find((definition) => !given.has(definition.name));
      source.fail(binNode.line, binPath, `no value for '${missing?.name ?? '?'}'`);
    }
  });
  return definitions.map((definition, k) => {
    const fraction = relative[k];
    return fraction === undefined
      ? { ...definition, values: values[k] }
      : { ...definition, values: values[k], relative: fraction };
  });
}
