import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  InputFileError,
  UnsupportedInputError,
  type DatasetInput,
  type ObservableOperation,
} from '@partonfit/core';
import { loadBundle } from '../bundle/bundle.js';
import type { CommonData } from '../commondata/commondata.js';
import { readLegacyNames } from '../commondata/dataset-names.js';
import { loadCommonData } from '../commondata/load-commondata.js';
import { applyPointMask } from '../cuts/apply-point-mask.js';
import { kinematicCutMask, type DisCuts } from '../cuts/kinematic-cuts.js';
import { applyCFactors, loadCFactors } from '../fktable/cfactors.js';
import type { FkTable } from '../fktable/fk-table.js';
import { loadFkTable } from '../fktable/load-fk-table.js';
import { createObservable, observableNdata, type Observable } from '../fktable/observable.js';
import { collapseRepeatedDivisor } from '../fktable/repeated-divisor.js';
import {
  findCFactorFile,
  findTheoryFolder,
  fkTableFileNames,
  loadLegacyObservable,
} from '../fktable/theory-folder.js';
import {
  CLOSURE_DATASET_SPECS,
  closureDatasets,
  closurePositivity,
} from '../closure/closure-datasets.js';
import {
  closureDatasetsAtScale,
  SCALE_VARIED_CLOSURE_SPECS,
  type ScaleVariedClosureDataset,
} from '../closure/scale-varied-closure.js';
import { bundleAsCommonData } from './bundle-commondata.js';
import { cutObservable } from './cut-observable.js';
import { missingSetting, runcardPath, type InputPaths } from './input-paths.js';

/** A dataset ready for the fit: its data (after cuts) and the observable that predicts them. */
export interface ResolvedDataset {
  /** The name the runcard gives. */
  readonly name: string;
  /** The data, uncertainties and kinematics, restricted to the points that pass the cuts. */
  readonly commonData: CommonData;
  /** The observable, restricted to the same points. */
  readonly observable: Observable;
}

/** What a positivity or integrability entry names. */
export interface LagrangeInput {
  readonly dataset: string;
}

/** A table scaled by a factor (commondata's `conversion_factor` × `normalization`). */
function scaleTable(table: FkTable, factor: number): FkTable {
  if (factor === 1) return table;
  return { ...table, values: table.values.map((value) => value * factor) };
}

/** The operands named by `fktables`: a flat list is one operand. */
function operandFiles(fktables: NonNullable<DatasetInput['fktables']>): readonly string[][] {
  const flat = (list: typeof fktables): list is string[] =>
    list.every((entry) => typeof entry === 'string');
  return flat(fktables) ? [fktables] : fktables;
}

async function withCFactors(
  table: FkTable,
  cfac: readonly string[],
  paths: InputPaths,
  dataset: string,
): Promise<FkTable> {
  if (cfac.length === 0) return table;
  const { theories, theoryId } = paths;
  if (theories === undefined) {
    throw missingSetting(paths, 'data_paths.theories', `for the C-factors of ${dataset}`);
  }
  if (theoryId === undefined) {
    throw missingSetting(paths, 'theory.theoryid', `for the C-factors of ${dataset}`);
  }
  const factors = await Promise.all(
    cfac.map(async (name) =>
      loadCFactors(await findCFactorFile(theories, theoryId, name, table.name), table.ndata),
    ),
  );
  return applyCFactors(table, factors);
}

/** The observable of an entry that lists its FK-table files. */
async function explicitObservable(
  input: DatasetInput,
  fktables: NonNullable<DatasetInput['fktables']>,
  paths: InputPaths,
): Promise<Observable> {
  const operands = await Promise.all(
    operandFiles(fktables).map((files) =>
      Promise.all(
        files.map(async (file) =>
          withCFactors(
            await loadFkTable(runcardPath(paths, file)),
            input.cfac,
            paths,
            input.dataset,
          ),
        ),
      ),
    ),
  );
  const operation: ObservableOperation = input.operation ?? 'NULL';
  return createObservable(input.dataset, operation, operands);
}

/** Legacy set names a dataset may have in a legacy theory folder, most specific first. */
async function legacyCandidates(
  dataset: string,
  commonData: CommonData | undefined,
  commondataFolder: string | undefined,
): Promise<string[]> {
  const candidates = [commonData?.legacyName, dataset];
  if (commonData !== undefined && commondataFolder !== undefined) {
    for (const [legacy, target] of await readLegacyNames(commondataFolder)) {
      if (target.dataset === commonData.name) candidates.push(legacy);
    }
  }
  return [...new Set(candidates.filter((name): name is string => name !== undefined))];
}

