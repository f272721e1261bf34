export {
  choice,
  evaluateSpace,
  logUniform,
  quantizedUniform,
  spaceLabels,
  uniform,
  validateSpace,
  type SpaceNode,
  type SpacePoint,
  type SpaceValue,
} from './space.js';
export { randomPoint, randomPoints } from './random-search.js';
export { tpePoints, type ScoredPoint, type TpeOptions } from './tpe.js';
