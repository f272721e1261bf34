import type { PerturbativeOrder } from '../theory-card.js';
import { addKernels, type Kernel, type SplittingKernels } from './kernel.js';
import { s2Function, ZETA2, ZETA3 } from './polylog.js';

const CF = 4 / 3;
const CA = 3;

/**
 * The one-loop splitting functions P^(0) (expansion in a = αs/4π):
 * P_ns = 4CF/(1 − x)₊ − 2CF(1 + x) + 3CF·δ(1 − x), P_qg = 2nf(x² + (1 − x)²),
 * P_gq = 4CF(1/x − 1 + x/2), P_gg = 4CA/(1 − x)₊ + 4CA(1/x − 2 + x − x²) + β0·δ(1 − x).
 */
function leadingOrder(nf: number): SplittingKernels {
  const ns: Kernel = { regular: (x) => -2 * CF * (1 + x), plus: 4 * CF, delta: 3 * CF };
  return {
    nsPlus: ns,
    nsMinus: ns,
    nsValence: ns,
    qq: ns,
    qg: { regular: (x) => 2 * nf * (1 - 2 * x + 2 * x * x), plus: 0, delta: 0 },
    gq: { regular: (x) => 4 * CF * (1 / x - 1 + 0.5 * x), plus: 0, delta: 0 },
    gg: {
      regular: (x) => 4 * CA * (1 / x - 2 + x - x * x),
      plus: 4 * CA,
      delta: (11 / 3) * CA - (2 / 3) * nf,
    },
  };
}

/**
 * The two-loop splitting functions P^(1) (Curci, Furmanski, Petronzio; Ellis, Stirling, Webber's
 * form with S2), expansion in a = αs/4π. `sign` +1 gives P_ns⁺, −1 P_ns⁻ (the x → −x piece).
 */
function nonSingletNlo(nf: number, sign: 1 | -1): Kernel {
  const soft = (-40 / 9) * CF * nf + (268 / 9) * CA * CF - 8 * ZETA2 * CA * CF;
  return {
    regular: (x) => {
      const lnx = Math.log(x);
      const ln1mx = Math.log1p(-x);
      const pqq = 2 / (1 - x) - 1 - x;
      const pqqMinusX = 2 / (1 + x) - 1 + x;
      const full =
        2 * CF * nf * ((-10 / 9 - (2 / 3) * lnx) * pqq - (4 / 3) * (1 - x)) +
        4 *
          CA *
          CF *
          ((67 / 18 + (11 / 6) * lnx + 0.5 * lnx * lnx - ZETA2) * pqq +
            (20 / 3) * (1 - x) +
            lnx * (1 + x)) +
        4 *
          CF *
          CF *
          ((-1.5 * lnx - 2 * ln1mx * lnx) * pqq -
            5 * (1 - x) -
            0.5 * lnx * lnx * (1 + x) -
            lnx * (1.5 + 3.5 * x)) +
        sign *
          4 *
          CF *
          (CF - CA / 2) *
          (2 * pqqMinusX * s2Function(x) + 4 * (1 - x) + 2 * lnx * (1 + x));
      return full - soft / (1 - x);
    },
    plus: soft,
    delta:
      (-1 / 3) * CF * nf +
      1.5 * CF * CF +
      (17 / 6) * CA * CF +
      24 * ZETA3 * CF * CF -
      12 * ZETA3 * CA * CF -
      (8 / 3) * ZETA2 * CF * nf -
      12 * ZETA2 * CF * CF +
      (44 / 3) * ZETA2 * CA * CF,
  };
}

