export { CheckpointMismatchError } from './checkpoint-mismatch-error.js';
export { readCheckpoint, writeCheckpoint } from './checkpoint-file.js';
export { runFingerprint, type RunFingerprint } from './run-fingerprint.js';
export {
  CHECKPOINT_EVERY,
  CHECKPOINT_FORMAT,
  checkpointFile,
  type CheckpointArray,
  type StoppingCheckpoint,
  type TrainingCheckpoint,
  type TrainingHistoryEntry,
} from './training-checkpoint.js';
export {
  captureCheckpoint,
  restoreCheckpoint,
  type TrainingLoopState,
  type TrainingParts,
} from './training-state.js';
