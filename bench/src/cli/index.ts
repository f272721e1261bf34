/**
 * The `npm run bench` command: options, backend discovery and the per-backend processes.
 *
 * @packageDocumentation
 */
export {
  availableBackends,
  type BackendAvailability,
  type UnavailableBackend,
} from './available-backends.js';
export {
  childArguments,
  DEFAULT_RESULTS_FOLDER,
  parseBenchOptions,
  SKIPPABLE_PARTS,
  today,
  USAGE,
  type BenchOptions,
  type SkippablePart,
} from './options.js';
export { runBench } from './run-bench.js';
