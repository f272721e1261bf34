import { join } from 'node:path';
import { formatReplicaSelection, InvalidArgumentError, positiveInteger } from '@partonfit/core';

/** The files of one replica in a fit folder, and the fit-level files beside them. */
export interface FitFolderPaths {
  /** `<output>/<fit>`: the fit folder. */
  readonly fitFolder: string;
  /** `<fit>/runcard.yml`: the runcard the fit ran with. */
  readonly runcard: string;
  /** `<fit>/summary.json`: the fit-level summary over all replicas. */
  readonly summary: string;
  /**
   * `<fit>/tables/theory_covariance.csv`: with `theorycovmatconfig`, the theory covariance S on
   * the fitted points in validphys's table layout (a `user_covmat_path` for another fit).
   */
  readonly theoryCovariance: string;
  /** `<fit>/nnfit/replica_<r>`: the replica's folder. */
  readonly replicaFolder: string;
  /** `<fit>/nnfit/replica_<r>/<fit>.exportgrid`: x·f at Q0 on the export grid. */
  readonly exportGrid: string;
  /** `<fit>/nnfit/replica_<r>/<fit>.json`: the replica's χ², stopping and preprocessing. */
  readonly json: string;
  /** `<fit>/nnfit/replica_<r>/weights.h5`: the replica's network weights. */
  readonly weights: string;
  /** `<fit>/nnfit/replica_<r>/chi2exps.log`: the replica's losses every logged epoch. */
  readonly chi2ExpsLog: string;
}

/**
 * The paths of a fit folder for one replica, laid out as upstream n3fit's (`WriterWrapper` in
 * `n3fit/src/n3fit/io/writer.py`: `<fit>/nnfit/replica_<r>/` holding `<fit>.exportgrid`,
 * `<fit>.json` and `chi2exps.log`, the log per replica), with partonfit's `runcard.yml`,
 * `weights.h5` and `summary.json` (upstream copies the runcard to `filter.yml` and names the
 * weights in its runcard).
 *
 * @param outputFolder - the folder that holds fit folders
 * @param fitName - the fit's name, one path segment (usually the runcard's name without `.yml`)
 * @param replica - the replica number, from 1
 * @throws InvalidArgumentError for a fit name that is empty, `.`, `..` or holds a path separator,
 *   and for a replica number that is not a positive integer
 */
export function fitFolderPaths(
  outputFolder: string,
  fitName: string,
  replica: number,
): FitFolderPaths {
  if (fitName === '' || fitName === '.' || fitName === '..' || /[/\\\0]/.test(fitName)) {
    throw new InvalidArgumentError({
      argument: 'fitName',
      problem: `expected a file name without path separators, got '${fitName}'`,
    });
  }
  positiveInteger(replica, 'replica', { note: 'replicas count from 1' });
  const fitFolder = join(outputFolder, fitName);
  const replicaFolder = join(fitFolder, 'nnfit', `replica_${replica}`);
  return {
    fitFolder,
    runcard: join(fitFolder, 'runcard.yml'),
    summary: join(fitFolder, 'summary.json'),
    theoryCovariance: join(fitFolder, 'tables', 'theory_covariance.csv'),
    replicaFolder,
    exportGrid: join(replicaFolder, `${fitName}.exportgrid`),
    json: join(replicaFolder, `${fitName}.json`),
    weights: join(replicaFolder, 'weights.h5'),
    chi2ExpsLog: join(replicaFolder, 'chi2exps.log'),
  };
}

/**
 * `<fitFolder>/checkpoint_replicas_<selection>.h5`, e.g. `checkpoint_replicas_1-10.h5`: one file
 * per replica selection, so that jobs fitting other replicas into the same fit folder keep their
 * own checkpoints.
 *
 * @param replicas - the replicas, 1-based, increasing
 */
export function checkpointFile(fitFolder: string, replicas: readonly number[]): string {
  return join(fitFolder, `checkpoint_replicas_${formatReplicaSelection(replicas)}.h5`);
}
