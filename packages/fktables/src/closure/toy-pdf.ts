import {
  FLAVOUR_BASIS,
  FLAVOUR_TO_EVOLUTION,
  InvalidArgumentError,
  rotateFlavours,
  type LhaFlavour,
} from '@partonfit/core';

/**
 * The Les Houches benchmark toy PDF at its input scale (Giele et al., hep-ph/0204316, and
 * Dittmar et al., hep-ph/0511119; also APFEL's and eko's `toyLH`): the known PDF of the embedded
 * closure fit.
 *
 * At Q0² = 2 GeV²:
 * x·u_v = 5.1072 x^0.8 (1−x)³, x·d_v = 3.06432 x^0.8 (1−x)⁴, x·g = 1.7 x^−0.1 (1−x)⁵,
 * x·d̄ = 0.1939875 x^−0.1 (1−x)⁶, x·ū = (1−x) x·d̄, x·s = x·s̄ = 0.2 x(ū + d̄);
 * no charm, bottom, top or photon. The normalisations make ∫u_v = 2, ∫d_v = 1 and the momentum
 * sum ∫x(Σ + g) = 1.
 *
 * @packageDocumentation
 */

/** The toy PDF's input scale Q0 in GeV: Q0² = 2 GeV². */
export const TOY_PDF_Q0 = Math.SQRT2;

const FLAVOURS = FLAVOUR_BASIS.length;

function flavourPosition(name: LhaFlavour): number {
  return FLAVOUR_BASIS.findIndex((member) => member.name === name);
}

const POSITIONS = {
  U: flavourPosition('U'),
  UBAR: flavourPosition('UBAR'),
  D: flavourPosition('D'),
  DBAR: flavourPosition('DBAR'),
  S: flavourPosition('S'),
  SBAR: flavourPosition('SBAR'),
  GLUON: flavourPosition('GLUON'),
};

function checkXGrid(xGrid: Float64Array): void {
  const outside = xGrid.findIndex((x) => !(x > 0 && x <= 1));
  if (outside !== -1) {
    throw new InvalidArgumentError({
      argument: 'xGrid',
      problem: `x = ${xGrid[outside]} at position ${outside} is outside (0, 1]`,
    });
  }
}

/**
 * x·f of the toy PDF in the flavour (LHA) basis at Q0 = √2 GeV.
 *
 * @param xGrid - the x points, shape `(x)`, each in (0, 1]
 * @returns shape `(x, flavour)` row-major in the order of core's `FLAVOUR_BASIS`
 *   (`TBAR, BBAR, CBAR, SBAR, UBAR, DBAR, GLUON, D, U, S, C, B, T, PHT`)
 * @throws InvalidArgumentError - for an x outside (0, 1]
 */
export function toyPdfFlavourXf(xGrid: Float64Array): Float64Array {
  checkXGrid(xGrid);
  const xf = new Float64Array(xGrid.length * FLAVOURS);
  xGrid.forEach((x, a) => {
    const upValence = 5.1072 * x ** 0.8 * (1 - x) ** 3;
    const downValence = 3.06432 * x ** 0.8 * (1 - x) ** 4;
    const gluon = 1.7 * x ** -0.1 * (1 - x) ** 5;
    const downBar = 0.1939875 * x ** -0.1 * (1 - x) ** 6;
    const upBar = (1 - x) * downBar;
    const strange = 0.2 * (upBar + downBar);
    const row = a * FLAVOURS;
    xf[row + POSITIONS.U] = upValence + upBar;
    xf[row + POSITIONS.UBAR] = upBar;
    xf[row + POSITIONS.D] = downValence + downBar;
    xf[row + POSITIONS.DBAR] = downBar;
    xf[row + POSITIONS.S] = strange;
    xf[row + POSITIONS.SBAR] = strange;
    xf[row + POSITIONS.GLUON] = gluon;
  });
  return xf;
}

/**
 * x·f of the toy PDF in the 14-flavour evolution basis at Q0 = √2 GeV, the basis FK tables
 * contract with: a `PdfAtXGrid` for {@link predictFkTable} and {@link predictObservable}.
 *
 * @param xGrid - the x points, shape `(x)`, each in (0, 1]
 * @returns shape `(x, flavour)` row-major in the order of core's `EVOLUTION_BASIS`
 *   (`γ, Σ, g, V, V3, V8, V15, V24, V35, T3, T8, T15, T24, T35`)
 * @throws InvalidArgumentError - for an x outside (0, 1]
 */
export function toyPdfXf(xGrid: Float64Array): Float64Array {
  return rotateFlavours(FLAVOUR_TO_EVOLUTION, toyPdfFlavourXf(xGrid));
}
