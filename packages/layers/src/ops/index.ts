export { CachedTranspose } from './cached-transpose.js';
export {
  batchMatMulConstant,
  ConstantMatrix,
  matMulConstant,
  matMulConstantLowMemory,
  matMulExplicitTranspose,
} from './matmul-constant.js';
export { STAGED_SUM_CHUNK, stagedSum } from './staged-sum.js';
export type { LayerArgs, LayerKwargs } from './layer-types.js';
export { withCustomGrad, type CustomGradResult } from './custom-grad.js';
export { concatenate } from './concatenate.js';
