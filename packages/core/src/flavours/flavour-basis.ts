import type { BasisFlavour } from './evolution-basis.js';

/**
 * The flavour (LHA) basis in n3fit's `.exportgrid` column order:
 * `TBAR, BBAR, CBAR, SBAR, UBAR, DBAR, GLUON, D, U, S, C, B, T, PHT`, with PDG ids.
 */
export const FLAVOUR_BASIS: readonly BasisFlavour[] = [
  { name: 'TBAR', label: 't̄', pid: -6 },
  { name: 'BBAR', label: 'b̄', pid: -5 },
  { name: 'CBAR', label: 'c̄', pid: -4 },
  { name: 'SBAR', label: 's̄', pid: -3 },
  { name: 'UBAR', label: 'ū', pid: -2 },
  { name: 'DBAR', label: 'd̄', pid: -1 },
  { name: 'GLUON', label: 'g', pid: 21 },
  { name: 'D', label: 'd', pid: 1 },
  { name: 'U', label: 'u', pid: 2 },
  { name: 'S', label: 's', pid: 3 },
  { name: 'C', label: 'c', pid: 4 },
  { name: 'B', label: 'b', pid: 5 },
  { name: 'T', label: 't', pid: 6 },
  { name: 'PHT', label: 'γ', pid: 22 },
];

/** The name of a flavour-basis (LHA) flavour, as in `.exportgrid` labels. */
export type LhaFlavour =
  | 'TBAR'
  | 'BBAR'
  | 'CBAR'
  | 'SBAR'
  | 'UBAR'
  | 'DBAR'
  | 'GLUON'
  | 'D'
  | 'U'
  | 'S'
  | 'C'
  | 'B'
  | 'T'
  | 'PHT';

/** The position of a flavour-basis parton in {@link FLAVOUR_BASIS}, by PDG id; -1 if absent. */
export function flavourIndexOfPid(pid: number): number {
  return FLAVOUR_BASIS.findIndex((member) => member.pid === pid);
}
