import {
  EVOLUTION_BASIS_SIZE,
  evolutionIndex,
  evolutionToFlavourAt,
  FLAVOUR_BASIS,
  FLAVOUR_TO_EVOLUTION,
  rotateFlavours,
} from '@partonfit/core';
import { checkReplicaGrid } from './replica-grid.js';
import { evolutionSetup, runEvolution, sumTerms, type EvolutionOptions } from './evolution-run.js';
import { nonSingletIndices } from './evolution-operator.js';
import type { TheoryCard } from './theory-card.js';

/** The evolution-basis indices of T and V of the quarks completing 2 … 6 flavours. */
const NON_SINGLETS = [2, 3, 4, 5, 6].map(nonSingletIndices);

/**
 * Evolves PDFs directly, without building the operator: the same evolution as
 * {@link buildEvolutionOperator} (and the same numbers up to rounding), with the replicas as the
 * columns of the evolving sectors instead of the identity. Cheaper than an operator for a few
 * replicas; for many, build the operator once and apply it.
 *
 * @param card - the theory card
 * @param options - the grids and numerical settings
 * @param xf - (replicas, x, flavours) row-major at Q0, 14 flavours in `FLAVOUR_BASIS` order
 * @param replicas - the number of replicas
 * @returns (replicas, q, x, flavours) row-major in the same flavour order; the photon is zero
 * @throws ShapeError when `xf` does not have replicas × x × 14 values
 * @throws InvalidArgumentError, InputFileError as {@link buildEvolutionOperator}
 */
export function evolvePdfs(
  card: TheoryCard,
  options: EvolutionOptions,
  xf: Float64Array,
  replicas: number,
): Float64Array {
  const setup = evolutionSetup(card, options);
  const n = setup.basis.xGrid.length;
  const flavours = FLAVOUR_BASIS.length;
  checkReplicaGrid(xf, replicas, n);
  const evolution = rotateFlavours(FLAVOUR_TO_EVOLUTION, xf);
  const value = (r: number, i: number, e: number) =>
    evolution[(r * n + i) * EVOLUTION_BASIS_SIZE + e];
  const sigma = evolutionIndex('Sigma');
  const gluon = evolutionIndex('g');
  const valence = evolutionIndex('V');
  const lightNonSinglets = setup.nf0 - 1;
  const singlet = new Float64Array(2 * n * replicas);
  const valenceStart = new Float64Array(n * replicas);
  const plus = new Float64Array(n * lightNonSinglets * replicas);
  const minus = new Float64Array(n * lightNonSinglets * replicas);
  for (let i = 0; i < n; i++) {
    for (let r = 0; r < replicas; r++) {
      singlet[i * replicas + r] = value(r, i, sigma);
      singlet[(n + i) * replicas + r] = value(r, i, gluon);
      valenceStart[i * replicas + r] = value(r, i, valence);
      for (let k = 0; k < lightNonSinglets; k++) {
        const indices = NON_SINGLETS[k];
        plus[i * lightNonSinglets * replicas + k * replicas + r] = value(r, i, indices.plus);
        minus[i * lightNonSinglets * replicas + k * replicas + r] = value(r, i, indices.minus);
      }
    }
  }
  const qCount = options.qGrid.length;
  const out = new Float64Array(replicas * qCount * n * flavours);
  const evolved = new Float64Array(n * EVOLUTION_BASIS_SIZE);
  runEvolution(
    card,
    setup,
    options.qGrid,
    {
      layout: 'dense',
      singlet: { values: singlet, columns: replicas },
      valence: { values: valenceStart, columns: replicas },
      plus: { values: plus, columns: lightNonSinglets * replicas },
      minus: { values: minus, columns: lightNonSinglets * replicas },
    },
    ({ state, nf, index }) => {
      const singletNow = sumTerms(state.singlet.terms);
      const valenceNow = sumTerms(state.valence.terms);
      const plusNow = sumTerms(state.plus.terms);
      const minusNow = sumTerms(state.minus.terms);
      const heavyNow = new Map(
        [...state.heavy.entries()].map(([k, sectors]) => [
          k,
          { plus: sumTerms(sectors.plus.terms), minus: sumTerms(sectors.minus.terms) },
        ]),
      );
      for (let r = 0; r < replicas; r++) {
        evolved.fill(0);
        for (let i = 0; i < n; i++) {
          const row = i * EVOLUTION_BASIS_SIZE;
          const sigmaNow = singletNow[i * replicas + r];
          const vNow = valenceNow[i * replicas + r];
          evolved[row + sigma] = sigmaNow;
          evolved[row + gluon] = singletNow[(n + i) * replicas + r];
          evolved[row + valence] = vNow;
          for (let k = 2; k <= 6; k++) {
            const indices = NON_SINGLETS[k - 2];
            const heavy = heavyNow.get(k);
            if (k <= setup.nf0) {
              const column = i * lightNonSinglets * replicas + (k - 2) * replicas + r;
              evolved[row + indices.plus] = plusNow[column];
              evolved[row + indices.minus] = minusNow[column];
            } else if (heavy !== undefined && k <= nf) {
              evolved[row + indices.plus] = heavy.plus[i * replicas + r];
              evolved[row + indices.minus] = heavy.minus[i * replicas + r];
            } else {
              evolved[row + indices.plus] = sigmaNow;
              evolved[row + indices.minus] = vNow;
            }
          }
        }
        for (let i = 0; i < n; i++) {
          const offset = ((r * qCount + index) * n + i) * flavours;
          evolutionToFlavourAt(evolved, i * EVOLUTION_BASIS_SIZE, out, offset);
        }
      }
    },
  );
  return out;
}
