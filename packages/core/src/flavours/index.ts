export {
  EVOLUTION_BASIS,
  EVOLUTION_BASIS_SIZE,
  evolutionIndex,
  type BasisFlavour,
  type EvolutionFlavour,
} from './evolution-basis.js';
export { FLAVOUR_BASIS, flavourIndexOfPid, type LhaFlavour } from './flavour-basis.js';
export {
  EVOLUTION_TO_FLAVOUR,
  evolutionToFlavourAt,
  FLAVOUR_TO_EVOLUTION,
  rotateFlavours,
} from './rotations.js';
export {
  FIT_BASES,
  FIT_BASIS_NAMES,
  findFitBasis,
  fitBasisFromFlavour,
  fittedFlavourLabel,
  fitBasisToEvolution,
  type FitBasisDefinition,
  type FitBasisName,
} from './fit-basis.js';
