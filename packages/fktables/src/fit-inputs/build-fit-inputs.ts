import { join } from 'node:path';
import type { CommonData } from '../commondata/commondata.js';
import {
  InputFileError,
  InvalidArgumentError,
  PartonfitError,
  type Chi2Structure,
  type Runcard,
} from '@partonfit/core';
import { evolutionBasisXf, loadLhapdfMember, loadLhapdfSet } from '@partonfit/io';
import { covarianceBlocks } from '../covariance/covariance-matrix.js';
import type { FkTable } from '../fktable/fk-table.js';
import { toObservableTensors } from '../fktable/fk-tensor.js';
import { predictObservable } from '../fktable/predict.js';
import { factorCovarianceBlocks, type BlockCovariance } from '../pseudodata/covariance-blocks.js';
import { addTheoryCovariance } from '../theory-covariance/add-theory-covariance.js';
import { fitTheoryCovariance } from './fit-theory-covariance.js';
import { pseudodataForReplicas } from '../pseudodata/pseudodata.js';
import {
  startCorrelationEigensystems,
  type PendingCorrelationEigensystems,
} from '../splits/correlation-eigensystems-in-parallel.js';
import { datasetCovarianceChi2 } from '../splits/dataset-covariance-chi2.js';
import { eigenbasisSplit } from '../splits/eigenbasis-split.js';
import {
  complementMasks,
  maskedCovarianceChi2,
  sharedCovarianceChi2,
} from '../splits/masked-covariance.js';
import {
  eigenbasisWithoutExcluded,
  excludedPoints,
  heldOutMasks,
  withoutExcluded,
  type DataFolds,
} from '../splits/held-out.js';
import { trainingPointMasks } from '../splits/point-split.js';
import type { FitDataset, FitFolds, FitInputs, LagrangeDataset } from './fit-inputs.js';
import { withFakeData } from './fake-data.js';
import { missingSetting, type InputPaths } from './input-paths.js';
import { resolveDataset, resolveLagrangeDataset, type ResolvedDataset } from './resolve-dataset.js';
import { xGridUnion } from './x-grid-union.js';

/** Reports what set-up is doing, for a progress display. */
export type ProgressReporter = (message: string) => void;

function tablesOf(dataset: ResolvedDataset): FkTable[] {
  return dataset.observable.operands.flat();
}

/**
 * The one Q0 of all tables (a runcard has at least one dataset, an observable at least one
 * table); tables at different scales cannot share a PDF.
 */
function commonQ0(tables: readonly FkTable[]): number {
  const first = tables[0];
  const other = tables.find((table) => Math.abs(table.q0 - first.q0) > 1e-9 * first.q0);
  if (other !== undefined) {
    throw new InputFileError({
      file: other.file,
      problem: `FK table ${other.name} has Q0 = ${other.q0} GeV but ${first.name} (${first.file}) has ${first.q0} GeV; one fit needs one Q0`,
    });
  }
  return first.q0;
}

/** The t0 PDF's predictions of each dataset, when the runcard names a t0 set. */
async function t0Predictions(
  runcard: Runcard,
  paths: InputPaths,
  datasets: readonly ResolvedDataset[],
  q0: number,
): Promise<{ predictions: Float64Array[]; file: string } | undefined> {
  const name = runcard.datacuts.t0pdfset;
  if (name === undefined) return undefined;
  if (paths.lhapdf === undefined) {
    throw missingSetting(paths, 'data_paths.lhapdf', `to read the t0 PDF set ${name}`);
  }
  const set = await loadLhapdfSet(join(paths.lhapdf, name));
  const central = await loadLhapdfMember(set, 0);
  return {
    predictions: datasets.map((dataset) =>
      predictObservable(dataset.observable, (xGrid) => evolutionBasisXf(central, xGrid, q0)),
    ),
    file: central.file,
  };
}

/** Every dataset a runcard names, resolved (see {@link resolveRuncardDatasets}). */
export interface RuncardDatasets {
  /** The `dataset_inputs`, with the kinematic cuts applied. */
  readonly measured: ResolvedDataset[];
  /** The positivity sets (`positivity.posdatasets`). */
  readonly positivitySets: ResolvedDataset[];
  /** The integrability sets (`integrability.integdatasets`). */
  readonly integrabilitySets: ResolvedDataset[];
}

