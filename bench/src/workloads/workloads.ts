import type { SyntheticDatasetSpec, SyntheticLagrangeSpec, WorkloadSpec } from './workload-spec.js';

/** The 9 evolution-basis flavours NNPDF4.0's DIS tables use: Σ, g, V, V3, V8, V15, T3, T8, T15. */
export const NNPDF40_DIS_CHANNELS: readonly number[] = [1, 2, 3, 4, 5, 6, 9, 10, 11];

const dis = (name: string, ndata: number, experiment = name): SyntheticDatasetSpec => ({
  name,
  kind: 'dis',
  ndata,
  experiment,
});

const hadronic = (name: string, ndata: number, experiment = name): SyntheticDatasetSpec => ({
  name,
  kind: 'hadronic',
  ndata,
  experiment,
});

/**
 * NNPDF4.0's DIS data in size (3,000 points): NMC, SLAC, BCDMS, CHORUS, NuTeV dimuon, the HERA
 * combination (one correlated block of 1,145 points) and HERA heavy flavours — the point counts
 * after cuts, rounded to 3,000.
 */
const DIS_DATASETS: readonly SyntheticDatasetSpec[] = [
  dis('NMCPD', 121),
  dis('NMC', 204),
  dis('SLACP', 33),
  dis('SLACD', 34),
  dis('BCDMSP', 333, 'BCDMS'),
  dis('BCDMSD', 248, 'BCDMS'),
  dis('CHORUSNU', 416, 'CHORUS'),
  dis('CHORUSNB', 327, 'CHORUS'),
  dis('NTVNUDMN', 39, 'NUTEV'),
  dis('NTVNBDMN', 37, 'NUTEV'),
  dis('HERACOMBNCEP920', 377, 'HERACOMB'),
  dis('HERACOMBNCEP575', 254, 'HERACOMB'),
  dis('HERACOMBNCEP460', 204, 'HERACOMB'),
  dis('HERACOMBNCEP820', 70, 'HERACOMB'),
  dis('HERACOMBNCEM', 159, 'HERACOMB'),
  dis('HERACOMBCCEP', 39, 'HERACOMB'),
  dis('HERACOMBCCEM', 42, 'HERACOMB'),
  dis('HERACOMB_SIGMARED_C', 37),
  dis('HERACOMB_SIGMARED_B', 26),
];

/**
 * NNPDF4.0's hadronic data in size (1,500 points): fixed-target Drell–Yan, Tevatron, and LHC
 * W/Z, Z pT, jets, top, W+jet, photons; datasets of one LHC measurement share a block.
 */
const HADRONIC_DATASETS: readonly SyntheticDatasetSpec[] = [
  hadronic('DYE866R', 15),
  hadronic('DYE866P', 89),
  hadronic('DYE605', 85),
  hadronic('CDFZRAP_NEW', 28),
  hadronic('D0ZRAP', 28),
  hadronic('D0WMASY', 9, 'D0W'),
  hadronic('D0WEASY', 8, 'D0W'),
  hadronic('ATLASWZRAP36PB', 30, 'ATLASWZ'),
  hadronic('ATLAS_WZ_TOT_13TEV', 3, 'ATLASWZ'),
  hadronic('ATLASWZRAP11CC', 46, 'ATLASWZ11'),
  hadronic('ATLASWZRAP11CF', 15, 'ATLASWZ11'),
  hadronic('ATLASZHIGHMASS49FB', 5),
  hadronic('ATLASLOMASSDY11EXT', 6),
  hadronic('ATLASDY2D8TEV', 48),
  hadronic('ATLASZPT8TEVMDIST', 64, 'ATLASZPT8TEV'),
  hadronic('ATLASZPT8TEVYDIST', 44, 'ATLASZPT8TEV'),
  hadronic('ATLAS_1JET_8TEV_R06', 171),
  hadronic('ATLAS_TTB_DIFF_8TEV_LJ_TRAPNORM', 4, 'ATLASTTB8'),
  hadronic('ATLAS_TTB_DIFF_8TEV_LJ_TTRAPNORM', 4, 'ATLASTTB8'),
  hadronic('ATLAS_TTBARTOT', 3),
  hadronic('ATLAS_WP_JET_8TEV_PT', 15, 'ATLASWJET'),
  hadronic('ATLAS_WM_JET_8TEV_PT', 15, 'ATLASWJET'),
  hadronic('ATLASPHT15_SF', 53),
  hadronic('ATLAS_SINGLETOP', 12),
  hadronic('CMSWEASY840PB', 11),
  hadronic('CMSWMASY47FB', 11),
  hadronic('CMSDY2D11', 110),
  hadronic('CMSWMU8TEV', 22),
  hadronic('CMSZDIFF12', 28),
  hadronic('CMS_1JET_8TEV', 185),
  hadronic('CMS_TTBAR_2D_DIFF_MTT_TRAP_NORM', 16),
  hadronic('CMS_TTBARTOT', 3),
  hadronic('CMS_SINGLETOP', 13),
  hadronic('LHCBZ940PB', 9, 'LHCB7'),
  hadronic('LHCBWZMU7TEV', 29, 'LHCB7'),
  hadronic('LHCBZEE2FB', 17, 'LHCB8'),
  hadronic('LHCBWZMU8TEV', 30, 'LHCB8'),
  hadronic('LHCB_Z_13TEV_DIMUON', 16, 'LHCB13'),
  hadronic('LHCB_Z_13TEV_DIELECTRON', 15, 'LHCB13'),
  hadronic('ATLAS_2JET_7TEV_R06', 90),
  hadronic('CMS_2JET_7TEV', 54),
  hadronic('CMS_Z_PT_13TEV', 41),
];

