/**
 * @partonfit/report — the figures and the offline HTML report of a fit: the fit summary with the
 * χ² per dataset against compare sets, the PDFs with their bands, the training curves, closure
 * metrics and data against theory. The PDFs are drawn at the fit's Q0 and, evolved with
 * `@partonfit/evolution`, at any other scale. Figures are Vega-Lite specifications in one place
 * (`figure-specs`), rendered to SVG and PNG in Node and drawn interactively in the page. The
 * report of a hyperparameter scan (`buildScanReport`) has its own figures
 * (`hyperscan/scan-figures`).
 *
 * @packageDocumentation
 */
export { closureBiasVariance, type DatasetBiasVariance } from './chi2/closure-bias.js';
export {
  compareWithData,
  predictingPdf,
  runcardDatasets,
  type DatasetChi2,
  type DatasetComparison,
  type DatasetPredictions,
  type PredictingPdf,
  type RuncardDatasets,
} from './chi2/dataset-predictions.js';
export {
  chi2Figure,
  dataTheoryFigure,
  distanceFigure,
  effectiveExponentFigure,
  pdfFigure,
  pullFigure,
  trainingFigure,
  type Chi2Row,
  type DataTheoryRow,
  type ExponentCurveRow,
  type ExponentFigureOptions,
  type ExponentRangeRow,
  type PdfFigureOptions,
  type StoppingRow,
  type TrainingRow,
} from './figures/figure-specs.js';
export type { DataRow, DataValue, ReportFigure } from './figures/report-figure.js';
export {
  foldFigure,
  historyFigure,
  settingsFigure,
  TRIAL_GROUPS,
  type FoldRow,
  type HistoryRow,
  type TrialGroup,
  type TrialRow,
} from './hyperscan/scan-figures.js';
export {
  holdsScanTrials,
  readScanRecords,
  type FoldLossSource,
  type ScanKfold,
  type ScanRecords,
  type ScanTrial,
} from './hyperscan/scan-records.js';
export { buildScanReport, rankedTrials } from './hyperscan/scan-report.js';
export {
  scanSettings,
  sharedSettings,
  trialSettings,
  varyingSettings,
  type ScanSetting,
  type SettingScale,
  type SettingValue,
  type TrialSettings,
} from './hyperscan/trial-settings.js';
export {
  PDF_FIGURE_FLAVOURS,
  pdfBandRows,
  pdfReplicaRows,
  type PdfBandOptions,
  type PdfBandRow,
  type PdfReplicaRow,
  type PdfBasis,
} from './pdf/pdf-bands.js';
export { pdfDistanceRows, type PdfDistanceRow } from './pdf/pdf-distances.js';
export {
  checkReportScales,
  evolvePdfReplicas,
  isSameScale,
  largestEvolvedScale,
  SAME_SCALE_TOLERANCE,
  type PdfEvolution,
} from './pdf/evolved-pdfs.js';
export {
  fitPdfReplicas,
  lhapdfPdfReplicas,
  replicaMean,
  rotateMembers,
  singlePdf,
  type PdfReplicas,
  type PdfSetKind,
} from './pdf/pdf-replicas.js';
export {
  readFitRecords,
  type FitRecords,
  type PostfitRecord,
  type ReplicaTraining,
} from './records/fit-records.js';
export { htmlPage, type ReportSection, type ReportTable } from './render/html-page.js';
export {
  compileFigure,
  dejaVuSansFiles,
  pngFonts,
  renderPng,
  renderSvg,
  vegaBrowserBundle,
  type PngFonts,
} from './render/render-figure.js';
export { buildReport, type Report, type ReportOptions } from './report/build-report.js';
export { effectiveExponentsSection } from './report/effective-exponents-section.js';
export { figureCsv, writeReport, type WrittenReport } from './report/write-report.js';
