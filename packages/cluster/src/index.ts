/**
 * @partonfit/cluster — fits beyond one machine: a fit submitted as a SLURM job array of replica
 * ranges into one fit folder (preemption-safe: tasks resume from their checkpoints), a postfit
 * job after them, and where such a fit stands.
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
  arrayJobScript,
  EXIT_INTERRUPTED,
  failedTaskMarker,
  postfitJobScript,
  SIGNAL_SECONDS,
  slurmFolder,
  type JobScriptSettings,
} from './slurm/sbatch-scripts.js';
export { SchedulerError } from './slurm/scheduler-error.js';
export { queuedArrayTasks, type QueueState } from './slurm/squeue.js';
export { submitFit, type Submission, type SubmitRequest } from './submit/submit-fit.js';
export {
  fitTasksFile,
  readFitSubmissions,
  recordFitSubmission,
  type FitSubmission,
} from './tasks/fit-tasks.js';
export { taskRanges } from './tasks/task-ranges.js';
