import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { InputFileError, InvalidArgumentError, runcardDigest } from '@partonfit/core';
import { loadFitFolderRuncard } from '../folder/fit-hyperscan.js';
import { pathExists, writeFileAtomic } from '@partonfit/io';
import { readExportGrid } from '../folder/exportgrid-reader.js';
import { formatExportGrid, type ExportGridContents } from '../folder/exportgrid.js';
import { fitFolderPaths, type FitFolderPaths } from '../folder/fit-folder-paths.js';
import { rebuildFitSummary } from '../folder/fit-summary.js';
import { listReplicaFolders } from '../folder/replica-folders.js';
import { DEFAULT_VETO_THRESHOLDS, determineVetoes, type VetoThresholds } from './fit-veto.js';
import { readReplicaFitInfo, type ReplicaRecord } from './replica-fit-info.js';

/** The files of postfit's output folder `<fit>/postfit/`. */
export const POSTFIT_FILES = {
  folder: 'postfit',
  summary: 'postfit.json',
  log: 'postfit.log',
  vetoCount: 'veto_count.json',
} as const;

/** Options of {@link runPostfit}. */
export interface PostfitOptions {
  /**
   * Keep the first `nrep` passing replicas (upstream's positional `nrep`); default: every
   * passing replica. Fewer passing replicas is an error.
   */
  readonly nrep?: number;
  /** With `nrep`: require at least `nrep` passing replicas but keep them all. */
  readonly atLeastNrep?: boolean;
  /** Veto thresholds; upstream's defaults otherwise (4σ, 4σ, 0.5). */
  readonly thresholds?: Partial<VetoThresholds>;
  /** Called with each line of the postfit log. */
  readonly report?: (line: string) => void;
}

/** A replica postfit kept: member `member` of the final set is the fit's replica `replica`. */
export interface SelectedReplica {
  readonly member: number;
  readonly replica: number;
}

/** A replica postfit did not keep, and why. */
export interface DiscardedReplica {
  readonly replica: number;
  /** The vetoes it failed (`Positivity`, `ChiSquared`, `ArcLength_2`, `IntegNumber_0`, …). */
  readonly reasons: readonly string[];
}

/** What {@link runPostfit} did. */
export interface PostfitResult {
  readonly fit: string;
  /** `<fit>/postfit`. */
  readonly folder: string;
  readonly thresholds: VetoThresholds;
  readonly selected: readonly SelectedReplica[];
  readonly discarded: readonly DiscardedReplica[];
  /** Replica folders without the files postfit needs, with the file missing. */
  readonly invalid: readonly { readonly replica: number; readonly problem: string }[];
  /** Replicas that diverged during the fit (their JSON's `diverged_epoch`): never kept. */
  readonly diverged: readonly { readonly replica: number; readonly epoch: number }[];
  /** The mean χ² per point of the replicas passing the vetoes. */
  readonly passingAverageChi2: number;
}

/** A replica of the fit, its files and its JSON's records. */
interface ReplicaFiles {
  readonly replica: number;
  readonly paths: FitFolderPaths;
  readonly record: ReplicaRecord;
}

/** The replica folders sorted by what postfit can do with them. */
interface ReplicaInventory {
  /** Replicas with an exportgrid and a JSON, which the vetoes judge. */
  readonly valid: ReplicaFiles[];
  /** Replicas whose JSON records that they diverged: never kept. */
  readonly diverged: ReplicaFiles[];
  /** Replica folders without the files postfit needs. */
  readonly invalid: { replica: number; problem: string }[];
}

/**
 * Reads every replica's JSON (so a corrupt one stops postfit before anything is reported as
 * done) and sorts the replicas into valid, diverged and invalid ones.
 */
async function inventory(
  outputFolder: string,
  fitName: string,
  replicas: readonly number[],
): Promise<ReplicaInventory> {
  const sorted: ReplicaInventory = { valid: [], diverged: [], invalid: [] };
  for (const replica of replicas) {
    const paths = fitFolderPaths(outputFolder, fitName, replica);
    const hasJson = await pathExists(paths.json);
    const record = hasJson ? await readReplicaFitInfo(paths.json) : undefined;
    if (record?.divergedEpoch !== undefined) {
      sorted.diverged.push({ replica, paths, record });
      continue;
    }
    const absent = [];
    if (!(await pathExists(paths.exportGrid))) absent.push(basename(paths.exportGrid));
    if (!hasJson) absent.push(basename(paths.json));
    if (record !== undefined && absent.length === 0) sorted.valid.push({ replica, paths, record });
    else sorted.invalid.push({ replica, problem: `missing ${absent.join(' and ')}` });
  }
  return sorted;
}