/** Options of {@link resolveRuncardDatasets}. */
export interface ResolveRuncardDatasetsOptions {
  /**
   * Receives the measured datasets' data after the cuts, in runcard order, once all are read and
   * before all FK tables are (not at all when one cannot be read or cut): the same objects as
   * the resolved datasets hold.
   */
  readonly onMeasuredCommonData?: (commonData: readonly CommonData[]) => void;
}

/**
 * Resolves every dataset, positivity and integrability set a runcard names to its data and FK
 * tables, reading each file once, with the runcard's kinematic cuts: what `partonfit check`
 * validates and a fit starts from.
 *
 * Every set is tried, so that every problem is reported at once: one failing set throws its
 * own error, several throw one `PartonfitError` listing each (their errors in `cause`).
 *
 * @throws RuncardError - when a setting needed to find an input is missing
 * @throws InputFileError - for an unknown dataset name (with close names), a missing or invalid
 *   file, or data and FK tables that disagree on the number of points
 */
export async function resolveRuncardDatasets(
  runcard: Runcard,
  paths: InputPaths,
  report: ProgressReporter = () => undefined,
  { onMeasuredCommonData }: ResolveRuncardDatasetsOptions = {},
): Promise<RuncardDatasets> {
  const cuts = { q2min: runcard.datacuts.q2min, w2min: runcard.datacuts.w2min };
  const { posdatasets } = runcard.positivity;
  const { integdatasets } = runcard.integrability;
  report(
    `reading ${runcard.dataset_inputs.length} datasets, ${posdatasets.length} positivity and ${integdatasets.length} integrability sets`,
  );
  const early: (CommonData | undefined)[] = runcard.dataset_inputs.map(() => undefined);
  let waiting = early.length;
  const collect = (d: number) => (commonData: CommonData) => {
    early[d] = commonData;
    waiting -= 1;
    if (waiting === 0) onMeasuredCommonData?.(early as CommonData[]);
  };
  const measured = Promise.allSettled(
    runcard.dataset_inputs.map((input, d) =>
      resolveDataset(
        input,
        paths,
        cuts,
        onMeasuredCommonData === undefined ? {} : { onCommonData: collect(d) },
      ),
    ),
  );
  const positivity = Promise.allSettled(
    posdatasets.map((input) => resolveLagrangeDataset(input, paths)),
  );
  const integrability = Promise.allSettled(
    integdatasets.map((input) => resolveLagrangeDataset(input, paths)),
  );
  const outcomes = await Promise.all([measured, positivity, integrability]);
  const [measuredSets, positivitySets, integrabilitySets] = outcomes.map((sets) =>
    sets.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : [])),
  );
  const failures = outcomes
    .flat()
    .flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as Error] : []));
  const bug = failures.find((failure) => !PartonfitError.isInstance(failure));
  if (bug !== undefined) throw bug;
  if (failures.length === 1) throw failures[0];
  if (failures.length > 1) {
    throw new PartonfitError({
      message: `${failures.length} datasets cannot be read:\n${failures.map((failure) => `  ${failure.message}`).join('\n')}`,
      cause: new AggregateError(failures),
    });
  }
  return { measured: measuredSets, positivitySets, integrabilitySets };
}

/** The covariance-derived data of {@link replicaStructures}. */
interface ReplicaStructureInputs {
  readonly fitDatasets: readonly FitDataset[];
  /** Central values, (data). */
  readonly centralData: Float64Array;
  /** 1 where a point must stay positive, (data). */
  readonly positive: Uint8Array;
  /** The fitting covariance's blocks (with the dataset weights). */
  readonly blocks: readonly BlockCovariance[];
  /** The sampling covariance's blocks (without them). */
  readonly samplingBlocks: readonly BlockCovariance[];
  readonly report: ProgressReporter;
  /** The diagonal basis's eigensystems under way (with `diagonal_basis`). */
  readonly eigensystems: PendingCorrelationEigensystems | undefined;
  /** The points each row leaves out of training and validation (k-fold), `(rows, data)`. */
  readonly excluded: Uint8Array | undefined;
}

/**
 * The replicas' pseudodata, training and validation χ² structures and counts, and the
 * experimental χ² structures (whole and per dataset).
 */