function nextToLeadingOrder(nf: number): SplittingKernels {
  const nsPlus = nonSingletNlo(nf, 1);
  const nsMinus = nonSingletNlo(nf, -1);
  const pureSinglet: Kernel = {
    regular: (x) => {
      const lnx = Math.log(x);
      return (
        nf *
        CF *
        (-8 +
          24 * x -
          (224 / 9) * x * x +
          80 / (9 * x) +
          4 * lnx +
          20 * lnx * x +
          (32 / 3) * lnx * x * x -
          4 * lnx * lnx * (1 + x))
      );
    },
    plus: 0,
    delta: 0,
  };
  const softG = (-40 / 9) * CA * nf + (268 / 9) * CA * CA - 8 * ZETA2 * CA * CA;
  return {
    nsPlus,
    nsMinus,
    nsValence: nsMinus,
    qq: addKernels(nsPlus, pureSinglet),
    qg: {
      regular: (x) => {
        const lnx = Math.log(x);
        const ln1mx = Math.log1p(-x);
        const pqg = x * x + (1 - x) ** 2;
        const pqgMinusX = x * x + (1 + x) ** 2;
        return (
          2 *
            CF *
            nf *
            (4 +
              4 * ln1mx +
              (10 - 4 * (ln1mx - lnx) + 2 * (lnx - ln1mx) ** 2 - 4 * ZETA2) * pqg -
              lnx * (1 - 4 * x) -
              lnx * lnx * (1 - 2 * x) -
              9 * x) +
          2 *
            CA *
            nf *
            (182 / 9 -
              4 * ln1mx +
              (-218 / 9 + 4 * ln1mx - 2 * ln1mx * ln1mx + (44 / 3) * lnx - lnx * lnx + 2 * ZETA2) *
                pqg +
              2 * pqgMinusX * s2Function(x) +
              40 / (9 * x) +
              (14 / 9) * x -
              lnx * lnx * (2 + 8 * x) +
              lnx * (-38 / 3 + (136 / 3) * x))
        );
      },
      plus: 0,
      delta: 0,
    },
    gq: {
      regular: (x) => {
        const lnx = Math.log(x);
        const ln1mx = Math.log1p(-x);
        const pgq = (1 + (1 - x) ** 2) / x;
        const pgqMinusX = -(1 + (1 + x) ** 2) / x;
        return (
          2 * CF * nf * (-(20 / 9 + (4 / 3) * ln1mx) * pgq - (4 / 3) * x) +
          4 *
            CF *
            CF *
            (-2.5 -
              (3 * ln1mx + ln1mx * ln1mx) * pgq -
              lnx * lnx * (1 - x / 2) -
              3.5 * x -
              2 * ln1mx * x +
              lnx * (2 + 3.5 * x)) +
          4 *
            CA *
            CF *
            (28 / 9 +
              pgq *
                (0.5 +
                  (11 / 3) * ln1mx +
                  ln1mx * ln1mx -
                  2 * ln1mx * lnx +
                  0.5 * lnx * lnx -
                  ZETA2) +
              pgqMinusX * s2Function(x) +
              (65 / 18) * x +
              2 * ln1mx * x +
              (44 / 9) * x * x +
              lnx * lnx * (4 + x) -
              lnx * (12 + 5 * x + (8 / 3) * x * x))
        );
      },
      plus: 0,
      delta: 0,
    },
    gg: {
      regular: (x) => {
        const lnx = Math.log(x);
        const ln1mx = Math.log1p(-x);
        const pgg = 1 / (1 - x) + 1 / x - 2 + x * (1 - x);
        const pggMinusX = 1 / (1 + x) - 1 / x - 2 - x * (1 + x);
        const full =
          2 *
            CF *
            nf *
            (-16 +
              4 / (3 * x) +
              8 * x +
              (20 / 3) * x * x -
              lnx * lnx * (2 + 2 * x) -
              lnx * (6 + 10 * x)) +
          2 *
            CA *
            nf *
            (2 - (20 / 9) * pgg - 2 * x - (4 / 3) * lnx * (1 + x) + (26 / 9) * (x * x - 1 / x)) +
          4 *
            CA *
            CA *
            (pgg * (67 / 9 - 4 * ln1mx * lnx + lnx * lnx - 2 * ZETA2) +
              2 * pggMinusX * s2Function(x) +
              13.5 * (1 - x) +
              4 * lnx * lnx * (1 + x) +
              (67 / 9) * (x * x - 1 / x) -
              lnx * (25 / 3 - (11 / 3) * x + (44 / 3) * x * x));
        return full - softG / (1 - x);
      },
      plus: softG,
      delta: -2 * CF * nf - (8 / 3) * CA * nf + (32 / 3) * CA * CA + 12 * ZETA3 * CA * CA,
    },
  };
}

/**
 * The three-loop splitting functions P^(2) in the parametrisations of Moch, Vermaseren and Vogt
 * (Nucl. Phys. B688 (2004) 101, B691 (2004) 129), accurate to better than 10⁻³; expansion in
 * a = αs/4π.
 */