/** `1-3, 5` style, for messages. */
function replicaList(replicas: readonly number[]): string {
  return replicas.join(', ');
}

/**
 * Refuses a fit folder whose replicas were fitted with different runcards (their JSON's
 * `runcard_sha256` differ, or differ from the folder's `runcard.yml`): the final set would mix
 * two fits. Replicas written before partonfit recorded the hash are not checked.
 *
 * @throws InputFileError naming the fit folder's `nnfit/` and the replicas of each runcard
 */
async function refuseMixedRuncards(
  fitFolder: string,
  replicas: readonly ReplicaFiles[],
): Promise<void> {
  const byDigest = new Map<string, number[]>();
  for (const { replica, record } of replicas) {
    if (record.runcardSha256 === undefined) continue;
    byDigest.set(record.runcardSha256, [...(byDigest.get(record.runcardSha256) ?? []), replica]);
  }
  const runcardFile = join(fitFolder, 'runcard.yml');
  const folderDigest = (await pathExists(runcardFile))
    ? runcardDigest((await loadFitFolderRuncard(fitFolder)).runcard)
    : undefined;
  const others = [...byDigest].filter(([digest]) => digest !== (folderDigest ?? digest));
  if (byDigest.size <= 1 && others.length === 0) return;
  const groups = [...byDigest].map(
    ([digest, members]) =>
      `replica(s) ${replicaList(members)} with runcard ${digest.slice(0, 12)}…${digest === folderDigest ? ' (runcard.yml)' : ''}`,
  );
  throw new InputFileError({
    file: join(fitFolder, 'nnfit'),
    problem: `the replicas were fitted with different runcards: ${groups.join('; ')}${
      folderDigest === undefined || byDigest.has(folderDigest)
        ? ''
        : `; runcard.yml is ${folderDigest.slice(0, 12)}…`
    }. A final set must come from one fit: refit the odd replicas with the fit's runcard, or into another output folder`,
  });
}

/** The mean of the selected replicas' exportgrids, written as replica 0. */
async function averageExportGrid(files: readonly string[]): Promise<string> {
  const grids: ExportGridContents[] = [];
  for (const file of files) grids.push(await readExportGrid(file));
  const [first] = grids;
  const pdfGrid = new Float64Array(first.pdfGrid.length);
  grids.forEach((grid, k) => {
    const file = files[k];
    const sameX =
      grid.xGrid.length === first.xGrid.length && grid.xGrid.every((x, i) => x === first.xGrid[i]);
    if (!sameX) {
      throw new InputFileError({ file, key: 'xgrid', problem: `differs from ${files[0]}'s` });
    }
    if (grid.q20 !== first.q20) {
      throw new InputFileError({
        file,
        key: 'q20',
        problem: `${grid.q20}, but ${files[0]} has ${first.q20}`,
      });
    }
    grid.pdfGrid.forEach((value, i) => {
      pdfGrid[i] += value;
    });
  });
  return formatExportGrid({
    replica: 0,
    q20: first.q20,
    xGrid: first.xGrid,
    pdfGrid: pdfGrid.map((sum) => sum / grids.length),
  });
}

/** Why a valid replica was not kept. */
function reasonsOf(vetoes: Map<string, boolean[]>, index: number, passed: boolean): string[] {
  if (passed) return ['beyond the requested number of replicas (--nrep)'];
  const failed = [...vetoes]
    .filter(([name, mask]) => name !== 'Total' && !mask[index])
    .map(([name]) => name);
  return failed.length > 0
    ? failed
    : ['an outlier in an earlier round of the χ² and arc-length vetoes'];
}

function checkNrep(nrep: number | undefined): void {
  if (nrep !== undefined && (!Number.isInteger(nrep) || nrep < 1)) {
    throw new InvalidArgumentError({
      argument: 'nrep',
      problem: `expected a positive number of replicas, got ${nrep}`,
    });
  }
}

/**
 * Copies the selected replicas into `folder` as `replica_1 … replica_n` (their exportgrid, JSON,
 * `weights.h5` and `chi2exps.log`, as present) and writes `replica_0/<fit>.exportgrid`, the
 * average of their exportgrids.
 */
