export {
  lhapdfMemberFile,
  loadLhapdfMember,
  parseLhapdfGrid,
  type LhapdfGrid,
} from './lhapdf-grid.js';
export {
  loadLhapdfSet,
  parseLhapdfInfo,
  type LhapdfExtrapolation,
  type LhapdfMasses,
  type LhapdfSet,
} from './lhapdf-set.js';
export { interpolateLogCubicX } from './log-bicubic.js';
export { evolutionBasisXf, xfAtScale, xfxQ, xfxQ2, type XfOptions } from './xfx.js';
export {
  lhapdfInfoText,
  type LhapdfAlphaS,
  type LhapdfInfo,
  type LhapdfInfoMasses,
} from './lhapdf-info-text.js';
export { lhapdfMemberText, type LhapdfMemberGrid } from './lhapdf-member-text.js';
export type { LhapdfNumberFormat } from './lhapdf-number-format.js';
export { writeLhapdfSet, type LhapdfSetInfo, type LhapdfSetToWrite } from './lhapdf-writer.js';
export type { LhapdfYamlValue } from './lhapdf-yaml-text.js';
export { parseYamlRecord, type YamlRecord } from './yaml-record.js';
