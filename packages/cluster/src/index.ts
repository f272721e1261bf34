/**
 * @partonfit/cluster — fits and scans beyond one machine: a fit submitted as a SLURM job array of
 * replica ranges into one fit folder (preemption-safe: tasks resume from their checkpoints), a
 * postfit job after them, and where such a fit stands; a hyperparameter scan submitted as a job
 * array whose tasks share its batches of trials, and where it stands.
 *
 * @packageDocumentation
 */
export {
  fitStatus,
  type FitStatus,
  type FitStatusOptions,
  type RangeState,
  type RangeStatus,
} from './status/fit-status.js';
export {
  scanStatus,
  type BestTrial,
  type ClaimedBatch,
  type ScanJobStatus,
  type ScanStatus,
  type ScanStatusOptions,
} from './status/scan-status.js';
export { isScanFolder, scanFiles, type ScanFiles } from './scan/scan-files.js';
export {
  arrayJobScript,
  EXIT_INTERRUPTED,
  failedScanTaskMarker,
  failedTaskMarker,
  postfitJobScript,
  scanJobScript,
  SIGNAL_SECONDS,
  slurmFolder,
  type JobScriptSettings,
  type SbatchRequests,
  type ScanScriptSettings,
} from './slurm/sbatch-scripts.js';
export { SchedulerError } from './slurm/scheduler-error.js';
export { queuedArrayTasks, type QueueState } from './slurm/squeue.js';
export { submitFit, type Submission, type SubmitRequest } from './submit/submit-fit.js';
export { submitScan, type ScanSubmitRequest, type SubmittedScan } from './submit/submit-scan.js';
export {
  fitTasksFile,
  readFitSubmissions,
  recordFitSubmission,
  type FitSubmission,
} from './tasks/fit-tasks.js';
export {
  readScanSubmissions,
  recordScanSubmission,
  type ScanSubmission,
} from './tasks/scan-tasks.js';
export { taskRanges } from './tasks/task-ranges.js';
