import { FLAVOUR_BASIS, type LhaFlavour } from '@partonfit/core';
import type { PerturbativeOrder } from './theory-card.js';

const FLAVOURS = FLAVOUR_BASIS.length;

/** The x points of the Les Houches benchmark tables. */
export const TABLE_X: readonly number[] = [
  1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 0.1, 0.3, 0.5, 0.7, 0.9,
];

/**
 * The x-grid the benchmark evolves on: 10 log-spaced knots per decade from 1e-8 to 0.1, 40
 * linear ones from 0.1 to 1, 20 more between 0.9 and 0.999 even in ln(1 − x) (the toy's sea
 * falls like (1 − x)⁷, so x·f at x = 0.9 needs knots close to 1), and the table's x points
 * themselves (knots closer than 2% in ln x to one of them dropped), so the tables are read off
 * knots without interpolation. 130 knots.
 */
export function lesHouchesXGrid(): Float64Array {
  const logKnots = Array.from({ length: 70 }, (_, k) => 10 ** (-8 + k / 10));
  const linearKnots = Array.from({ length: 41 }, (_, i) => 0.1 + (0.9 * i) / 40);
  const nearOne = Array.from({ length: 20 }, (_, k) => 1 - 0.1 * 10 ** (-(k + 1) / 10));
  const apart = (x: number) => TABLE_X.every((tableX) => Math.abs(Math.log(x / tableX)) > 0.02);
  return Float64Array.from(
    [...[...logKnots, ...linearKnots, ...nearOne].filter(apart), ...TABLE_X].sort((a, b) => a - b),
  );
}

/**
 * The interpolation degree of the benchmark: with the default 4 the sea at x = 0.9 is off by
 * 1e-3 however dense the grid; 6 brings it to 2e-4.
 */
export const LES_HOUCHES_DEGREE = 6;

/**
 * The benchmark's toy proton at μ0² = 2 GeV² (Giele et al., hep-ph/0204316, eq. 31; Dittmar
 * et al., hep-ph/0511119, eq. 4.57) on the grid, (1, x, flavours) in `FLAVOUR_BASIS` order:
 * x·u_v = 5.1072 x^0.8 (1−x)³, x·d_v = 3.06432 x^0.8 (1−x)⁴, x·g = 1.7 x^−0.1 (1−x)⁵,
 * x·d̄ = 0.1939875 x^−0.1 (1−x)⁶, x·ū = (1−x) x·d̄, x·s = x·s̄ = 0.2 x(ū + d̄), no heavy quarks.
 */
export function lesHouchesToyPdf(xGrid: Float64Array): Float64Array {
  const xf = new Float64Array(xGrid.length * FLAVOURS);
  const column = (name: LhaFlavour) => FLAVOUR_BASIS.findIndex((member) => member.name === name);
  xGrid.forEach((x, i) => {
    const row = i * FLAVOURS;
    const upValence = 5.1072 * x ** 0.8 * (1 - x) ** 3;
    const downValence = 3.06432 * x ** 0.8 * (1 - x) ** 4;
    const antiDown = 0.1939875 * x ** -0.1 * (1 - x) ** 6;
    const antiUp = (1 - x) * antiDown;
    const strange = 0.2 * (antiUp + antiDown);
    xf[row + column('U')] = upValence + antiUp;
    xf[row + column('UBAR')] = antiUp;
    xf[row + column('D')] = downValence + antiDown;
    xf[row + column('DBAR')] = antiDown;
    xf[row + column('S')] = strange;
    xf[row + column('SBAR')] = strange;
    xf[row + column('GLUON')] = 1.7 * x ** -0.1 * (1 - x) ** 5;
  });
  return xf;
}

/** The flavour-number scheme of a table. */
export type LesHouchesScheme = 'VFNS' | 'FFNS';

/**
 * The benchmark's theory card: μ0 = mc = √2 GeV, αs(μ0) = 0.35, mb = 4.5 GeV, mt = 175 GeV,
 * iterated (exact) solution with the exact αs. In the VFNS the evolution starts with 3 flavours
 * at the charm threshold and αs(μ0) is the 3-flavour value (`nfref: 3`); in the FFNS 4 flavours
 * (charm, vanishing at μ0, an input: `IC: 1`) evolve with a 4-flavour αs.
 */