/** The observable of a dataset found by name in the theory folder. */
async function theoryObservable(
  dataset: string,
  cfac: readonly string[],
  commonData: CommonData | undefined,
  commondataFolder: string | undefined,
  paths: InputPaths,
): Promise<Observable> {
  const { theories, theoryId } = paths;
  if (theories === undefined) {
    throw missingSetting(paths, 'data_paths.theories', `to find the FK tables of ${dataset}`);
  }
  if (theoryId === undefined) {
    throw missingSetting(paths, 'theory.theoryid', `to find the FK tables of ${dataset}`);
  }
  const fastkernel = join(await findTheoryFolder(theories, theoryId), 'fastkernel');
  const candidates = await legacyCandidates(dataset, commonData, commondataFolder);
  const legacy = candidates.find((name) => existsSync(join(fastkernel, `FK_${name}.dat`)));
  if (legacy !== undefined) {
    return loadLegacyObservable(theories, theoryId, legacy, { cfactors: cfac });
  }
  const theory = commonData?.theory;
  const named = theory?.fkTables.flat() ?? [];
  const fileOf = (name: string) =>
    fkTableFileNames(name)
      .map((file) => join(fastkernel, file))
      .find((file) => existsSync(file));
  const files = new Map(named.map((name) => [name, fileOf(name)]));
  if (theory === undefined || [...files.values()].includes(undefined)) {
    const looked = [
      ...candidates.map((name) => `FK_${name}.dat`),
      ...named.flatMap((name) => [`FK_${name}.dat`, `${name}.pineappl.lz4`]),
    ];
    throw new InputFileError({
      file: fastkernel,
      problem: `no FK table for ${dataset}: looked for ${[...new Set(looked)].join(', ')}; \`partonfit get theory ${theoryId}\` downloads NNPDF's whole theory`,
    });
  }
  const shifted = Object.entries(theory.shifts ?? {}).find(([, shift]) => shift !== 0);
  if (shifted !== undefined) {
    throw new UnsupportedInputError({
      file: commonData?.files[0] ?? fastkernel,
      key: `${dataset}.theory.shifts`,
      feature: 'FK-table shifts',
      problem: `${shifted[0]} is shifted by ${shifted[1]} points`,
    });
  }
  const operands = await Promise.all(
    theory.fkTables.map((names) =>
      Promise.all(
        names.map(async (name) => {
          const table = await loadFkTable(files.get(name) ?? fastkernel, { name });
          const factor = theory.conversionFactor * (theory.normalization?.[name] ?? 1);
          return withCFactors(scaleTable(table, factor), cfac, paths, dataset);
        }),
      ),
    ),
  );
  return createObservable(
    dataset,
    theory.operation,
    collapseRepeatedDivisor(theory.operation, operands),
  );
}

/** Options of {@link resolveDataset}. */
export interface ResolveDatasetOptions {
  /**
   * Receives the dataset's data after the kinematic cuts as soon as they are read, before the FK
   * tables (the same object the resolved dataset holds), e.g. to start on the covariance.
   */
  readonly onCommonData?: (commonData: CommonData) => void;
}

/**
 * A runcard dataset entry resolved to data and observable, with the kinematic cuts applied:
 * - `CLOSURE_…`: an embedded closure dataset (the scale-varied ones are cut as DIS data, those
 *   at Q0 never);
 * - `bundle`: the npz bundle holds both (its process type `BUNDLE` is never cut);
 * - otherwise the commondata (from the entry's `commondata` folder or `data_paths.commondata`,
 *   with the entry's `variant`), and the FK tables either from the entry's `fktables` files
 *   (with `operation`) or found by name in `data_paths.theories/theory_<ID>/fastkernel`, trying
 *   the legacy set names of the dataset first (`FK_<SET>.dat`, its COMPOUND file and C-factors
 *   `cfac`), then the tables named by the commondata's theory block (`FK_<NAME>.dat` or
 *   PineAPPL's `<NAME>.pineappl.lz4`, scaled by `conversion_factor` and `normalization`,
 *   combined by `operation`, a zero-filled RATIO divisor kept as its first point; non-zero
 *   `shifts` are refused).
 *
 * @throws RuncardError - when a setting needed to find an input is missing
 * @throws InputFileError - for missing or invalid files, or data and FK tables that disagree
 *   on the number of points
 */
