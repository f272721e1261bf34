import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { closeNames, InputFileError } from '@partonfit/core';
import { requiresPositivePseudodata, type CommonData, type DatasetKind } from './commondata.js';
import { readCentralValues, readKinematics, readUncertainties } from './data-files.js';
import { DATASET_NAMES_FILE, readLegacyNames } from './dataset-names.js';
import { applyVariant, parseSetMetadata, type ObservableMetadata } from './metadata.js';
import { YamlSource } from './yaml-source.js';

/** Options of {@link loadCommonData}. */
export interface LoadCommonDataOptions {
  /**
   * The variant to apply (e.g. `legacy`, `legacy_dw`): it replaces the uncertainty files, the
   * central data, the theory or the experiment of the observable. Takes precedence over the
   * variant a legacy name maps to.
   */
  readonly variant?: string;
}

/** The set folder, observable and variant a dataset name stands for. */
interface ResolvedName {
  readonly setName: string;
  readonly observableName: string;
  readonly variant: string | undefined;
  readonly legacyName: string | undefined;
}

/** `<SET>_<OBSERVABLE>` split at the last underscore, as validphys does. */
function splitDatasetName(
  dataset: string,
): { setName: string; observableName: string } | undefined {
  const cut = dataset.lastIndexOf('_');
  if (cut <= 0 || cut === dataset.length - 1) return undefined;
  return { setName: dataset.slice(0, cut), observableName: dataset.slice(cut + 1) };
}

function metadataFileOf(commondataFolder: string, setName: string): string {
  return join(commondataFolder, setName, 'metadata.yaml');
}

/**
 * Every dataset name of a commondata folder (`<SET>_<OBSERVABLE>`, read cheaply from the
 * metadata text), for suggestions.
 */