async function replicaStructures(
  runcard: Runcard,
  replicas: readonly number[],
  {
    fitDatasets,
    centralData,
    positive,
    blocks,
    samplingBlocks,
    report,
    eigensystems,
    excluded,
  }: ReplicaStructureInputs,
): Promise<
  Pick<
    FitInputs,
    | 'training'
    | 'validation'
    | 'experimental'
    | 'experimentalByDataset'
    | 'trainingCounts'
    | 'validationCounts'
  > & { pseudodata: Float64Array }
> {
  const ndata = centralData.length;
  report(`drawing pseudodata for ${replicas.length} replicas`);
  const samplingFactors = factorCovarianceBlocks(samplingBlocks);
  const pseudodata = pseudodataForReplicas(
    {
      central: centralData,
      blocks: samplingFactors,
      mcseed: runcard.mcseed,
      positive,
    },
    replicas,
    runcard.genrep,
  );
  // Without weights the sampling covariance is the fitting one: its factors serve the inverse.
  const experimental = sharedCovarianceChi2(
    blocks,
    samplingBlocks === blocks ? samplingFactors : undefined,
  );
  const experimentalByDataset = datasetCovarianceChi2(
    blocks,
    fitDatasets.flatMap(({ offset, ndata: size }) => (size > 0 ? [{ offset, size }] : [])),
    experimental,
  );

  report(runcard.diagonal_basis ? 'diagonalising the correlation matrix' : 'splitting data points');
  const seeding = {
    trvlseed: runcard.trvlseed,
    replicas,
    sameForAllReplicas: runcard.same_trvl_per_replica,
  };
  let training: Chi2Structure;
  let validation: Chi2Structure;
  let trainingCounts: Int32Array;
  let validationCounts: Int32Array;
  if (eigensystems !== undefined) {
    const split = eigenbasisSplit(blocks, {
      ...seeding,
      diagonalFrac: runcard.diagonal_frac,
      eigensystems: await eigensystems.eigensystems(),
    });
    ({ training, validation } = split);
    trainingCounts = split.trainingModes;
    validationCounts = split.validationModes;
    if (excluded !== undefined) {
      const keptTraining = eigenbasisWithoutExcluded(split.training, excluded, fitDatasets);
      const keptValidation = eigenbasisWithoutExcluded(split.validation, excluded, fitDatasets);
      ({ structure: training, modes: trainingCounts } = keptTraining);
      ({ structure: validation, modes: validationCounts } = keptValidation);
    }
  } else {
    const spans = fitDatasets.map((dataset, d) => ({
      ...dataset,
      frac: runcard.dataset_inputs[d].frac,
    }));
    const split = trainingPointMasks(spans, seeding);
    const masks = excluded === undefined ? split : withoutExcluded(split, excluded);
    const validationMasks =
      excluded === undefined
        ? complementMasks(split)
        : withoutExcluded(complementMasks(split), excluded);
    training = maskedCovarianceChi2(blocks, masks);
    validation = maskedCovarianceChi2(blocks, validationMasks);
    const count = (rowMasks: Uint8Array) =>
      Int32Array.from(replicas, (_, r) =>
        rowMasks.subarray(r * ndata, (r + 1) * ndata).reduce((sum, used) => sum + used, 0),
      );
    trainingCounts = count(masks);
    validationCounts = count(validationMasks);
  }
  return {
    pseudodata,
    training,
    validation,
    experimental,
    experimentalByDataset,
    trainingCounts,
    validationCounts,
  };
}

/** The diagonal basis started from the measured data alone (see {@link earlyDiagonalBasis}). */
interface EarlyDiagonalBasis {
  /** Builds the fitting covariance of the data and starts its eigensystems. */
  readonly start: (commonData: readonly CommonData[]) => void;
  /** The covariance and eigensystems started from exactly these data, if they were. */
  readonly startedFrom: (
    commonData: readonly CommonData[],
  ) => { blocks: BlockCovariance[]; eigensystems: PendingCorrelationEigensystems } | undefined;
  /** Stops the eigensystems' worker, if it still runs. */
  readonly stop: () => Promise<void>;
}