export function lesHouchesCardText(order: PerturbativeOrder, scheme: LesHouchesScheme): string {
  const flavourScheme =
    scheme === 'FFNS' ? 'FNS: FFNS\nNfFF: 4\nIC: 1\n' : 'FNS: ZM-VFNS\nIC: 0\nnfref: 3\n';
  return `PTO: ${order}
${flavourScheme}ModEv: EXA
MaxNfAs: 6
MaxNfPdf: 6
Q0: ${Math.SQRT2}
alphas: 0.35
Qref: ${Math.SQRT2}
HQ: POLE
mc: ${Math.SQRT2}
kcThr: 1.0
mb: 4.5
kbThr: 1.0
mt: 175
ktThr: 1.0
`;
}

/** A column of the tables: a combination of x·f in the flavour basis. */
export type TableColumn = 'u_v' | 'd_v' | 'L_m' | 'L_p' | 's_v' | 's_p' | 'c_p' | 'b_p' | 'g';

/** What each column holds: Σ coefficient · x·f over the flavours named. */
export const COLUMN_FLAVOURS: Readonly<Record<TableColumn, readonly [LhaFlavour, number][]>> = {
  u_v: [
    ['U', 1],
    ['UBAR', -1],
  ],
  d_v: [
    ['D', 1],
    ['DBAR', -1],
  ],
  L_m: [
    ['DBAR', 1],
    ['UBAR', -1],
  ],
  L_p: [
    ['DBAR', 2],
    ['UBAR', 2],
  ],
  s_v: [
    ['S', 1],
    ['SBAR', -1],
  ],
  s_p: [
    ['S', 1],
    ['SBAR', 1],
  ],
  c_p: [
    ['C', 1],
    ['CBAR', 1],
  ],
  b_p: [
    ['B', 1],
    ['BBAR', 1],
  ],
  g: [['GLUON', 1]],
};

/** One published table: x·f at μF² = μR² = 10⁴ GeV² at the {@link TABLE_X} points. */
export interface LesHouchesTable {
  /** Where the numbers come from: paper and table. */
  readonly source: string;
  /** The perturbative order of the evolution. */
  readonly order: PerturbativeOrder;
  /** The flavour-number scheme. */
  readonly scheme: LesHouchesScheme;
  /** The table's columns, each (x) at the {@link TABLE_X} points. */
  readonly columns: Partial<Record<TableColumn, readonly number[]>>;
}

/**
 * The μR = μF parts of the NLO and NNLO tables, as published (L_+ = 2x(ū + d̄) in both papers'
 * numbers). The two typos of Table 15 (x·d_v and x·g at x = 1e-4, wrong exponents) are
 * corrected as NNPDF's eko lists them (`src/ekomark/benchmark/external/LHA.yaml`, from which the
 * numbers were transcribed).
 */
