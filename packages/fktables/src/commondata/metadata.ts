import { OBSERVABLE_OPERATIONS, type ObservableOperation } from '@partonfit/core';
import type { TheoryMetadata } from './commondata.js';
import type { YamlMapping, YamlNode } from './yaml-node.js';
import { joinKey, type YamlSource } from './yaml-source.js';

/**
 * The `metadata.yaml` of a commondata set folder: the set, and per implemented observable the
 * files and theory that make a dataset, with the variants that replace some of them.
 *
 * @packageDocumentation
 */

/** What a variant replaces (upstream `Variant`): uncertainty files, central data, theory, experiment. */
export interface VariantMetadata {
  /** Replacement uncertainty files. */
  readonly dataUncertainties?: readonly string[];
  /** Replacement central-data file. */
  readonly dataCentral?: string;
  /** Replacement theory block. */
  readonly theory?: TheoryMetadata;
  /** Replacement experiment name (upstream uses it for the `_dw` deuteron variants). */
  readonly experiment?: string;
}

/** One entry of `implemented_observables`, with a variant possibly applied. */
export interface ObservableMetadata {
  /** `observable_name`. */
  readonly observableName: string;
  /** `process_type`, upper case. */
  readonly processType: string;
  /** `ndata`, the number of points every data file must have. */
  readonly ndata: number;
  /** The kinematic variables in column order, padded to three (see {@link paddedCoverage}). */
  readonly kinematicCoverage: readonly [string, string, string];
  /** `kinematics.file`, relative to the set folder. */
  readonly kinematicsFile: string;
  /** The central-data file, relative to the set folder (absent for positivity/integrability). */
  readonly dataCentral: string | undefined;
  /** The uncertainty files, relative to the set folder, whose columns are concatenated. */
  readonly dataUncertainties: readonly string[];
  /** The `theory` block. */
  readonly theory: TheoryMetadata | undefined;
  /** The set's `nnpdf_metadata.experiment`, or the variant's. */
  readonly experiment: string | undefined;
  /** The set's `nnpdf_metadata.nnpdf31_process`. */
  readonly nnpdf31Process: string | undefined;
  /** The variants by name. */
  readonly variants: ReadonlyMap<string, VariantMetadata>;
  /** The applied variant, if any. */
  readonly variant: string | undefined;
  /** The metadata line of the observable's entry, for messages. */
  readonly line: number | undefined;
}

/** The set-level content of a `metadata.yaml`. */
export interface SetMetadata {
  /** `setname`. */
  readonly setName: string;
  /** `nnpdf_metadata.experiment`. */
  readonly experiment: string | undefined;
  /** `nnpdf_metadata.nnpdf31_process`. */
  readonly nnpdf31Process: string | undefined;
  /** The observable names, in file order. */
  readonly observableNames: readonly string[];
  /**
   * Parses the observable `name` (compared case-insensitively, as upstream does), undefined when
   * the set has no such observable.
   */
  readonly observable: (name: string) => ObservableMetadata | undefined;
}

/**
 * Reads the set metadata; observables are parsed when asked for.
 *
 * @throws InputFileError - naming the line and key of anything malformed
 */
export function parseSetMetadata(source: YamlSource): SetMetadata {
  const root = source.map(source.root, '');
  const setName = source.text(source.required(root, 'setname', ''), 'setname');
  const nnpdfMetadata = source.get(root, 'nnpdf_metadata');
  const nnpdf =
    nnpdfMetadata === undefined || source.isNull(nnpdfMetadata)
      ? undefined
      : source.map(nnpdfMetadata, 'nnpdf_metadata');
  const experiment =
    nnpdf === undefined ? undefined : optionalText(source, nnpdf, 'experiment', 'nnpdf_metadata');
  const nnpdf31Process =
    nnpdf === undefined
      ? undefined
      : optionalText(source, nnpdf, 'nnpdf31_process', 'nnpdf_metadata');
  const list = source.seq(
    source.required(root, 'implemented_observables', ''),
    'implemented_observables',
  ).items;
  const entries = list.map((node, i) => {
    const keyPath = `implemented_observables[${i}]`;
    const entry = source.map(node, keyPath);
    const name = source.text(
      source.required(entry, 'observable_name', keyPath),
      `${keyPath}.observable_name`,
    );
    return { name, entry, keyPath };
  });
  return {
    setName,
    experiment,
    nnpdf31Process,
    observableNames: entries.map((entry) => entry.name),
    observable: (name) => {
      const found = entries.find((entry) => entry.name.toUpperCase() === name.toUpperCase());
      return found === undefined
        ? undefined
        : parseObservable(source, found.entry, found.keyPath, { experiment, nnpdf31Process });
    },
  };
}

