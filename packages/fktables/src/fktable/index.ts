export {
  applyCFactors,
  loadCFactors,
  parseCFactors,
  type CFactors,
  type ParseCFactorsOptions,
} from './cfactors.js';
export {
  loadCompound,
  parseCompound,
  type CompoundSpec,
  type ParseCompoundOptions,
} from './compound.js';
export {
  valuesPerDataPoint,
  type DisFkTable,
  type FkTable,
  type HadronicFkTable,
  type TheoryScaleRatios,
} from './fk-table.js';
export { fkTableAsNdarray } from './fk-table-ndarray.js';
export { toFkTensor, toObservableTensors } from './fk-tensor.js';
export { loadFkTable, type LoadFkTableOptions } from './load-fk-table.js';
export { mergeMirroredChannels, type MergedChannels } from './mirrored-channels.js';
export {
  createObservable,
  isObservableOperation,
  observableNdata,
  operandCountProblem,
  operandNdata,
  type Observable,
} from './observable.js';
export {
  fkTableNameOfFile,
  parseLegacyFkTable,
  type ParseLegacyFkTableOptions,
} from './parse-legacy-fk-table.js';
export {
  loadPineapplFkTable,
  pineapplFkTable,
  pineapplTableNameOfFile,
  type PineapplFkTable,
  type PineapplFkTableOptions,
  type PineapplPidBasis,
} from './pineappl-fk-table.js';
export { collapseRepeatedDivisor } from './repeated-divisor.js';
export { combineOperands, predictFkTable, predictObservable, type PdfAtXGrid } from './predict.js';
export { lhapdfMemberPredictions } from './lhapdf-predictions.js';
export {
  findCFactorFile,
  findCompoundFile,
  findFkTable,
  findLegacyFkTable,
  fkTableFileNames,
  findTheoryFolder,
  loadLegacyObservable,
  type LoadLegacyObservableOptions,
} from './theory-folder.js';
