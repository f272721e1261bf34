export { ReplicaPdfModel, replicaModelSeeds, type ReplicaModelSeeds } from './pdf-model.js';
