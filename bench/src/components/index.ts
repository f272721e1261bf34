/**
 * The training step's components timed in isolation, forward + backward each: PDF network,
 * preprocessing and rotation, sum rules, DIS and hadronic observables, positivity and
 * integrability, χ² losses, optimiser, stopping.
 *
 * @packageDocumentation
 */
export { networkFlops, observableFlops } from './component-flops.js';
export { COMPONENT_DESCRIPTIONS, COMPONENT_NAMES, type ComponentName } from './component-names.js';
export { forwardBackward, inputVariable, seededUniform } from './forward-backward.js';
export {
  timeLayerComponents,
  timeModelComponents,
  type ComponentContext,
  type ComponentTiming,
} from './time-components.js';
