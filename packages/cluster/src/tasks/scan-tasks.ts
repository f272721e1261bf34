import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { InputFileError } from '@partonfit/core';
import { writeFileAtomic } from '@partonfit/io';
import { readJsonFile, scanFiles } from '../scan/scan-files.js';

/** One `partonfit submit --hyperopt` of a scan: its settings, tasks and job. */
export interface ScanSubmission {
  /** The scan runcard, absolute. */
  readonly runcardFile: string;
  /** `--output` of the tasks, absolute. */
  readonly outputFolder: string;
  /** The trials of the scan (`--hyperopt N`). */
  readonly trials: number;
  /** Trials trained together in one model. */
  readonly trialsPerModel: number;
  /** Replicas of every trial on every fold. */
  readonly replicas: number;
  /** `tpe` or `random`. */
  readonly sampler: string;
  /** The number of tasks of the job array (`--tasks`). */
  readonly tasks: number;
  /** The `partonfit hyperopt` options every task passed on (e.g. `--backend native`). */
  readonly hyperoptOptions: readonly string[];
  /** The SLURM job id of the array. */
  readonly jobs: { readonly array: string };
  /** When it was submitted (ISO 8601). */
  readonly submitted: string;
}

const positive = (value: unknown) => Number.isInteger(value) && (value as number) > 0;

/** One submission read back, every entry checked. */
function submissionOf(file: string, entry: unknown, index: number): ScanSubmission {
  const record = entry as Record<string, unknown> | null;
  const jobs = record?.jobs as Record<string, unknown> | undefined;
  const valid =
    record !== null &&
    typeof record === 'object' &&
    ['runcardFile', 'outputFolder', 'sampler', 'submitted'].every(
      (name) => typeof record[name] === 'string',
    ) &&
    ['trials', 'trialsPerModel', 'replicas', 'tasks'].every((name) => positive(record[name])) &&
    Array.isArray(record.hyperoptOptions) &&
    record.hyperoptOptions.every((option) => typeof option === 'string') &&
    typeof jobs?.array === 'string';
  if (!valid) {
    throw new InputFileError({
      file,
      key: `submissions[${index}]`,
      problem:
        'expected { runcardFile, outputFolder, trials, trialsPerModel, replicas, sampler, tasks, hyperoptOptions, jobs: { array }, submitted }',
    });
  }
  return record as unknown as ScanSubmission;
}

/**
 * Every `partonfit submit --hyperopt` of the scan in `<scan>/slurm/scan-tasks.json`, oldest
 * first; none when the scan was never submitted.
 *
 * @throws InputFileError naming the file (and entry) when it is not such a record
 */
export async function readScanSubmissions(scanFolder: string): Promise<ScanSubmission[]> {
  const file = scanFiles(scanFolder).submissions;
  const parsed = await readJsonFile(file);
  if (parsed === undefined) return [];
  const submissions =
    typeof parsed === 'object' && parsed !== null && 'submissions' in parsed
      ? parsed.submissions
      : undefined;
  if (!Array.isArray(submissions)) {
    throw new InputFileError({ file, key: 'submissions', problem: 'expected a list' });
  }
  return submissions.map((entry, index) => submissionOf(file, entry, index));
}

/** Adds a submission to `<scan>/slurm/scan-tasks.json` (written atomically). */
export async function recordScanSubmission(
  scanFolder: string,
  submission: ScanSubmission,
): Promise<void> {
  const file = scanFiles(scanFolder).submissions;
  const earlier = await readScanSubmissions(scanFolder);
  await mkdir(dirname(file), { recursive: true });
  await writeFileAtomic(
    file,
    `${JSON.stringify({ submissions: [...earlier, submission] }, null, 2)}\n`,
  );
}
