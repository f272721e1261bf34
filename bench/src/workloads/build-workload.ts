import { deriveNamedSeed, SeededRandom, type Runcard } from '@partonfit/core';
import {
  createObservable,
  datasetCovarianceChi2,
  eigenbasisSplit,
  factorCovarianceBlocks,
  interpolationXGrid,
  predictFkTable,
  pseudodataForReplicas,
  sharedCovarianceChi2,
  toObservableTensors,
  toyPdfXf,
  type FitDataset,
  type FitInputs,
  type FkTable,
  type HadronicFkTable,
  type LagrangeDataset,
} from '@partonfit/fktables';
import { benchRuncard } from './bench-runcard.js';
import { syntheticCovarianceBlocks } from './synthetic-covariance.js';
import {
  applyKinematicLimits,
  kinematicLimits,
  luminosityChannels,
  randomDisTable,
  randomHadronicTable,
  SYNTHETIC_Q0,
} from './synthetic-tables.js';
import { workloadCounts, type WorkloadCounts, type WorkloadSpec } from './workload-spec.js';

/** A workload ready to train: its runcard and fit inputs for the requested replicas. */
export interface BenchWorkload {
  readonly spec: WorkloadSpec;
  readonly runcard: Runcard;
  readonly inputs: FitInputs;
  readonly counts: WorkloadCounts;
  /** Wall time of {@link buildWorkload}, in seconds. */
  readonly buildSeconds: number;
}

/** The random stream of one named part of a workload, independent of every other part. */
export function streamOf(spec: WorkloadSpec, part: string): SeededRandom {
  return new SeededRandom(deriveNamedSeed(spec.seed, part));
}

/** The step tensors of one table as a single-operand observable (every table reads the whole x-grid). */
function observableOf(name: string, table: FkTable) {
  return toObservableTensors(createObservable(name, 'NULL', [[table]]), () => 0);
}

/** A random hadronic table of the spec's channels, zero beyond its kinematic limits if any. */
function hadronicTable(
  spec: WorkloadSpec,
  name: string,
  ndata: number,
  xGrid: Float64Array,
  random: SeededRandom,
): HadronicFkTable {
  const channels = luminosityChannels(spec.disChannels, spec.hadronicChannels, random);
  const table = randomHadronicTable(name, ndata, channels, xGrid, random);
  if (spec.hadronicKinematics !== undefined) {
    applyKinematicLimits(table, kinematicLimits(ndata, spec.hadronicKinematics, random));
  }
  return table;
}

/**
 * Builds a workload's fit inputs exactly as `prepareFitInputs` lays them out, for the given
 * replicas: random FK tables on the shared x-grid (each table from its own seeded stream), central
 * values = the Les Houches toy PDF through those tables, the synthetic block-diagonal covariance,
 * each replica's pseudodata and diagonal-basis training/validation split (fktables' builders, with
 * the runcard's seeds, so replica r's arrays do not depend on the other replicas), the shared
 * experimental χ² (whole and per dataset) and the positivity and integrability sets.
 *
 * @param replicas - the replicas, 1-based
 * @throws InvalidArgumentError - for a spec whose experiments are not contiguous
 */
export function buildWorkload(spec: WorkloadSpec, replicas: readonly number[]): BenchWorkload {
  const start = performance.now();
  const counts = workloadCounts(spec);
  const runcard = benchRuncard(spec);
  const xGrid = interpolationXGrid(spec.xGrid);
  const truth = toyPdfXf(xGrid);
  const ndata = counts.dis + counts.hadronic;
  const centralData = new Float64Array(ndata);
  let offset = 0;
  const datasets = spec.datasets.map((dataset): FitDataset => {
    const random = streamOf(spec, `dataset ${dataset.name}`);
    const table =
      dataset.kind === 'dis'
        ? randomDisTable(dataset.name, dataset.ndata, spec.disChannels, xGrid, random)
        : hadronicTable(spec, dataset.name, dataset.ndata, xGrid, random);
    centralData.set(predictFkTable(table, truth), offset);
    const entry = { name: dataset.name, offset, ndata: dataset.ndata };
    offset += dataset.ndata;
    return { ...entry, observable: observableOf(dataset.name, table) };
  });
  const lagrange = (sets: WorkloadSpec['positivity']) =>
    sets.map((set): LagrangeDataset => {
      const random = streamOf(spec, `lagrange ${set.name}`);
      const table = randomDisTable(set.name, set.ndata, set.channels, xGrid, random);
      return {
        name: set.name,
        ndata: set.ndata,
        maxLambda: set.maxLambda,
        observable: observableOf(set.name, table),
      };
    });
  const blocks = syntheticCovarianceBlocks(
    centralData,
    counts.blocks,
    streamOf(spec, 'covariance'),
  );
  const pseudodata = pseudodataForReplicas(
    { central: centralData, blocks: factorCovarianceBlocks(blocks), mcseed: runcard.mcseed },
    replicas,
    runcard.genrep,
  );
  const split = eigenbasisSplit(blocks, {
    trvlseed: runcard.trvlseed,
    replicas,
    sameForAllReplicas: runcard.same_trvl_per_replica,
    diagonalFrac: runcard.diagonal_frac,
  });
  const experimental = sharedCovarianceChi2(blocks);
  const inputs: FitInputs = {
    key: `bench-${spec.name}-${spec.seed}-${replicas.join(',')}`,
    replicas: [...replicas],
    q0: SYNTHETIC_Q0,
    xGrid,
    datasets,
    ndata,
    centralData,
    pseudodata: Float32Array.from(pseudodata),
    training: split.training,
    validation: split.validation,
    experimental,
    experimentalByDataset: datasetCovarianceChi2(
      blocks,
      datasets.map(({ offset, ndata: size }) => ({ offset, size })),
      experimental,
    ),
    trainingCounts: split.trainingModes,
    validationCounts: split.validationModes,
    positivity: lagrange(spec.positivity),
    integrability: lagrange(spec.integrability),
    t0PdfSet: undefined,
    sources: [],
  };
  return { spec, runcard, inputs, counts, buildSeconds: (performance.now() - start) / 1000 };
}
