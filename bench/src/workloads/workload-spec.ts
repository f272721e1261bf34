import { InvalidArgumentError, positiveInteger } from '@partonfit/core';

/** One synthetic dataset of a benchmark workload: one FK table, one observable. */
export interface SyntheticDatasetSpec {
  /** Dataset name (NNPDF-like, for reading the results; the values are random). */
  readonly name: string;
  /** `dis` (one PDF) or `hadronic` (two PDFs). */
  readonly kind: 'dis' | 'hadronic';
  /** Number of data points. */
  readonly ndata: number;
  /**
   * The experiment it belongs to: consecutive datasets of one experiment share correlated
   * systematics and form one block of the block-diagonal covariance.
   */
  readonly experiment: string;
}

/** One synthetic positivity or integrability set: a DIS-type FK table, target 0. */
export interface SyntheticLagrangeSpec {
  /** Set name. */
  readonly name: string;
  /** Number of points. */
  readonly ndata: number;
  /** Its active evolution-basis flavour indices (0…13). */
  readonly channels: readonly number[];
  /** The multiplier's final value (runcard `maxlambda`). */
  readonly maxLambda: number;
}

/** The 50-node (or other) x-grid every table of a workload reads. */
export interface XGridSpec {
  /** Smallest node. */
  readonly xMin: number;
  /** Largest node, below 1. */
  readonly xMax: number;
  /** Number of nodes. */
  readonly nodes: number;
}

/**
 * The kinematic limits of hadronic tables: data point n of a table probes x1 · x2 ≥ τₙ (τ = M²/s
 * of the final state), so its FK values are zero where x1 · x2 < τₙ. The τₙ of a table are drawn
 * log-uniformly in [minTau, maxTau] and ascend over its points, as neighbouring bins of one
 * measurement do.
 */
export interface HadronicKinematics {
  readonly minTau: number;
  readonly maxTau: number;
}

/**
 * A seeded synthetic workload: the shapes of a real fit (datasets, points, flavours, x nodes,
 * covariance blocks, positivity and integrability sets) with random FK tables, central values
 * from the Les Houches toy PDF and a synthetic covariance. Same spec and seed → the same arrays.
 */
export interface WorkloadSpec {
  /** Workload name, e.g. `nnpdf40`. */
  readonly name: string;
  /** What it models, for the report. */
  readonly description: string;
  /** Seed of every random draw (FK values, systematics, channels); runcard seeds are separate. */
  readonly seed: number;
  /** The one x-grid shared by all tables. */
  readonly xGrid: XGridSpec;
  /** Active evolution-basis flavours of every DIS table (and the pool of hadronic channels). */
  readonly disChannels: readonly number[];
  /** Active luminosity channels of every hadronic table, drawn from `disChannels`². */
  readonly hadronicChannels: number;
  /** Zero blocks of the hadronic tables from kinematic limits; dense tables when absent. */
  readonly hadronicKinematics?: HadronicKinematics;
  /** Datasets in data-axis order; an experiment's datasets are consecutive. */
  readonly datasets: readonly SyntheticDatasetSpec[];
  /** Positivity sets. */
  readonly positivity: readonly SyntheticLagrangeSpec[];
  /** Integrability sets. */
  readonly integrability: readonly SyntheticLagrangeSpec[];
}

/** Points of a workload by kind. */
export interface WorkloadCounts {
  readonly dis: number;
  readonly hadronic: number;
  readonly lagrange: number;
  /** Covariance block sizes in data order, (blocks). */
  readonly blocks: readonly number[];
}

/**
 * The experiments of `datasets` as contiguous blocks: sizes in data order.
 *
 * @throws InvalidArgumentError - for an experiment whose datasets are not consecutive, or a
 *   dataset without points
 */
export function experimentBlockSizes(datasets: readonly SyntheticDatasetSpec[]): number[] {
  const sizes: number[] = [];
  const seen = new Set<string>();
  datasets.forEach((dataset, d) => {
    positiveInteger(dataset.ndata, `datasets.${dataset.name}.ndata`);
    if (d > 0 && datasets[d - 1].experiment === dataset.experiment) {
      sizes[sizes.length - 1] += dataset.ndata;
      return;
    }
    if (seen.has(dataset.experiment)) {
      throw new InvalidArgumentError({
        argument: `datasets.${dataset.name}.experiment`,
        problem: `the datasets of experiment ${dataset.experiment} must be consecutive`,
      });
    }
    seen.add(dataset.experiment);
    sizes.push(dataset.ndata);
  });
  return sizes;
}

/** The numbers of DIS, hadronic and positivity/integrability points, and the block sizes. */
export function workloadCounts(spec: WorkloadSpec): WorkloadCounts {
  const points = (kind: SyntheticDatasetSpec['kind']) =>
    spec.datasets
      .filter((dataset) => dataset.kind === kind)
      .reduce((sum, dataset) => sum + dataset.ndata, 0);
  return {
    dis: points('dis'),
    hadronic: points('hadronic'),
    lagrange: [...spec.positivity, ...spec.integrability].reduce((sum, set) => sum + set.ndata, 0),
    blocks: experimentBlockSizes(spec.datasets),
  };
}