/**
 * Where the fitting covariance needs only the measured data (no t0 PDF, no closure-test fake
 * data), its blocks and their diagonal basis can start while the FK tables are still being read:
 * {@link resolveRuncardDatasets} hands over the cut data, the same objects the datasets end up
 * with, so the covariance is the one built afterwards, bit for bit.
 */
function earlyDiagonalBasis(runcard: Runcard): EarlyDiagonalBasis | undefined {
  if (
    runcard.datacuts.t0pdfset !== undefined ||
    runcard.closuretest?.fakedata === true ||
    runcard.theorycovmatconfig?.use_thcovmat_in_fitting === true
  ) {
    return undefined;
  }
  let started:
    | {
        commonData: readonly CommonData[];
        blocks: BlockCovariance[];
        eigensystems: PendingCorrelationEigensystems;
      }
    | undefined;
  return {
    start: (commonData) => {
      try {
        const weights = runcard.dataset_inputs.map((input) => input.weight);
        const blocks = covarianceBlocks(commonData, { weights });
        started = { commonData, blocks, eigensystems: startCorrelationEigensystems(blocks) };
      } catch {
        // Bad uncertainties: the covariance built after the FK tables reports them.
      }
    },
    startedFrom: (commonData) =>
      started !== undefined &&
      commonData.length === started.commonData.length &&
      commonData.every((data, d) => data === started?.commonData[d])
        ? started
        : undefined,
    stop: async () => {
      await started?.eigensystems.stop();
    },
  };
}

/** The folds of the inputs: held-out points, rows' folds and the experimental covariance. */
function fitFolds(
  folds: DataFolds,
  fitDatasets: readonly FitDataset[],
  commonData: readonly CommonData[],
): FitFolds {
  return {
    rowFold: Int32Array.from(folds.rowFold),
    heldOut: heldOutMasks(folds, fitDatasets),
    covariance: covarianceBlocks(commonData).map((block) => ({
      offset: block.offset,
      size: block.size,
      covariance: block.covariance.data,
    })),
  };
}

/**
 * Builds the fit inputs of a runcard for the given replicas (see {@link FitInputs}): resolves
 * every dataset (commondata + FK tables, or bundles) with the kinematic cuts, the t0 covariance
 * block by block, each replica's pseudodata and training/validation split as χ² structures,
 * the positivity and integrability sets, the shared x-grid and the FK tensors.
 *
 * @param key - the cache key to record
 * @param replicas - the replica of each row: its pseudodata and split (a replica may fill
 *   several rows, as in a scan's trials and folds)
 * @param folds - k-fold cross-validation: each row leaves its fold's datasets out
 */