export const LES_HOUCHES_TABLES: readonly LesHouchesTable[] = [
  {
    source: 'Giele et al., hep-ph/0204316, Table 4 (NLO, VFNS, μR = μF)',
    order: 1,
    scheme: 'VFNS',
    columns: {
      u_v: [
        1.0927e-4, 5.5533e-4, 2.7419e-3, 1.3039e-2, 5.8507e-2, 2.3128e-1, 5.5324e-1, 3.5129e-1,
        1.213e-1, 2.0101e-2, 3.5232e-4,
      ],
      d_v: [
        6.4125e-5, 3.2498e-4, 1.5989e-3, 7.5664e-3, 3.3652e-2, 1.2978e-1, 2.7252e-1, 1.3046e-1,
        3.1564e-2, 3.0932e-3, 1.7855e-5,
      ],
      L_m: [
        4.3925e-6, 1.9829e-5, 8.5701e-5, 3.5582e-4, 1.4329e-3, 5.3472e-3, 9.9709e-3, 3.0061e-3,
        3.7719e-4, 1.344e-5, 8.68e-9,
      ],
      L_p: [
        1.3787e2, 6.9157e1, 3.2996e1, 1.4822e1, 6.1772, 2.25, 3.9099e-1, 3.5463e-2, 2.3775e-3,
        5.2605e-5, 2.028e-8,
      ],
      s_p: [
        6.7857e1, 3.3723e1, 1.5819e1, 6.8739, 2.6726, 8.4161e-1, 1.1425e-1, 9.1084e-3, 5.7606e-4,
        1.2166e-5, 3.896e-9,
      ],
      c_p: [
        6.7139e1, 3.3153e1, 1.5367e1, 6.5156, 2.3949, 6.5235e-1, 6.0071e-2, 3.3595e-3, 1.6761e-4,
        2.7408e-6, -2.666e-10,
      ],
      b_p: [
        6.0071e1, 2.886e1, 1.2892e1, 5.1969, 1.7801, 4.3894e-1, 3.5441e-2, 1.9039e-3, 1.0021e-4,
        2.0095e-6, 5.819e-10,
      ],
      g: [
        1.1167e3, 5.2289e2, 2.2753e2, 8.9513e1, 3.0245e1, 7.7491, 8.5586e-1, 7.9625e-2, 7.7265e-3,
        3.7574e-4, 1.1954e-6,
      ],
    },
  },
  {
    source: 'Giele et al., hep-ph/0204316, Table 3 (NLO, FFNS nf = 4, μR = μF)',
    order: 1,
    scheme: 'FFNS',
    columns: {
      u_v: [
        1.0616e-4, 5.4177e-4, 2.687e-3, 1.2841e-2, 5.7926e-2, 2.3026e-1, 5.5452e-1, 3.5393e-1,
        1.2271e-1, 2.0429e-2, 3.6096e-4,
      ],
      d_v: [
        6.2328e-5, 3.1719e-4, 1.5677e-3, 7.4558e-3, 3.3337e-2, 1.2928e-1, 2.7336e-1, 1.3158e-1,
        3.1967e-2, 3.1473e-3, 1.8317e-5,
      ],
      L_m: [
        4.244e-6, 1.9241e-5, 8.3575e-5, 3.4911e-4, 1.4162e-3, 5.3251e-3, 1.0011e-2, 3.0362e-3,
        3.8265e-4, 1.3701e-5, 8.923e-9,
      ],
      L_p: [
        1.3598e2, 6.8396e1, 3.2728e1, 1.4746e1, 6.1648, 2.2527, 3.9336e-1, 3.5848e-2, 2.4126e-3,
        5.3622e-5, 2.092e-8,
      ],
      s_p: [
        6.6913e1, 3.3342e1, 1.5685e1, 6.8355, 2.6659, 8.422e-1, 1.1489e-1, 9.203e-3, 5.8424e-4,
        1.2393e-5, 4.039e-9,
      ],
      c_p: [
        6.6195e1, 3.2771e1, 1.5231e1, 6.4769, 2.3878, 6.5246e-1, 6.0351e-2, 3.389e-3, 1.6955e-4,
        2.7807e-6, -2.405e-10,
      ],
      g: [
        1.1483e3, 5.3911e2, 2.3528e2, 9.2872e1, 3.1502e1, 8.1066, 8.9867e-1, 8.3451e-2, 8.0473e-3,
        3.8721e-4, 1.2127e-6,
      ],
    },
  },
  {
    source: 'Dittmar et al., hep-ph/0511119, Table 15 (NNLO, VFNS, μR = μF)',
    order: 2,
    scheme: 'VFNS',
    columns: {
      u_v: [
        1.5978e-4, 7.1787e-4, 3.1907e-3, 1.4023e-2, 6.0019e-2, 2.3244e-1, 5.4993e-1, 3.4622e-1,
        1.1868e-1, 1.9486e-2, 3.3522e-4,
      ],
      d_v: [
        1.0699e-4, 4.5929e-4, 1.9532e-3, 8.2749e-3, 3.4519e-2, 1.3e-1, 2.7035e-1, 1.2833e-1,
        3.0811e-2, 2.9901e-3, 1.6933e-5,
      ],
      L_m: [
        6.009e-6, 2.6569e-5, 1.1116e-4, 4.3744e-4, 1.6296e-3, 5.61e-3, 9.9596e-3, 2.9572e-3,
        3.676e-4, 1.2957e-5, 8.209e-9,
      ],
      L_p: [
        1.3916e2, 7.171e1, 3.4732e1, 1.5617e1, 6.4173, 2.2778, 3.8526e-1, 3.46e-2, 2.3198e-3,
        5.2352e-5, 2.574e-8,
      ],
      s_p: [
        6.8509e1, 3.5003e1, 1.669e1, 7.2747, 2.7954, 8.5749e-1, 1.123e-1, 8.841e-3, 5.6309e-4,
        1.2504e-5, 6.856e-9,
      ],
      c_p: [
        6.6929e1, 3.3849e1, 1.5875e1, 6.7244, 2.4494, 6.6746e-1, 6.4466e-2, 4.0134e-3, 2.3752e-4,
        5.6038e-6, 4.337e-9,
      ],
      b_p: [
        5.7438e1, 2.8332e1, 1.2896e1, 5.2597, 1.8139, 4.5073e-1, 3.728e-2, 2.1047e-3, 1.2004e-4,
        2.8888e-6, 2.679e-9,
      ],
      g: [
        9.9694e2, 4.8817e2, 2.2012e2, 8.8804e1, 3.0404e1, 7.7912, 8.5266e-1, 7.8898e-2, 7.6398e-3,
        3.708e-4, 1.1721e-6,
      ],
    },
  },
  {
    source: 'Dittmar et al., hep-ph/0511119, Table 14 (NNLO, FFNS nf = 4, μR = μF)',
    order: 2,
    scheme: 'FFNS',
    columns: {
      u_v: [
        1.5287e-4, 6.9176e-4, 3.0981e-3, 1.3722e-2, 5.916e-2, 2.3078e-1, 5.5177e-1, 3.5071e-1,
        1.2117e-1, 2.0077e-2, 3.5111e-4,
      ],
      d_v: [
        1.0244e-4, 4.4284e-4, 1.8974e-3, 8.1019e-3, 3.405e-2, 1.2919e-1, 2.7165e-1, 1.3025e-1,
        3.1528e-2, 3.0886e-3, 1.7783e-5,
      ],
      L_m: [
        5.7018e-6, 2.541e-5, 1.0719e-4, 4.2558e-4, 1.6008e-3, 5.5688e-3, 1.0023e-2, 3.0098e-3,
        3.7742e-4, 1.3434e-5, 8.651e-9,
      ],
      L_p: [
        1.319e2, 6.8499e1, 3.3471e1, 1.5204e1, 6.323, 2.2752, 3.9019e-1, 3.5358e-2, 2.3867e-3,
        5.4244e-5, 2.695e-8,
      ],
      s_v: [
        3.1437e-5, 9.4279e-5, 2.279e-4, 3.6644e-4, 1.4479e-4, -5.7311e-4, -3.0627e-4, -3.1891e-5,
        -2.7215e-6, -1.0106e-7, -1.476e-10,
      ],
      s_p: [
        6.4877e1, 3.3397e1, 1.6059e1, 7.067, 2.7474, 8.5502e-1, 1.1386e-1, 9.048e-3, 5.7965e-4,
        1.2936e-5, 7.132e-9,
      ],
      c_p: [
        6.4161e1, 3.2828e1, 1.5607e1, 6.7097, 2.4704, 6.6623e-1, 5.9773e-2, 3.3061e-3, 1.717e-4,
        3.5304e-6, 2.99e-9,
      ],
      g: [
        9.9763e2, 4.9124e2, 2.2297e2, 9.0668e1, 3.1349e1, 8.1381, 9.0563e-1, 8.4186e-2, 8.1126e-3,
        3.8948e-4, 1.2136e-6,
      ],
    },
  },
];
