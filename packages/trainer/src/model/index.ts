export {
  networkGroupName,
  ReplicaPdfModel,
  replicaModelSeeds,
  type NamedWeight,
  type ReplicaModelSeeds,
  type ReplicaPdfModelOptions,
} from './pdf-model.js';