export async function buildFitInputs(
  runcard: Runcard,
  paths: InputPaths,
  replicas: readonly number[],
  key: string,
  report: ProgressReporter = () => undefined,
  folds?: DataFolds,
): Promise<FitInputs> {
  const early = runcard.diagonal_basis ? earlyDiagonalBasis(runcard) : undefined;
  // The eigensystems started after the FK tables, when they could not start before.
  let stoppable: PendingCorrelationEigensystems | undefined;
  try {
    const { measured, positivitySets, integrabilitySets } = await resolveRuncardDatasets(
      runcard,
      paths,
      report,
      early === undefined ? {} : { onMeasuredCommonData: early.start },
    );
    const allTables = [...measured, ...positivitySets, ...integrabilitySets].flatMap(tablesOf);
    const q0 = commonQ0(allTables);
    const { datasets, truthFile } = await withFakeData(runcard, paths, measured, q0);
    const union = xGridUnion(allTables);
    const xOffsetOf = (table: FkTable) => union.tableOffsets.get(table) ?? 0;

    const commonData = datasets.map((dataset) => dataset.commonData);
    const t0 = await t0Predictions(runcard, paths, datasets, q0);
    report(`building the ${t0 === undefined ? 'experimental' : 't0'} covariance`);
    const started = t0 === undefined ? early?.startedFrom(commonData) : undefined;
    const experimentalBlocks =
      started?.blocks ??
      covarianceBlocks(commonData, {
        ...(t0 === undefined ? {} : { t0Predictions: t0.predictions }),
        weights: runcard.dataset_inputs.map((input) => input.weight),
      });
    const theory = await fitTheoryCovariance(runcard, paths, datasets, report);
    const withTheory = (covariance: readonly BlockCovariance[], used: boolean | undefined) =>
      used === true && theory !== undefined
        ? addTheoryCovariance(covariance, theory.theory.covariance)
        : covariance;
    const blocks = withTheory(experimentalBlocks, theory?.theory.inFitting);
    // The diagonal basis's eigen-decompositions, the costliest step, run in a worker thread
    // beside the pseudodata and the experimental χ²'s inverses, from the data alone already
    // while the FK tables were read, when the covariance needs nothing else.
    let eigensystems = started?.eigensystems;
    if (eigensystems === undefined && runcard.diagonal_basis) {
      eigensystems = startCorrelationEigensystems(blocks);
      stoppable = eigensystems;
    }
    // Replicas are sampled from the (t0) covariance without the dataset weights, as upstream's
    // sampling covariance; the weights only enter the χ² the fit minimises.
    const weighted = runcard.dataset_inputs.some((input) => input.weight !== 1);
    const sameCovariance = !weighted && theory?.theory.inFitting === theory?.theory.inSampling;
    const samplingBlocks = sameCovariance
      ? blocks
      : withTheory(
          weighted
            ? covarianceBlocks(
                commonData,
                t0 === undefined ? {} : { t0Predictions: t0.predictions },
              )
            : experimentalBlocks,
          theory?.theory.inSampling,
        );

    let offset = 0;
    const fitDatasets: FitDataset[] = datasets.map((dataset) => {
      const entry = {
        name: dataset.name,
        offset,
        ndata: dataset.commonData.ndata,
        observable: toObservableTensors(dataset.observable, xOffsetOf),
      };
      offset += entry.ndata;
      return entry;
    });
    const ndata = offset;
    const centralData = new Float64Array(ndata);
    const positive = new Uint8Array(ndata);
    fitDatasets.forEach((dataset, d) => {
      centralData.set(commonData[d].central, dataset.offset);
      positive.fill(
        commonData[d].positivityRequired ? 1 : 0,
        dataset.offset,
        dataset.offset + dataset.ndata,
      );
    });

    if (folds !== undefined && folds.rowFold.length !== replicas.length) {
      throw new InvalidArgumentError({
        argument: 'folds.rowFold',
        problem: `expected the fold of each of the ${replicas.length} rows, got ${folds.rowFold.length}`,
      });
    }
    const kfold = folds === undefined ? undefined : fitFolds(folds, fitDatasets, commonData);
    const { pseudodata, ...structures } = await replicaStructures(runcard, replicas, {
      fitDatasets,
      centralData,
      positive,
      blocks,
      samplingBlocks,
      report,
      eigensystems,
      excluded:
        folds === undefined || kfold === undefined
          ? undefined
          : excludedPoints(folds, kfold.heldOut),
    });

    const lagrange = (sets: readonly ResolvedDataset[], inputs: readonly { maxlambda: number }[]) =>
      sets.map((set, i): LagrangeDataset => ({
        name: set.name,
        ndata: set.commonData.ndata,
        maxLambda: inputs[i].maxlambda,
        observable: toObservableTensors(set.observable, xOffsetOf),
      }));
    return {
      key,
      replicas: [...replicas],
      q0,
      xGrid: union.xGrid,
      datasets: fitDatasets,
      ndata,
      centralData,
      pseudodata: Float32Array.from(pseudodata),
      ...structures,
      positivity: lagrange(positivitySets, runcard.positivity.posdatasets),
      integrability: lagrange(integrabilitySets, runcard.integrability.integdatasets),
      t0PdfSet: runcard.datacuts.t0pdfset,
      ...(kfold === undefined ? {} : { folds: kfold }),
      ...(theory === undefined ? {} : { theoryCovariance: theory.theory }),
      ...(theory?.theory.inFitting === true
        ? { experimentalWithoutTheory: sharedCovarianceChi2(experimentalBlocks) }
        : {}),
      sources: [
        ...new Set([
          ...commonData.flatMap((data) => data.files),
          ...allTables.flatMap((table) => [table.file, ...table.cFactors]),
          ...(t0 === undefined ? [] : [t0.file]),
          ...(truthFile === undefined ? [] : [truthFile]),
          ...(theory?.sources ?? []),
        ]),
      ],
    };
  } finally {
    await early?.stop();
    await stoppable?.stop();
  }
}