async function writeSelection(
  folder: string,
  fitName: string,
  selected: readonly ReplicaFiles[],
): Promise<void> {
  for (const [k, { paths }] of selected.entries()) {
    const target = join(folder, `replica_${k + 1}`);
    await mkdir(target);
    for (const file of [paths.exportGrid, paths.json, paths.weights, paths.chi2ExpsLog]) {
      if (await pathExists(file)) await copyFile(file, join(target, basename(file)));
    }
  }
  await mkdir(join(folder, 'replica_0'));
  await writeFileAtomic(
    join(folder, 'replica_0', `${fitName}.exportgrid`),
    await averageExportGrid(selected.map(({ paths }) => paths.exportGrid)),
  );
}

/** What postfit's records hold beyond its {@link PostfitResult}. */
interface PostfitRecords {
  readonly nrep: number | undefined;
  /** Every replica folder's number. */
  readonly found: readonly number[];
  /** The valid replicas, which the veto masks run over. */
  readonly valid: readonly number[];
  readonly vetoes: ReadonlyMap<string, readonly boolean[]>;
}

/** Writes `postfit.json` and upstream's `veto_count.json` into `folder`. */
async function writeRecords(
  folder: string,
  result: PostfitResult,
  records: PostfitRecords,
): Promise<void> {
  const { thresholds } = result;
  const masks = Object.fromEntries(records.vetoes);
  const summary = {
    fit: result.fit,
    thresholds: {
      chi2: thresholds.chi2,
      arclength: thresholds.arcLength,
      integrability: thresholds.integrability,
    },
    nrep: records.nrep ?? null,
    replicas_found: records.found,
    invalid: result.invalid,
    diverged: result.diverged,
    valid: records.valid,
    vetoes: masks,
    selected: result.selected,
    discarded: result.discarded,
    passing_average_chi2: result.passingAverageChi2,
  };
  await writeFileAtomic(
    join(folder, POSTFIT_FILES.summary),
    `${JSON.stringify(summary, null, 2)}\n`,
  );
  await writeFileAtomic(
    join(folder, POSTFIT_FILES.vetoCount),
    JSON.stringify({
      chi2_threshold: thresholds.chi2,
      arclength_threshold: thresholds.arcLength,
      integrability_threshold: thresholds.integrability,
      ...masks,
    }),
  );
}

/** Replaces `target` by the complete folder `built` (renames only; the old one is removed). */
async function replaceFolder(built: string, target: string): Promise<void> {
  const old = join(dirname(target), `.${basename(target)}-old-${randomBytes(6).toString('hex')}`);
  const hadOld = await pathExists(target);
  if (hadOld) await rename(target, old);
  await rename(built, target);
  if (hadOld) await rm(old, { recursive: true, force: true });
}

/**
 * `partonfit postfit`: upstream's replica selection and final set.
 *
 * Reads every `nnfit/replica_<r>/<fit>.json` (a replica folder without its exportgrid or JSON is
 * listed as invalid and skipped, as upstream; a replica whose JSON records that it diverged is
 * listed as diverged and never kept), refuses a folder whose replicas were fitted with different
 * runcards (their `runcard_sha256`, and `runcard.yml` when present), applies the vetoes of {@link determineVetoes}
 * (positivity, integrability > 0.5, χ² and arc lengths beyond 4σ, iterated), and writes
 * `<fit>/postfit/`:
 *
 * - `replica_1 … replica_n/`: copies of the passing replicas' files, renumbered in increasing
 *   replica order (the files keep their own replica numbers);
 * - `replica_0/<fit>.exportgrid`: the average of their exportgrids (`replica: 0`);
 * - `postfit.json`: thresholds, the replicas found, the valid ones and each veto's mask over
 *   them, the selected (`{member, replica}`), the discarded with the vetoes they failed, the
 *   invalid with the file missing, the passing replicas' mean χ²;
 * - `veto_count.json`: upstream's file (thresholds and veto masks);
 * - `postfit.log`: the same in words.
 *
 * The folder is built under a temporary name and renamed into place, replacing an earlier
 * `postfit/`: a failed or killed postfit leaves the previous one intact.
 *
 * @throws InputFileError naming the file (and key) for an unreadable `nnfit/`, no valid replica,
 *   replicas of different runcards, a corrupt JSON or exportgrid, exportgrids on different grids; InvalidArgumentError for a bad
 *   `nrep`, fewer passing replicas than `nrep`, or no passing replica
 */