export async function resolveDataset(
  input: DatasetInput,
  paths: InputPaths,
  cuts: DisCuts,
  { onCommonData }: ResolveDatasetOptions = {},
): Promise<ResolvedDataset> {
  const embedded = embeddedDataset(input.dataset, cuts);
  if (embedded !== undefined) {
    onCommonData?.(embedded.commonData);
    return embedded;
  }
  if (input.bundle !== undefined) {
    const bundle = await loadBundle(runcardPath(paths, input.bundle), { name: input.dataset });
    const commonData = bundleAsCommonData(bundle);
    onCommonData?.(commonData);
    return {
      name: input.dataset,
      commonData,
      observable: createObservable(input.dataset, 'NULL', [[bundle.fkTable]]),
    };
  }
  const commondataFolder =
    input.commondata === undefined ? paths.commondata : runcardPath(paths, input.commondata);
  if (commondataFolder === undefined) {
    throw missingSetting(paths, 'data_paths.commondata', `for the data of ${input.dataset}`);
  }
  const options = input.variant === undefined ? {} : { variant: input.variant };
  const commonData = await loadCommonData(commondataFolder, input.dataset, options);
  const cut = onCommonData === undefined ? undefined : earlyCut(commonData, cuts);
  if (cut !== undefined) onCommonData?.(cut.commonData);
  const observable =
    input.fktables === undefined
      ? await theoryObservable(input.dataset, input.cfac, commonData, commondataFolder, paths)
      : await explicitObservable(input, input.fktables, paths);
  return cutDataset(input.dataset, commonData, observable, cuts, cut);
}

/** The kinematic cut of a dataset's points and its data after the cut. */
interface PointCut {
  readonly mask: Uint8Array;
  readonly commonData: CommonData;
}

/**
 * The cut of the data before the FK tables are read, for {@link ResolveDatasetOptions.onCommonData};
 * undefined when the cut fails, so that {@link cutDataset} reports the data's problems in its
 * own order.
 */
function earlyCut(commonData: CommonData, cuts: DisCuts): PointCut | undefined {
  try {
    const mask = kinematicCutMask(commonData, cuts);
    return { mask, commonData: applyPointMask(commonData, mask) };
  } catch {
    return undefined;
  }
}

/**
 * The dataset restricted to the points that pass the cuts, after checking the point counts
 * (`cut`: the cut already made by {@link earlyCut}).
 */
function cutDataset(
  name: string,
  commonData: CommonData,
  observable: Observable,
  cuts: DisCuts,
  cut?: PointCut,
): ResolvedDataset {
  const ndata = observableNdata(observable);
  if (ndata !== commonData.ndata) {
    throw new InputFileError({
      file: commonData.files[0] ?? name,
      key: name,
      problem: `the data have ${commonData.ndata} points but the FK tables predict ${ndata}`,
    });
  }
  const mask = cut?.mask ?? kinematicCutMask(commonData, cuts);
  return {
    name,
    commonData: cut?.commonData ?? applyPointMask(commonData, mask),
    observable: cutObservable(observable, mask),
  };
}

/**
 * The commondata of a positivity or integrability set, or undefined when the commondata folder
 * does not know the name: such a set needs only its FK tables (its data are zero), which the
 * theory folder is then searched for.
 */
async function lagrangeCommonData(
  commondataFolder: string,
  dataset: string,
): Promise<CommonData | undefined> {
  try {
    return await loadCommonData(commondataFolder, dataset);
  } catch (error) {
    const unknown =
      InputFileError.isInstance(error) &&
      error.message.startsWith(`${commondataFolder}: ${dataset}: unknown dataset`);
    if (unknown) return undefined;
    throw error;
  }
}

/**
 * A positivity or integrability entry resolved like a dataset found by name (commondata when
 * `data_paths.commondata` has it, for the point count and kinematics; FK tables from the theory
 * folder). These sets are never cut.
 */
export async function resolveLagrangeDataset(
  input: LagrangeInput,
  paths: InputPaths,
): Promise<ResolvedDataset> {
  const embedded = closurePositivity().find((table) => table.name === input.dataset);
  if (embedded !== undefined) {
    return {
      name: input.dataset,
      commonData: zeroData(input.dataset, embedded.ndata),
      observable: createObservable(input.dataset, 'NULL', [[embedded]]),
    };
  }
  const commondataFolder = paths.commondata;
  const commonData =
    commondataFolder === undefined
      ? undefined
      : await lagrangeCommonData(commondataFolder, input.dataset);
  const observable = await theoryObservable(input.dataset, [], commonData, commondataFolder, paths);
  const data = commonData ?? zeroData(input.dataset, observableNdata(observable));
  return cutDataset(input.dataset, data, observable, { q2min: 0, w2min: 0 });
}

/**
 * Prefix of the embedded closure datasets, generated by the project (see `closureDatasets` and
 * `closureDatasetsAtScale`).
 */
export const EMBEDDED_PREFIX = 'CLOSURE_';

/** Whether a name is one of the scale-varied closure datasets (`CLOSURE_F2P_Q`, …). */
export function isScaleVariedClosure(name: string): boolean {
  return SCALE_VARIED_CLOSURE_SPECS.some((spec) => spec.name === name);
}

