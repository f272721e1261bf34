export {
  THEORY_200_HEAVY_QUARKS,
  activeFlavourNumber,
  type HeavyQuarkSettings,
} from './active-flavours.js';
export { chi2ExpsLogText, parseChi2ExpsLog, type Chi2ExpsEntry } from './chi2exps-log.js';
export { EXPORT_X_GRID, EXPORT_X_GRID_SIZE } from './export-x-grid.js';
export {
  EXPORT_GRID_LABELS,
  evolutionToExportFlavours,
  exportGridText,
  formatExportGrid,
  type ExportGridContents,
  type ExportGridOptions,
} from './exportgrid.js';
export { parseExportGrid, readExportGrid } from './exportgrid-reader.js';
export { checkpointFile, fitFolderPaths, type FitFolderPaths } from './fit-folder-paths.js';
export { fitCovarianceName } from './fit-covariance-name.js';
export {
  fitSummaryFile,
  mergeFitSummaries,
  rebuildFitSummary,
  writeFitSummary,
  type DivergedReplica,
  type FitQuality,
  type FitSummary,
  type FitTheoryCovarianceUse,
} from './fit-summary.js';
export {
  fitReplicaSource,
  readFitReplicasAtQ0,
  type FitReplicaSource,
  type FitReplicasAtQ0,
  type ReplicasAtScale,
} from './fit-replicas-at-q0.js';
export { checkFitFolderRuncard, clearFitFolder } from './fit-folder-runcard.js';
export { FIT_HYPERSCAN_FOLDER, keepFitHyperscan, loadFitFolderRuncard } from './fit-hyperscan.js';
export {
  ARC_LENGTH_FLAVOURS,
  ARC_LENGTH_X_GRID,
  INTEGRABILITY_FLAVOURS,
  INTEGRABILITY_X_GRID,
  arcLengths,
  arcLengthsFromValues,
  integrabilityNumbers,
  integrabilityNumbersFromValues,
  type EvolutionPdf,
} from './fit-quality.js';
export { pythonFloatRepr, yamlFloat } from './python-float.js';
export { listReplicaFolders } from './replica-folders.js';
export {
  preprocessingJson,
  replicaJson,
  type FitTiming,
  type PositivityState,
  type PreprocessingRecord,
  type ReplicaSummary,
} from './replica-json.js';
export {
  BATCH_FILE_NAME,
  batchFileName,
  scanFolderPaths,
  type ScanFolderPaths,
} from './scan-folder-paths.js';
export { simpsonIntegral } from './simpson.js';
export { writeReplicaOutputs, type ReplicaOutputs } from './write-replica-outputs.js';