function parseObservable(
  source: YamlSource,
  entry: YamlMapping,
  keyPath: string,
  set: Pick<SetMetadata, 'experiment' | 'nnpdf31Process'>,
): ObservableMetadata {
  const key = (name: string) => joinKey(keyPath, name);
  const ndataNode = source.required(entry, 'ndata', keyPath);
  const ndata = source.number(ndataNode, () => key('ndata'));
  if (!Number.isInteger(ndata) || ndata < 1) {
    source.fail(ndataNode.line, key('ndata'), `expected a positive integer, got ${ndata}`);
  }
  const kinematics = source.map(source.required(entry, 'kinematics', keyPath), key('kinematics'));
  const variablesNode = source.required(kinematics, 'variables', key('kinematics'));
  const variables = source
    .entries(source.map(variablesNode, key('kinematics.variables')), key('kinematics.variables'))
    .map(([name]) => name);
  const coverageNode = source.required(entry, 'kinematic_coverage', keyPath);
  const coverage = source.texts(coverageNode, key('kinematic_coverage'));
  if (coverage.length > 3 || coverage.length === 0) {
    source.fail(
      coverageNode.line,
      key('kinematic_coverage'),
      `expected 1 to 3 variables, got ${coverage.length}`,
    );
  }
  const dataCentralNode = source.get(entry, 'data_central');
  const theoryNode = source.get(entry, 'theory');
  const variantsNode = source.get(entry, 'variants');
  return {
    observableName: source.text(
      source.required(entry, 'observable_name', keyPath),
      key('observable_name'),
    ),
    processType: source
      .text(source.required(entry, 'process_type', keyPath), key('process_type'))
      .toUpperCase(),
    ndata,
    kinematicCoverage: paddedCoverage(coverage, variables),
    kinematicsFile: source.text(
      source.required(kinematics, 'file', key('kinematics')),
      key('kinematics.file'),
    ),
    dataCentral: source.isNull(dataCentralNode)
      ? undefined
      : source.text(dataCentralNode, key('data_central')),
    dataUncertainties: uncertaintyFiles(
      source,
      source.get(entry, 'data_uncertainties'),
      key('data_uncertainties'),
    ),
    theory: source.isNull(theoryNode) ? undefined : parseTheory(source, theoryNode, key('theory')),
    experiment: set.experiment,
    nnpdf31Process: set.nnpdf31Process,
    variants: source.isNull(variantsNode)
      ? new Map()
      : parseVariants(source, variantsNode, key('variants')),
    variant: undefined,
    line: entry.line,
  };
}

/**
 * The kinematic variables padded to three, as validphys expects: first declared variables not
 * in the coverage, then `extra_0`, `extra_1` (whose values repeat the last variable of a bin).
 */
export function paddedCoverage(
  coverage: readonly string[],
  variables: readonly string[],
): [string, string, string] {
  const padded = [...coverage];
  for (const name of variables) {
    if (padded.length < 3 && !padded.includes(name)) padded.push(name);
  }
  for (let i = 0; padded.length < 3; i++) padded.push(`extra_${i}`);
  return [padded[0], padded[1], padded[2]];
}

function uncertaintyFiles(
  source: YamlSource,
  node: YamlNode | undefined,
  keyPath: string,
): string[] {
  return source.isNull(node) ? [] : source.texts(node, keyPath);
}

function optionalText(
  source: YamlSource,
  map: YamlMapping,
  name: string,
  keyPath: string,
): string | undefined {
  const node = source.get(map, name);
  return source.isNull(node) ? undefined : source.text(node, joinKey(keyPath, name));
}

