export {
  findTriesFile,
  parseTries,
  readTriesFile,
  TRIAL_STATES,
  TRIES_FILE_LOCATIONS,
  type HyperscanTrial,
  type HyperscanTries,
} from './tries-file.js';
export {
  columnsAsParameters,
  selectTrials,
  TRIAL_COLUMNS,
  trialColumns,
  type RankedTrial,
  type TrialColumn,
  type TrialCounts,
} from './trial-selection.js';