/** The error for a `CLOSURE_` name that is not an embedded dataset, listing those that are. */
function unknownEmbedded(name: string): InputFileError {
  const names = [...CLOSURE_DATASET_SPECS, ...SCALE_VARIED_CLOSURE_SPECS].map((spec) => spec.name);
  return new InputFileError({
    file: '(embedded closure data)',
    key: name,
    problem: `no such embedded dataset; there are ${names.join(', ')}`,
  });
}

/** A scale-varied closure dataset with its FK table at μF = k_F·Q. */
function scaleVariedClosure(
  name: string,
  factorisationScaleRatio: number,
): ScaleVariedClosureDataset {
  const dataset = closureDatasetsAtScale({ factorisationScaleRatio }).find(
    (candidate) => candidate.name === name,
  );
  if (dataset === undefined) throw unknownEmbedded(name);
  return dataset;
}

/**
 * An embedded closure dataset, or undefined for any other name: `CLOSURE_F2P`, … (LO DIS tables
 * at Q0 generated from the toy PDF, with their level-0 data and covariance, process type
 * `BUNDLE`, never cut) or the scale-varied `CLOSURE_F2P_Q`, … at their central scale μF = Q
 * (whose DGLAP operator is built only when one of them is named), DIS data with the kinematic
 * `cuts` applied. Each has its process (`nnpdf31Process`).
 *
 * @throws InputFileError - for a `CLOSURE_` name that is not one of them, listing those that are
 */
function embeddedDataset(name: string, cuts: DisCuts): ResolvedDataset | undefined {
  if (!name.startsWith(EMBEDDED_PREFIX)) return undefined;
  if (isScaleVariedClosure(name)) {
    const dataset = scaleVariedClosure(name, 1);
    const observable = createObservable(name, 'NULL', [[dataset.fkTable]]);
    return cutDataset(name, scaleVariedCommonData(dataset), observable, cuts);
  }
  const dataset = closureDatasets().find((candidate) => candidate.name === name);
  if (dataset === undefined) throw unknownEmbedded(name);
  return {
    name,
    commonData: bundleAsCommonData(dataset, dataset.process),
    observable: createObservable(name, 'NULL', [[dataset.fkTable]]),
  };
}

/**
 * An embedded dataset's observable with the factorisation scale at `factorisationScaleRatio`
 * times its own (k_F), on the points the fit keeps of it (`central`, the dataset as
 * {@link resolveDataset} resolved it, after cuts): a scale-varied closure dataset's table at
 * μF = k_F·Q (`closureDatasetsAtScale`) restricted to `central.commonData.pointIndices`; a
 * closure dataset at Q0 is PDF combinations at the fitting scale, the same at every scale, so
 * its observable is `central.observable`.
 *
 * @throws InputFileError - for a name that is not an embedded dataset
 * @throws InvalidArgumentError - for a k_F that puts a point's μF below Q0
 */
export function embeddedObservableAtScale(
  central: ResolvedDataset,
  factorisationScaleRatio: number,
): Observable {
  const { name } = central;
  if (!isScaleVariedClosure(name)) {
    if (CLOSURE_DATASET_SPECS.some((spec) => spec.name === name)) return central.observable;
    throw unknownEmbedded(name);
  }
  const { fkTable } = scaleVariedClosure(name, factorisationScaleRatio);
  const kept = new Uint8Array(fkTable.ndata);
  for (const index of central.commonData.pointIndices) kept[index] = 1;
  return cutObservable(createObservable(name, 'NULL', [[fkTable]]), kept);
}

/**
 * A scale-varied closure dataset as commondata: the bundle's (its covariance as correlated
 * uncertainties) with the process type (`DIS_NC`, `DIS_CC`) and the kinematics x, Q2, y, which
 * pass the DIS cuts.
 */
function scaleVariedCommonData(dataset: ScaleVariedClosureDataset): CommonData {
  const { x, q2, y } = dataset.kinematics;
  const values = new Float64Array(3 * x.length);
  x.forEach((xn, n) => {
    values.set([xn, q2[n], y[n]], 3 * n);
  });
  return {
    ...bundleAsCommonData(dataset, dataset.process),
    processType: dataset.process.replace(' ', '_'),
    kinematics: { variables: ['x', 'Q2', 'y'], values },
  };
}

/** Commondata of a positivity or integrability set known only by its FK table. */
function zeroData(name: string, ndata: number): CommonData {
  return {
    name,
    setName: name,
    observableName: undefined,
    variant: undefined,
    legacyName: undefined,
    processType: 'POS',
    kind: 'positivity',
    experiment: undefined,
    nnpdf31Process: undefined,
    ndata,
    central: new Float64Array(ndata),
    kinematics: { variables: ['k1', 'k2', 'k3'], values: new Float64Array(3 * ndata) },
    uncertainties: [],
    theory: undefined,
    positivityRequired: false,
    pointIndices: Uint32Array.from({ length: ndata }, (_, i) => i),
    files: [],
  };
}
