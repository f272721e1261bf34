/**
 * The benchmark result: its JSON schema, files and markdown tables.
 *
 * @packageDocumentation
 */
export { formatNumber, resultsMarkdown } from './markdown.js';
export {
  markdownFile,
  readBenchResult,
  readResultsOfDate,
  resultFile,
  validateBenchResult,
  writeBenchResult,
  writeFormatted,
} from './result-file.js';
export {
  benchResultSchema,
  configurationSchema,
  machineSchema,
  measuredConfigurations,
  RATIO_NAMES,
  ratioSchema,
  RESULT_SCHEMA_VERSION,
  sampleSummarySchema,
  settingsSchema,
  setupNnpdf40Schema,
  setupSchema,
  threadScalingSchema,
  workloadSchema,
  type BenchResult,
  type ConfigurationResult,
  type MachineResult,
  type MeasuredConfiguration,
  type RatioName,
  type RatioResult,
  type SettingsResult,
  type SetupNnpdf40Result,
  type SetupResult,
  type ThreadScalingResult,
  type WorkloadResult,
} from './result-schema.js';
