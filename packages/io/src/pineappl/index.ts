export { BincodeReader } from './bincode-reader.js';
export { decodeLz4Frame, isLz4Frame, LZ4_FRAME_MAGIC } from './lz4-frame.js';
export { forEachPackedEntry, readPackedArray, type PackedArray } from './packed-array.js';
export {
  forEachSubgridValue,
  importedSubgridValues,
  isPineapplGrid,
  parsePineapplGrid,
  pineapplBinCount,
  pineapplBinNormalizations,
  PINEAPPL_MAGIC,
  readPineapplGrid,
  SUPPORTED_PINEAPPL_VERSIONS,
  type PineapplBinLimits,
  type PineapplBinRemapper,
  type PineapplChannelEntry,
  type PineapplConvolution,
  type PineapplGrid,
  type PineapplImportedSubgrid,
  type PineapplImportOnlySubgrid,
  type PineapplImportSubgridV1,
  type PineapplMu2,
  type PineapplOrder,
  type PineapplOtherSubgrid,
  type PineapplSubgrid,
} from './pineappl-grid.js';
export { forEachSparseEntry, readSparseArray3, type SparseArray3 } from './sparse-array3.js';
export { xxhash32 } from './xxhash32.js';