function knownDatasetNames(commondataFolder: string): string[] {
  const names: string[] = [];
  for (const setName of readdirSync(commondataFolder)) {
    const file = metadataFileOf(commondataFolder, setName);
    if (!existsSync(file)) continue;
    for (const match of readFileSync(file, 'utf8').matchAll(
      /observable_name:\s*["']?([^"'\s#]+)/g,
    )) {
      names.push(`${setName}_${match[1]}`);
    }
  }
  return names;
}

async function resolveDatasetName(
  commondataFolder: string,
  dataset: string,
  variant: string | undefined,
): Promise<ResolvedName> {
  const direct = splitDatasetName(dataset);
  if (direct !== undefined && existsSync(metadataFileOf(commondataFolder, direct.setName))) {
    return { ...direct, variant, legacyName: undefined };
  }
  if (!existsSync(commondataFolder)) {
    throw new InputFileError({ file: commondataFolder, problem: 'commondata folder not found' });
  }
  const legacyNames = await readLegacyNames(commondataFolder);
  const target = legacyNames.get(dataset);
  const split = target === undefined ? undefined : splitDatasetName(target.dataset);
  if (target !== undefined && split !== undefined) {
    if (!existsSync(metadataFileOf(commondataFolder, split.setName))) {
      throw new InputFileError({
        file: join(commondataFolder, DATASET_NAMES_FILE),
        key: dataset,
        problem: `legacy name of ${target.dataset}, whose set folder ${split.setName} is not in ${commondataFolder}`,
      });
    }
    return { ...split, variant: variant ?? target.variant, legacyName: dataset };
  }
  const suggestions = closeNames(dataset, [
    ...knownDatasetNames(commondataFolder),
    ...legacyNames.keys(),
  ]);
  throw new InputFileError({
    file: commondataFolder,
    key: dataset,
    problem: `unknown dataset; close names: ${suggestions.join(', ')}`,
  });
}

function kindOfSet(setName: string): DatasetKind {
  if (setName.startsWith('NNPDF_POS')) return 'positivity';
  if (setName.startsWith('NNPDF_INTEG')) return 'integrability';
  return 'data';
}

function selectObservable(
  source: YamlSource,
  resolved: ResolvedName,
  dataset: string,
): ObservableMetadata {
  const set = parseSetMetadata(source);
  const base = set.observable(resolved.observableName);
  if (base === undefined) {
    throw new InputFileError({
      file: source.file,
      key: 'implemented_observables',
      problem: `no observable '${resolved.observableName}' (dataset ${dataset}); the set has ${set.observableNames.join(', ')}`,
    });
  }
  if (resolved.variant === undefined) return base;
  const variant = base.variants.get(resolved.variant);
  if (variant === undefined) {
    const available = [...base.variants.keys()];
    throw new InputFileError({
      file: source.file,
      line: base.line,
      key: `${set.setName}_${base.observableName}.variants`,
      problem: `unknown variant '${resolved.variant}'; available: ${available.length > 0 ? available.join(', ') : 'none'}`,
    });
  }
  return applyVariant(base, resolved.variant, variant);
}

/**
 * Loads one dataset of NNPDF's current commondata format from a folder of set folders
 * (`<commondataFolder>/<SET>/metadata.yaml`, `data_*.yaml`, `kinematics_*.yaml`,
 * `uncertainties_*.yaml`).
 *
 * The dataset name is `<SET>_<OBSERVABLE>` split at the last underscore (e.g.
 * `NNPDF_POS_2P24GEV_XDQ` → set `NNPDF_POS_2P24GEV`, observable `XDQ`); a name that is not found
 * so is looked up in `<commondataFolder>/dataset_names.yml` (legacy name → current name and
 * variant, e.g. `HERACOMBCCEM` → `HERA_CC_318GEV_EM-SIGMARED`, variant `legacy`).
 *
 * Positivity and integrability sets (`NNPDF_POS_*`, `NNPDF_INTEG_*`) have zero central values
 * and no uncertainties. Every other set needs central data and at least one uncertainty file,
 * which some sets (e.g. SLAC, BCDMS) only define in a variant.
 *
 * @param commondataFolder - the folder holding the set folders (and `dataset_names.yml`)
 * @param dataset - a dataset name, current or legacy
 * @throws InputFileError - naming the file, line and key of the problem: unknown dataset (with
 *   close names), observable or variant (with the available ones), missing files, counts that
 *   disagree with the metadata's `ndata`, non-numbers or NaN, uncertainty values whose name is
 *   not defined, a `stat` uncertainty that is not ADD/UNCORR
 */
export async function loadCommonData(
  commondataFolder: string,
  dataset: string,
  options: LoadCommonDataOptions = {},
): Promise<CommonData> {
  const resolved = await resolveDatasetName(commondataFolder, dataset, options.variant);
  const setFolder = join(commondataFolder, resolved.setName);
  const metadataSource = await YamlSource.read(
    metadataFileOf(commondataFolder, resolved.setName),
    'set metadata',
  );
  const observable = selectObservable(metadataSource, resolved, dataset);
  const name = `${resolved.setName}_${observable.observableName}`;
  const special = resolved.setName.startsWith('NNPDF');
  const { ndata } = observable;

  const missing = (what: string) =>
    new InputFileError({
      file: metadataSource.file,
      line: observable.line,
      key: name,
      problem: `${what}${observable.variants.size > 0 ? `; choose a variant: ${[...observable.variants.keys()].join(', ')}` : ''}`,
    });
  if (!special && observable.dataCentral === undefined) throw missing('no data_central');
  if (!special && observable.dataUncertainties.length === 0) throw missing('no data_uncertainties');

  const kinematicsFile = join(setFolder, observable.kinematicsFile);
  const dataFile =
    special || observable.dataCentral === undefined
      ? undefined
      : join(setFolder, observable.dataCentral);
  const uncertaintyFiles = special
    ? []
    : observable.dataUncertainties.map((file) => join(setFolder, file));
  const [kinematicsSource, dataSource, ...uncertaintySources] = await Promise.all([
    YamlSource.read(kinematicsFile, 'kinematics'),
    dataFile === undefined ? undefined : YamlSource.read(dataFile, 'central data'),
    ...uncertaintyFiles.map((file) => YamlSource.read(file, 'uncertainties')),
  ]);
  const central =
    dataSource === undefined ? new Float64Array(ndata) : readCentralValues(dataSource, ndata);
  const variables = observable.kinematicCoverage;
  const uncertainties = uncertaintySources.flatMap((source) => readUncertainties(source, central));
  return {
    name,
    setName: resolved.setName,
    observableName: observable.observableName,
    variant: observable.variant,
    legacyName: resolved.legacyName,
    processType: observable.processType,
    kind: kindOfSet(resolved.setName),
    experiment: observable.experiment,
    nnpdf31Process: observable.nnpdf31Process,
    ndata,
    central,
    kinematics: { variables, values: readKinematics(kinematicsSource, variables, ndata) },
    uncertainties,
    theory: observable.theory,
    positivityRequired: requiresPositivePseudodata(observable.processType),
    pointIndices: Uint32Array.from({ length: ndata }, (_, i) => i),
    files: [
      metadataSource.file,
      ...(dataFile === undefined ? [] : [dataFile]),
      kinematicsFile,
      ...uncertaintyFiles,
    ],
  };
}
