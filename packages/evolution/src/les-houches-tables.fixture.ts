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
 * The toy PDF at μ0² = 2 GeV² as the tables give it (Giele et al., hep-ph/0204316, Table 2).
 */
export const TOY_PDF_TABLE: Partial<Record<TableColumn, readonly number[]>> = {
  u_v: [
    1.2829e-5, 8.0943e-5, 5.107e-4, 3.2215e-3, 2.0271e-2, 1.2448e-1, 5.9008e-1, 6.6861e-1,
    3.6666e-1, 1.0366e-1, 4.6944e-3,
  ],
  d_v: [
    7.6972e-6, 4.8566e-5, 3.0642e-4, 1.9327e-3, 1.2151e-2, 7.3939e-2, 3.1864e-1, 2.8082e-1, 1.1e-1,
    1.8659e-2, 2.8166e-4,
  ],
  L_m: [
    9.7224e-8, 7.7227e-7, 6.1341e-6, 4.8698e-5, 3.8474e-4, 2.8946e-3, 1.2979e-2, 7.7227e-3,
    1.6243e-3, 1.0259e-4, 1.7644e-7,
  ],
  L_p: [
    3.889, 3.0891, 2.4536, 1.9478, 1.5382, 1.152, 4.9319e-1, 8.7524e-2, 9.7458e-3, 3.8103e-4,
    4.3129e-7,
  ],
  s_p: [
    7.7779e-1, 6.1782e-1, 4.9072e-1, 3.8957e-1, 3.0764e-1, 2.3041e-1, 9.8638e-2, 1.7505e-2,
    1.9492e-3, 7.6207e-5, 8.6259e-8,
  ],
  g: [
    8.5202, 6.7678, 5.3756, 4.2681, 3.375, 2.5623, 1.2638, 3.2228e-1, 5.6938e-2, 4.281e-3, 1.718e-5,
  ],
};

/**
 * The μR = μF parts of the LO, NLO and NNLO tables, as published (L_+ = 2x(ū + d̄) in both papers'
 * numbers). The two typos of Table 15 (x·d_v and x·g at x = 1e-4, wrong exponents) are
 * corrected as NNPDF's eko lists them (`src/ekomark/benchmark/external/LHA.yaml`, from which the
 * numbers were transcribed).
 */
export const LES_HOUCHES_TABLES: readonly LesHouchesTable[] = [
  {
    source: 'Giele et al., hep-ph/0204316, Table 2 (LO, VFNS)',
    order: 0,
    scheme: 'VFNS',
    columns: {
      u_v: [
        5.8771e-5, 3.3933e-4, 1.9006e-3, 1.0186e-2, 5.0893e-2, 2.208e-1, 5.7166e-1, 3.7597e-1,
        1.3284e-1, 2.2643e-2, 4.2047e-4,
      ],
      d_v: [
        3.4963e-5, 2.0129e-4, 1.1229e-3, 5.9819e-3, 2.9576e-2, 1.2497e-1, 2.8334e-1, 1.4044e-1,
        3.4802e-2, 3.5134e-3, 2.1529e-5,
      ],
      L_m: [
        7.8233e-7, 5.1142e-6, 3.2249e-5, 1.9345e-4, 1.073e-3, 4.9985e-3, 1.0428e-2, 3.2629e-3,
        4.2031e-4, 1.5468e-5, 1.0635e-8,
      ],
      L_p: [
        1.0181e2, 5.1182e1, 2.4693e1, 1.1406e1, 5.0424, 2.0381, 4.0496e-1, 3.9592e-2, 2.8066e-3,
        6.7201e-5, 3.4998e-8,
      ],
      s_p: [
        4.9815e1, 2.4725e1, 1.1659e1, 5.1583, 2.0973, 7.2625e-1, 1.1596e-1, 1.0363e-2, 7.1707e-4,
        1.7278e-5, 9.8394e-9,
      ],
      c_p: [
        4.9088e1, 2.4148e1, 1.1201e1, 4.7953, 1.8147, 5.3107e-1, 5.8288e-2, 4.074e-3, 2.5958e-4,
        6.3958e-6, 4.733e-9,
      ],
      b_p: [
        4.607e1, 2.2239e1, 1.0037e1, 4.1222, 1.4582, 3.8106e-1, 3.5056e-2, 2.2039e-3, 1.3522e-4,
        3.3996e-6, 2.8903e-9,
      ],
      g: [
        1.3272e3, 6.0117e2, 2.5282e2, 9.6048e1, 3.1333e1, 7.7728, 8.4358e-1, 7.8026e-2, 7.4719e-3,
        3.5241e-4, 1.0307e-6,
      ],
    },
  },
  {
    source: 'Giele et al., hep-ph/0204316, Table 2 (LO, FFNS nf = 4)',
    order: 0,
    scheme: 'FFNS',
    columns: {
      u_v: [
        5.7722e-5, 3.3373e-4, 1.8724e-3, 1.0057e-2, 5.0392e-2, 2.1955e-1, 5.7267e-1, 3.7925e-1,
        1.3476e-1, 2.3123e-2, 4.3443e-4,
      ],
      d_v: [
        3.4343e-5, 1.98e-4, 1.1065e-3, 5.9076e-3, 2.9296e-2, 1.2433e-1, 2.8413e-1, 1.4186e-1,
        3.5364e-2, 3.5943e-3, 2.2287e-5,
      ],
      L_m: [
        7.6527e-7, 5.0137e-6, 3.1696e-5, 1.9071e-4, 1.0618e-3, 4.9731e-3, 1.047e-2, 3.3029e-3,
        4.2815e-4, 1.5868e-5, 1.1042e-8,
      ],
      L_p: [
        9.9465e1, 5.0259e1, 2.4378e1, 1.1323e1, 5.0324, 2.0433, 4.0832e-1, 4.0165e-2, 2.8624e-3,
        6.8961e-5, 3.6293e-8,
      ],
      s_p: [
        4.8642e1, 2.4263e1, 1.1501e1, 5.1164, 2.0918, 7.2814e-1, 1.1698e-1, 1.0516e-2, 7.3138e-4,
        1.7725e-5, 1.0192e-8,
      ],
      c_p: [
        4.7914e1, 2.3685e1, 1.1042e1, 4.753, 1.8089, 5.3247e-1, 5.8864e-2, 4.1379e-3, 2.6481e-4,
        6.5549e-6, 4.8893e-9,
      ],
      g: [
        1.3162e3, 6.0008e2, 2.5419e2, 9.7371e1, 3.2078e1, 8.0546, 8.8766e-1, 8.2676e-2, 7.924e-3,
        3.7311e-4, 1.0918e-6,
      ],
    },
  },
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
