export { applyPointMask } from './apply-point-mask.js';
export { DEFAULT_DIS_CUTS, kinematicCutMask, type DisCuts } from './kinematic-cuts.js';