/**
 * Parses a `theory` block: `FK_tables` (list of lists), `operation` (case-insensitive, null →
 * NULL), `conversion_factor` (default 1), `shifts`, `normalization`.
 */
export function parseTheory(
  source: YamlSource,
  node: YamlNode | undefined,
  keyPath: string,
): TheoryMetadata {
  const theory = source.map(node, keyPath);
  const key = (name: string) => joinKey(keyPath, name);
  const tablesNode = source.required(theory, 'FK_tables', keyPath);
  const fkTables = source
    .seq(tablesNode, key('FK_tables'))
    .items.map((operand, i) => source.texts(operand, `${key('FK_tables')}[${i}]`));
  if (fkTables.length === 0 || fkTables.some((operand) => operand.length === 0)) {
    source.fail(tablesNode.line, key('FK_tables'), 'expected non-empty lists of FK-table names');
  }
  const operationNode = source.get(theory, 'operation');
  const operationText = source.isNull(operationNode)
    ? 'NULL'
    : source.text(operationNode, key('operation')).toUpperCase();
  if (!(OBSERVABLE_OPERATIONS as readonly string[]).includes(operationText)) {
    source.fail(
      operationNode?.line,
      key('operation'),
      `unknown operation '${operationText}', expected one of ${OBSERVABLE_OPERATIONS.join(', ')}`,
    );
  }
  const factorNode = source.get(theory, 'conversion_factor');
  const shifts = numberRecord(source, source.get(theory, 'shifts'), key('shifts'));
  const normalization = numberRecord(
    source,
    source.get(theory, 'normalization'),
    key('normalization'),
  );
  return {
    fkTables,
    operation: operationText as ObservableOperation,
    conversionFactor: source.isNull(factorNode)
      ? 1
      : source.number(factorNode, () => key('conversion_factor')),
    ...(shifts === undefined ? {} : { shifts }),
    ...(normalization === undefined ? {} : { normalization }),
  };
}

function numberRecord(
  source: YamlSource,
  node: YamlNode | undefined,
  keyPath: string,
): Record<string, number> | undefined {
  if (source.isNull(node)) return undefined;
  const record: Record<string, number> = {};
  for (const [name, value] of source.entries(source.map(node, keyPath), keyPath)) {
    record[name] = source.number(value, () => joinKey(keyPath, name));
  }
  return record;
}

function parseVariants(
  source: YamlSource,
  node: YamlNode | undefined,
  keyPath: string,
): Map<string, VariantMetadata> {
  const variants = new Map<string, VariantMetadata>();
  for (const [name, value] of source.entries(source.map(node, keyPath), keyPath)) {
    const variantPath = joinKey(keyPath, name);
    const variant = source.map(value, variantPath);
    const uncertainties = source.get(variant, 'data_uncertainties');
    const central = source.get(variant, 'data_central');
    const theory = source.get(variant, 'theory');
    const experiment = source.get(variant, 'experiment');
    variants.set(name, {
      ...(source.isNull(uncertainties)
        ? {}
        : {
            dataUncertainties: source.texts(
              uncertainties,
              joinKey(variantPath, 'data_uncertainties'),
            ),
          }),
      ...(source.isNull(central)
        ? {}
        : { dataCentral: source.text(central, joinKey(variantPath, 'data_central')) }),
      ...(source.isNull(theory)
        ? {}
        : { theory: parseTheory(source, theory, joinKey(variantPath, 'theory')) }),
      ...(source.isNull(experiment)
        ? {}
        : { experiment: source.text(experiment, joinKey(variantPath, 'experiment')) }),
    });
  }
  return variants;
}

/** The observable with `variant` applied: its replacements take the place of the base entries. */
export function applyVariant(
  observable: ObservableMetadata,
  name: string,
  variant: VariantMetadata,
): ObservableMetadata {
  return {
    ...observable,
    dataUncertainties: variant.dataUncertainties ?? observable.dataUncertainties,
    dataCentral: variant.dataCentral ?? observable.dataCentral,
    theory: variant.theory ?? observable.theory,
    experiment: variant.experiment ?? observable.experiment,
    variant: name,
  };
}