const positivity = (name: string, channels: readonly number[]): SyntheticLagrangeSpec => ({
  name,
  ndata: 20,
  channels,
  maxLambda: 1e6,
});

const integrability = (name: string, channel: number): SyntheticLagrangeSpec => ({
  name,
  ndata: 4,
  channels: [channel],
  maxLambda: 1e2,
});

const F2_LIKE = [1, 2, 9, 10, 11];
const QUARK_LIKE = [1, 3, 4, 5, 9, 10, 11];

/** NNPDF4.0's 14 positivity sets of 20 points and 5 integrability sets of 4: 300 points. */
const LAGRANGE_SETS = {
  positivity: [
    positivity('POSF2U', F2_LIKE),
    positivity('POSF2DW', F2_LIKE),
    positivity('POSF2S', F2_LIKE),
    positivity('POSFLL', F2_LIKE),
    positivity('POSDYU', QUARK_LIKE),
    positivity('POSDYD', QUARK_LIKE),
    positivity('POSDYS', QUARK_LIKE),
    positivity('POSF2C', F2_LIKE),
    positivity('POSXUQ', QUARK_LIKE),
    positivity('POSXUB', QUARK_LIKE),
    positivity('POSXDQ', QUARK_LIKE),
    positivity('POSXDB', QUARK_LIKE),
    positivity('POSXSQ', QUARK_LIKE),
    positivity('POSXGL', [2]),
  ],
  integrability: [
    integrability('INTEGXT8', 10),
    integrability('INTEGXT3', 9),
    integrability('INTEGXV', 3),
    integrability('INTEGXV3', 4),
    integrability('INTEGXV8', 5),
  ],
} as const;

/**
 * `nnpdf40`: a global fit's shapes — one 50-node x-grid for every table; 3,000 DIS points (9
 * active flavours); 1,500 hadronic points (50 × 50 x pairs, 40 luminosity channels drawn per
 * table, 28–35 once the step merges mirrored pairs, 477 MB in all); 300
 * positivity and integrability points; block-diagonal covariance by experiment (largest block
 * 1,145 points); NNPDF4.0's network and the 100-point Gauss integration grid of the trainer.
 */
export const NNPDF40_WORKLOAD: WorkloadSpec = {
  name: 'nnpdf40',
  description:
    'NNPDF4.0-sized global fit: 3,000 DIS points (9 flavours), 1,500 hadronic points (50×50 x, 40 channels, 31.5 on average once mirrored pairs merge), 300 positivity/integrability points, 50-node x-grid',
  seed: 4_000,
  xGrid: { xMin: 1e-7, xMax: 0.9, nodes: 50 },
  disChannels: NNPDF40_DIS_CHANNELS,
  hadronicChannels: 40,
  datasets: [...DIS_DATASETS, ...HADRONIC_DATASETS],
  ...LAGRANGE_SETS,
};

/** `dis`: the DIS part of {@link NNPDF40_WORKLOAD} alone, with the same positivity and integrability. */
export const DIS_WORKLOAD: WorkloadSpec = {
  ...NNPDF40_WORKLOAD,
  name: 'dis',
  description:
    'the DIS part of nnpdf40 alone: 3,000 DIS points (9 flavours), 300 positivity/integrability points, 50-node x-grid',
  datasets: DIS_DATASETS,
};

/**
 * `nnpdf40-sparse`: {@link NNPDF40_WORKLOAD} with the zero blocks of real hadronic tables. Each
 * data point's values are zero where `x1 · x2 < τₙ`; on this workload's shared grid the τₙ,
 * log-uniform in [10⁻¹⁰, 10⁻⁵], zero 6–42 % of each point's (x1, x2) plane, as kinematic limits
 * do on a real table's own grid (the ATLAS tt̄ table of theory 200: 16 % of its 30 × 30 plane).
 * Its dense twin `nnpdf40` does the same arithmetic on a kernel that skips nothing, so the ratio
 * of their hadronic components is the gain of skipping the zeros.
 */
export const NNPDF40_SPARSE_WORKLOAD: WorkloadSpec = {
  ...NNPDF40_WORKLOAD,
  name: 'nnpdf40-sparse',
  description:
    'nnpdf40 with kinematic zero blocks in the hadronic tables (6–42 % of each point’s x1 × x2 plane)',
  hadronicKinematics: { minTau: 1e-10, maxTau: 1e-5 },
};

/** The benchmark workloads by name. */
export const WORKLOADS: Readonly<Record<string, WorkloadSpec>> = {
  nnpdf40: NNPDF40_WORKLOAD,
  'nnpdf40-sparse': NNPDF40_SPARSE_WORKLOAD,
  dis: DIS_WORKLOAD,
};

/** The workloads the naive variants' ratios run on by default: the dense ones. */
export const RATIO_WORKLOADS: readonly string[] = ['nnpdf40', 'dis'];