export async function runPostfit(
  fitFolder: string,
  options: PostfitOptions = {},
): Promise<PostfitResult> {
  checkNrep(options.nrep);
  const folder = resolve(fitFolder);
  const fitName = basename(folder);
  const thresholds = { ...DEFAULT_VETO_THRESHOLDS, ...options.thresholds };
  const nnfit = join(folder, 'nnfit');
  const found = await listReplicaFolders(nnfit);
  const { valid, diverged, invalid } = await inventory(dirname(folder), fitName, found);
  await refuseMixedRuncards(folder, [...valid, ...diverged]);
  const log: string[] = [];
  const say = (line: string) => {
    log.push(line);
    options.report?.(line);
  };
  say(
    `${found.length} total replicas found, ${valid.length} valid${diverged.length > 0 ? `, ${diverged.length} diverged` : ''}`,
  );
  for (const { replica, problem } of invalid) say(`invalid replica ${replica}: ${problem}`);
  for (const { replica, record } of diverged) {
    say(
      `diverged replica ${replica}: its loss stopped being finite at epoch ${record.divergedEpoch}`,
    );
  }
  if (valid.length === 0) {
    throw new InputFileError({
      file: nnfit,
      problem:
        diverged.length > 0 && invalid.length === 0
          ? `no valid replica: every replica diverged (${replicaList(diverged.map(({ replica }) => replica))}); lower the learning rate or set a clipnorm, and refit`
          : `no valid replica (each replica_<r> needs ${fitName}.exportgrid and ${fitName}.json)`,
    });
  }
  const infos = valid.map(({ record }) => record);
  const vetoes = determineVetoes(infos, thresholds);
  for (const [name, mask] of vetoes) say(`${mask.filter(Boolean).length} replicas pass ${name}`);
  const total = vetoes.get('Total') ?? [];
  const passing = valid.filter((_, i) => total[i]);
  const passingChi2 = infos.filter((_, i) => total[i]).map((info) => info.chi2);
  const passingAverageChi2 = passingChi2.reduce((sum, chi2) => sum + chi2, 0) / passingChi2.length;
  say(`passing average χ²: ${passingAverageChi2}`);
  if (passing.length === 0 || passing.length < (options.nrep ?? 1)) {
    throw new InvalidArgumentError({
      argument: options.nrep === undefined ? 'fit' : 'nrep',
      problem: `${passing.length} of ${valid.length} valid replicas pass the vetoes${options.nrep === undefined ? '' : `, ${options.nrep} were asked for`}`,
    });
  }
  const kept =
    options.nrep === undefined || options.atLeastNrep === true
      ? passing
      : passing.slice(0, options.nrep);
  const selected = kept.map(({ replica }, k) => ({ member: k + 1, replica }));
  const discarded = valid.flatMap((entry, i) =>
    kept.includes(entry)
      ? []
      : [{ replica: entry.replica, reasons: reasonsOf(vetoes, i, total[i]) }],
  );
  for (const { member, replica } of selected) say(`replica_${member}: nnfit/replica_${replica}`);
  for (const { replica, reasons } of discarded) {
    say(`discarded replica ${replica}: ${reasons.join(', ')}`);
  }
  const result: PostfitResult = {
    fit: fitName,
    folder: join(folder, POSTFIT_FILES.folder),
    thresholds,
    selected,
    discarded,
    invalid,
    diverged: diverged.map(({ replica, record }) => ({
      replica,
      epoch: record.divergedEpoch ?? -1,
    })),
    passingAverageChi2,
  };
  // Logged in the folder, reported only once the folder is in place.
  const written = `${selected.length} replicas written to ${result.folder}`;
  log.push(written);
  const building = join(folder, `.${POSTFIT_FILES.folder}-${randomBytes(6).toString('hex')}`);
  await mkdir(building);
  try {
    await writeSelection(building, fitName, kept);
    await writeRecords(building, result, {
      nrep: options.nrep,
      found,
      valid: valid.map(({ replica }) => replica),
      vetoes,
    });
    await writeFileAtomic(join(building, POSTFIT_FILES.log), `${log.join('\n')}\n`);
    await replaceFolder(building, result.folder);
  } catch (error) {
    await rm(building, { recursive: true, force: true });
    throw error;
  }
  // Every fit process has finished by now: the fit's summary covers them all.
  await rebuildFitSummary(folder);
  options.report?.(written);
  return result;
}
