/**
 * Single-replica layers: what one replica of a multi-replica model is made of once exported as
 * an ordinary tfjs `LayersModel` (its preprocessing prefactor, the activations tfjs-layers cannot
 * name, and its frozen sum-rule factors).
 *
 * @packageDocumentation
 */
export {
  ReplicaActivation,
  ReplicaPreprocessing,
  SumRuleFactors,
  type ReplicaActivationArgs,
  type ReplicaPreprocessingArgs,
} from './replica-layers.js';