function nextToNextToLeadingOrder(nf: number): SplittingKernels {
  const d81 = 1 / 81;
  const nf2 = nf * nf;
  const nsNf2 = (x: number, lnx: number) =>
    nf2 *
    (((32 * x * lnx) / (1 - x)) * (3 * lnx + 10) +
      64 +
      (48 * lnx * lnx + 352 * lnx + 384) * (1 - x)) *
    d81;
  const nsPlusSoft = 1174.898 - nf * 183.187 - nf2 * (64 / 81);
  const nsPlus: Kernel = {
    regular: (x) => {
      const lnx = Math.log(x);
      const ln1mx = Math.log1p(-x);
      return (
        1641.1 -
        3135 * x +
        243.6 * x * x -
        522.1 * x ** 3 +
        128 * d81 * lnx ** 4 +
        2400 * d81 * lnx ** 3 +
        294.9 * lnx * lnx +
        1258 * lnx +
        714.1 * ln1mx +
        lnx * ln1mx * (563.9 + 256.8 * lnx) +
        nf *
          (-197.0 +
            381.1 * x +
            72.94 * x * x +
            44.79 * x ** 3 -
            192 * d81 * lnx ** 3 -
            2608 * d81 * lnx * lnx -
            152.6 * lnx -
            5120 * d81 * ln1mx -
            56.66 * lnx * ln1mx -
            1.497 * x * lnx ** 3) +
        nsNf2(x, lnx)
      );
    },
    plus: nsPlusSoft,
    delta: 1295.624 - 0.24 - nf * (173.938 - 0.011) + nf2 * 1.13067,
  };
  const nsMinus: Kernel = {
    regular: (x) => {
      const lnx = Math.log(x);
      const ln1mx = Math.log1p(-x);
      return (
        1860.2 -
        3505 * x +
        297.0 * x * x -
        433.2 * x ** 3 +
        116 * d81 * lnx ** 4 +
        2880 * d81 * lnx ** 3 +
        399.2 * lnx * lnx +
        1465.2 * lnx +
        714.1 * ln1mx +
        lnx * ln1mx * (684.0 + 251.2 * lnx) +
        nf *
          (-216.62 +
            406.5 * x +
            77.89 * x * x +
            34.76 * x ** 3 -
            256 * d81 * lnx ** 3 -
            3216 * d81 * lnx * lnx -
            172.69 * lnx -
            5120 * d81 * ln1mx -
            65.43 * lnx * ln1mx -
            1.136 * x * lnx ** 3) +
        nsNf2(x, lnx)
      );
    },
    plus: nsPlusSoft,
    delta: 1295.624 - 0.154 - nf * (173.938 - 0.005) + nf2 * 1.13067,
  };
  const d27 = 1 / 27;
  const nsSea: Kernel = {
    regular: (x) => {
      const lnx = Math.log(x);
      const x1 = 1 - x;
      const ln1mx = Math.log1p(-x);
      return (
        nf *
        (x1 * (151.49 + 44.51 * x - 43.12 * x * x + 4.82 * x ** 3) +
          40 * d27 * lnx ** 4 -
          80 * d27 * lnx ** 3 +
          6.892 * lnx * lnx +
          178.04 * lnx +
          lnx * ln1mx * (-173.1 + 46.18 * lnx) +
          x1 * ln1mx * (-163.9 / x - 7.208 * x))
      );
    },
    plus: 0,
    delta: 0,
  };
  const pureSinglet: Kernel = {
    regular: (x) => {
      const lnx = Math.log(x);
      const ln1mx = Math.log1p(-x);
      const first =
        (-3584 / (27 * x)) * lnx -
        506.0 / x +
        (160 / 27) * lnx ** 4 -
        (400 / 9) * lnx ** 3 +
        131.4 * lnx * lnx -
        661.6 * lnx -
        5.926 * ln1mx ** 3 -
        9.751 * ln1mx * ln1mx -
        72.11 * ln1mx +
        177.4 +
        392.9 * x -
        101.4 * x * x -
        57.04 * lnx * ln1mx;
      const second =
        256 / (81 * x) +
        (32 / 27) * lnx ** 3 +
        17.89 * lnx * lnx +
        61.75 * lnx +
        1.778 * ln1mx * ln1mx +
        5.944 * ln1mx +
        100.1 -
        125.2 * x +
        49.26 * x * x -
        12.59 * x ** 3 -
        1.889 * lnx * ln1mx;
      return (1 - x) * nf * (first + nf * second);
    },
    plus: 0,
    delta: 0,
  };
  const qg: Kernel = {
    regular: (x) => {
      const lnx = Math.log(x);
      const ln1mx = Math.log1p(-x);
      const first =
        (-896 / (3 * x)) * lnx -
        1268.3 / x +
        (536 / 27) * lnx ** 4 -
        (44 / 3) * lnx ** 3 +
        881.5 * lnx * lnx +
        424.9 * lnx +
        (100 / 27) * ln1mx ** 4 -
        (70 / 9) * ln1mx ** 3 -
        120.5 * ln1mx * ln1mx +
        104.42 * ln1mx +
        2522 -
        3316 * x +
        2126 * x * x +
        lnx * ln1mx * (1823 - 25.22 * lnx) -
        252.5 * x * lnx ** 3;
      const second =
        1112 / (243 * x) -
        (16 / 9) * lnx ** 4 -
        (376 / 27) * lnx ** 3 -
        90.8 * lnx * lnx -
        254.0 * lnx +
        (20 / 27) * ln1mx ** 3 +
        (200 / 27) * ln1mx * ln1mx -
        5.496 * ln1mx -
        252.0 +
        158.0 * x +
        145.4 * x * x -
        139.28 * x ** 3 -
        lnx * ln1mx * (53.09 + 80.616 * lnx) -
        98.07 * x * lnx * lnx +
        11.7 * x * lnx ** 3;
      return nf * (first + nf * second);
    },
    plus: 0,
    delta: 0,
  };
  const gq: Kernel = {
    regular: (x) => {
      const lnx = Math.log(x);
      const ln1mx = Math.log1p(-x);
      const zeroth =
        (1189.3 * lnx) / x +
        6163.1 / x -
        (4288 / 81) * lnx ** 4 +
        (1568 / 9) * lnx ** 3 -
        1794 * lnx * lnx +
        4033 * lnx +
        (400 / 81) * ln1mx ** 4 +
        (2200 / 27) * ln1mx ** 3 +
        606.3 * ln1mx * ln1mx +
        2193 * ln1mx -
        4307 +
        489.3 * x +
        1452 * x * x +
        146.0 * x ** 3 -
        447.3 * lnx * lnx * ln1mx -
        972.9 * x * lnx * lnx;
      const first =
        (71.082 * lnx) / x -
        46.41 / x +
        (128 / 27) * lnx ** 4 +
        (704 / 81) * lnx ** 3 +
        20.39 * lnx * lnx +
        174.8 * lnx -
        (400 / 81) * ln1mx ** 3 -
        68.069 * ln1mx * ln1mx -
        296.7 * ln1mx -
        183.8 +
        33.35 * x -
        277.9 * x * x +
        108.6 * x * lnx * lnx -
        49.68 * lnx * ln1mx;
      const second =
        (64 * (-1 / x + 1 + 2 * x) +
          320 * ln1mx * (1 / x - 1 + 0.8 * x) +
          96 * ln1mx * ln1mx * (1 / x - 1 + 0.5 * x)) /
        27;
      return zeroth + nf * (first + nf * second);
    },
    plus: 0,
    delta: 0,
  };
  const gg: Kernel = {
    regular: (x) => {
      const lnx = Math.log(x);
      const ln1mx = Math.log1p(-x);
      const zeroth =
        (2675.8 * lnx) / x +
        14214 / x -
        144 * lnx ** 4 +
        72 * lnx ** 3 -
        7471 * lnx * lnx +
        274.4 * lnx +
        3589 * ln1mx -
        20852 +
        3968 * x -
        3363 * x * x +
        4848 * x ** 3 +
        lnx * ln1mx * (7305 + 8757 * lnx);
      const first =
        (157.27 * lnx) / x +
        182.96 / x +
        (512 / 27) * lnx ** 4 +
        (832 / 9) * lnx ** 3 +
        491.3 * lnx * lnx +
        1541 * lnx -
        320.0 * ln1mx -
        350.2 +
        755.7 * x -
        713.8 * x * x +
        559.3 * x ** 3 +
        lnx * ln1mx * (26.15 - 808.7 * lnx);
      const second =
        -680 / (243 * x) -
        (32 / 27) * lnx ** 3 +
        9.68 * lnx * lnx -
        3.422 * lnx -
        13.878 +
        153.4 * x -
        187.7 * x * x +
        52.75 * x ** 3 -
        lnx * ln1mx * (115.6 - 85.25 * x + 63.23 * lnx);
      return zeroth + nf * (first + nf * second);
    },
    plus: 2643.521 - nf * 412.172 - nf2 * (16 / 9),
    delta: 4425.448 + 0.446 - nf * (528.72 + 0.003) + nf2 * 6.463,
  };
  return {
    nsPlus,
    nsMinus,
    nsValence: addKernels(nsMinus, nsSea),
    qq: addKernels(nsPlus, pureSinglet),
    qg,
    gq,
    gg,
  };
}

/**
 * The QCD splitting functions P^(k) of one order for nf active flavours, in the expansion
 * P = Σ_k a^(k+1)·P^(k), a = αs/(4π), as kernels of the evolution basis. LO and NLO are exact;
 * NNLO uses Moch, Vermaseren and Vogt's parametrisations (accurate to better than 10⁻³).
 *
 * @param order - k: 0 (P^(0)), 1 (P^(1)) or 2 (P^(2))
 * @param nf - active flavours
 */
export function splittingKernels(order: PerturbativeOrder, nf: number): SplittingKernels {
  if (order === 0) return leadingOrder(nf);
  if (order === 1) return nextToLeadingOrder(nf);
  return nextToNextToLeadingOrder(nf);
}
