export { CheckpointMismatchError } from './checkpoint-mismatch-error.js';
export { checkCheckpointInputs, readCheckpoint, writeCheckpoint } from './checkpoint-file.js';
export { runFingerprint, withInputsDigest, type RunFingerprint } from './run-fingerprint.js';
export {
  CHECKPOINT_EVERY,
  CHECKPOINT_FORMAT,
  type CheckpointArray,
  type StoppingCheckpoint,
  type TrainingCheckpoint,
  type TrainingHistoryEntry,
} from './training-checkpoint.js';
