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
export { evolutionBasisXf, xfAtScale, xfxQ, xfxQ2, type XfOptions } from './xfx.js';
