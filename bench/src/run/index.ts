/**
 * One backend's benchmark: every workload and replica count, the naive variants, components,
 * cross-check and set-up time, into one result.
 *
 * @packageDocumentation
 */
export { loadAverage, machineInfo } from './machine.js';
export {
  measureConfiguration,
  type ConfigurationOutcome,
  type ConfigurationRequest,
} from './measure-configuration.js';
export { RATIO_VARIANTS, type RatioVariant, type VariantContext } from './ratio-variants.js';
export { INTEGRATION_POINTS, runBackend } from './run-backend.js';
