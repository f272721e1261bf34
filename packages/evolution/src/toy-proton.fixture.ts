import { FLAVOUR_BASIS } from '@partonfit/core';
import { parseTheoryCard, type TheoryCard } from './theory-card.js';

const FLAVOURS = FLAVOUR_BASIS.length;

/** A grid of 60 log-spaced knots from 1e-9 to 0.1 and 40 linear ones up to 1. */
export const X_GRID = Float64Array.from([
  ...Array.from({ length: 60 }, (_, i) => 10 ** (-9 + (8 * i) / 60)),
  ...Array.from({ length: 40 }, (_, i) => 0.1 + (0.9 * i) / 39),
]);

/**
 * A theory card for tests: NNLO, TRN, Q0 = 1.4 GeV below the charm threshold, pole masses of
 * theory 200; `overrides` are YAML lines that replace keys (the last key wins).
 */
export function toyTheoryCard(overrides: string): TheoryCard {
  return parseTheoryCard(toyTheoryCardText(overrides), 'toy-theory.yaml');
}

/** The text of {@link toyTheoryCard}. */
export function toyTheoryCardText(overrides: string): string {
  return `PTO: 2
IC: 0
ModEv: TRN
MaxNfAs: 5
MaxNfPdf: 5
Q0: 1.4
alphas: 0.118
Qref: 91.2
HQ: POLE
mc: 1.51
kcThr: 1.0
mb: 4.92
kbThr: 1.0
mt: 172.5
ktThr: 1.0
${overrides}`;
}

/**
 * x·f of a toy proton on the grid, (replicas, x, flavours): valence-like u and d vanishing as
 * x^0.8 at small x, a sea and a gluon as x^−0.1, s = s̄, no heavy quarks; the sea and the gluon grow
 * a little with the replica number.
 */
export function toyPdfs(replicas: number): Float64Array {
  const xf = new Float64Array(replicas * X_GRID.length * FLAVOURS);
  const column = (name: string) => FLAVOUR_BASIS.findIndex((member) => member.name === name);
  for (let r = 0; r < replicas; r++) {
    X_GRID.forEach((x, i) => {
      const row = (r * X_GRID.length + i) * FLAVOURS;
      const sea = (0.19 + 0.01 * r) * x ** -0.1 * (1 - x) ** 6;
      xf[row + column('U')] = 5.1 * x ** 0.8 * (1 - x) ** 3 + sea * (1 - x);
      xf[row + column('UBAR')] = sea * (1 - x);
      xf[row + column('D')] = 3.06 * x ** 0.8 * (1 - x) ** 4 + sea;
      xf[row + column('DBAR')] = sea;
      xf[row + column('S')] = 0.2 * sea;
      xf[row + column('SBAR')] = 0.2 * sea;
      xf[row + column('GLUON')] = (1.7 + 0.1 * r) * x ** -0.1 * (1 - x) ** 5;
    });
  }
  return xf;
}
