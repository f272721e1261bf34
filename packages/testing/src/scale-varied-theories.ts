import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { syntheticLegacyText } from './legacy-fk-table.js';
import { storedLz4Frame } from './lz4.js';
import { encodeFkTableV1 } from './pineappl-bytes.js';

/**
 * A synthetic set of scale-varied theories for the tests of theory covariances: commondata of
 * two DIS sets (neutral current, charged current) and one theory folder per scale combination,
 * one set's tables legacy, the other's PineAPPL.
 *
 * @packageDocumentation
 */

/** A scale combination (k_F, k_R). */
export type ScaleCombination = readonly [number, number];

/** The x nodes of every synthetic table. */
const X_GRID = [0.01, 0.05, 0.1, 0.3, 0.6];

/** One synthetic set: a DIS observable on Σ and g, read as legacy or PineAPPL tables. */
export interface SyntheticSet {
  readonly setName: string;
  readonly process: string;
  readonly processType: string;
  readonly format: 'legacy' | 'pineappl';
  /** Kinematics (x, Q²) of each point. */
  readonly points: readonly (readonly [number, number])[];
  /** The table's relative change per doubling of the factorisation and the renormalisation scale. */
  readonly slopes: readonly [number, number];
}

/** The two sets: neutral-current (legacy FK table) and charged-current (PineAPPL) DIS. */
export const SCALE_VARIED_SETS: readonly SyntheticSet[] = [
  {
    setName: 'TOY_NC',
    process: 'DIS NC',
    processType: 'DIS_NC',
    format: 'legacy',
    points: [
      [0.02, 20],
      [0.05, 30],
      [0.1, 40],
      [0.2, 50],
    ],
    slopes: [0.1, 0.05],
  },
  {
    setName: 'TOY_CC',
    process: 'DIS CC',
    processType: 'DIS_CC',
    format: 'pineappl',
    points: [
      [0.03, 25],
      [0.08, 35],
      [0.15, 45],
    ],
    slopes: [0.08, -0.03],
  },
];

/**
 * The factor a set's table carries at scales (k_F, k_R): 1 + s_F·log₂ k_F + s_R·log₂ k_R, so the
 * shift of its predictions there is (factor − 1) times the central prediction.
 */
export function scaleFactor(set: SyntheticSet, [kF, kR]: ScaleCombination): number {
  return 1 + set.slopes[0] * Math.log2(kF) + set.slopes[1] * Math.log2(kR);
}

/** The central table's value at point n, x node a, channel c (Σ = 0, g = 1). */
export function centralTableValue(n: number, a: number, c: number): number {
  return (1 + 0.1 * n) * (c === 0 ? 0.5 : 0.2) * (1 + 0.3 * a);
}

function metadataYaml(set: SyntheticSet): string {
  return `setname: ${set.setName}
nnpdf_metadata:
  nnpdf31_process: ${set.process}
  experiment: TOY
implemented_observables:
- observable_name: F2
  process_type: ${set.processType}
  ndata: ${set.points.length}
  kinematic_coverage: [x, Q2, y]
  kinematics:
    variables:
      x: {label: x}
      Q2: {label: Q2}
      y: {label: y}
    file: kinematics.yaml
  data_central: data.yaml
  data_uncertainties: [uncertainties.yaml]
  theory:
    FK_tables:
    - - ${set.setName}_F2
    operation: 'null'
`;
}

function setFiles(set: SyntheticSet): Record<string, string> {
  const central = set.points.map((_, n) => 0.4 + 0.05 * n);
  return {
    'metadata.yaml': metadataYaml(set),
    'data.yaml': `data_central:\n${central.map((value) => `- ${value}`).join('\n')}\n`,
    'kinematics.yaml': `bins:\n${set.points
      .map(
        ([x, q2]) =>
          `- x: {min: null, mid: ${x}, max: null}\n  Q2: {min: null, mid: ${q2}, max: null}\n  y: {min: null, mid: 0.5, max: null}`,
      )
      .join('\n')}\n`,
    'uncertainties.yaml': `definitions:
  stat: {treatment: ADD, type: UNCORR}
  sys_norm: {treatment: MULT, type: CORR}
bins:
${central.map((value) => `- stat: ${0.05 * value}\n  sys_norm: ${0.02 * value}`).join('\n')}
`,
  };
}

/** What a table says of its theory: its id and scales, or the card it was copied with. */
interface TableCard {
  readonly theoryId: number;
  readonly scales: ScaleCombination | undefined;
}

/**
 * A set's FK table file (name and bytes) of a theory at `scales`: the central table times
 * {@link scaleFactor}, with `card` written where NNPDF's tables keep it (a legacy table's
 * TheoryInfo `*ID`, `*XIF` and `*XIR`, the `ID`, `XIF` and `XIR` of a PineAPPL table's `theory`
 * card).
 */
function tableFile(
  set: SyntheticSet,
  scales: ScaleCombination,
  card: TableCard,
): [string, string | Uint8Array] {
  const name = `${set.setName}_F2`;
  const factor = scaleFactor(set, scales);
  const value = (n: number, a: number, c: number) => factor * centralTableValue(n, a, c);
  if (set.format === 'legacy') {
    // legacy DIS flavour order: photon, Σ, g, …
    const rows = set.points.flatMap((_, n) =>
      X_GRID.map((__, a) => [
        n,
        a,
        0,
        value(n, a, 0),
        value(n, a, 1),
        ...Array<number>(11).fill(0),
      ]),
    );
    const flavourMap = [Array.from({ length: 14 }, (_, f) => (f === 1 || f === 2 ? 1 : 0))];
    const text = syntheticLegacyText({
      hadronic: false,
      ndata: set.points.length,
      xGrid: X_GRID,
      flavourMap,
      rows,
      theoryId: card.theoryId,
      ...(card.scales === undefined ? {} : { scales: card.scales }),
    });
    return [`FK_${name}.dat`, text];
  }
  const bytes = encodeFkTableV1({
    hadronic: false,
    channels: [[100], [21]],
    xGrid: X_GRID,
    q02: 1.65 ** 2,
    bins: set.points.map((_, n) => ({ limits: [n, n + 1], normalization: 1 })),
    values: set.points.flatMap((_, n) => [0, 1].map((c) => X_GRID.map((__, a) => value(n, a, c)))),
    metadata: [
      [
        'theory',
        JSON.stringify(
          card.scales === undefined
            ? { ID: card.theoryId }
            : { ID: card.theoryId, XIF: card.scales[0], XIR: card.scales[1] },
        ),
      ],
    ],
  });
  return [`${name}.pineappl.lz4`, storedLz4Frame(bytes)];
}

/** The folders of {@link writeScaleVariedTheories}. */
export interface ScaleVariedTheories {
  readonly folder: string;
  readonly commondata: string;
  readonly theories: string;
  /** The theory of each scale combination, in the prescriptions' order (the central first). */
  readonly theoryIds: readonly number[];
  readonly combinations: readonly ScaleCombination[];
  /** A runcard fitting both sets with the given `theorycovmatconfig` lines appended. */
  readonly runcard: (theorycovmatconfig: string) => string;
  readonly remove: () => Promise<void>;
}

/** Options of {@link writeScaleVariedTheories}. */
export interface ScaleVariedTheoriesOptions {
  /**
   * What the tables say of their theory: `own` (default) its id and scales, `none` its id
   * alone, `central` the central theory's id and scales (tables copied from it, card and all).
   */
  readonly tableCards?: 'own' | 'none' | 'central';
}

/**
 * Writes a commondata folder with {@link SCALE_VARIED_SETS} and a theory folder per scale
 * combination (ids 9000, 9001, … in the order given, the central (1, 1) first), each set's table
 * scaled by {@link scaleFactor} at that combination and saying its theory as `tableCards` asks.
 */
export async function writeScaleVariedTheories(
  combinations: readonly ScaleCombination[],
  { tableCards = 'own' }: ScaleVariedTheoriesOptions = {},
): Promise<ScaleVariedTheories> {
  const folder = await mkdtemp(join(tmpdir(), 'partonfit-scale-varied-'));
  const commondata = join(folder, 'commondata');
  const theories = join(folder, 'theories');
  for (const set of SCALE_VARIED_SETS) {
    await mkdir(join(commondata, set.setName), { recursive: true });
    for (const [name, text] of Object.entries(setFiles(set))) {
      await writeFile(join(commondata, set.setName, name), text);
    }
  }
  const theoryIds = combinations.map((_, c) => 9000 + c);
  for (const [c, scales] of combinations.entries()) {
    const fastkernel = join(theories, `theory_${theoryIds[c]}`, 'fastkernel');
    await mkdir(fastkernel, { recursive: true });
    for (const set of SCALE_VARIED_SETS) {
      const card: TableCard =
        tableCards === 'central'
          ? { theoryId: theoryIds[0], scales: combinations[0] }
          : { theoryId: theoryIds[c], scales: tableCards === 'own' ? scales : undefined };
      const [name, content] = tableFile(set, scales, card);
      await writeFile(join(fastkernel, name), content);
    }
  }
  const runcard = (theorycovmatconfig: string) => `
dataset_inputs:
${SCALE_VARIED_SETS.map((set) => `  - { dataset: ${set.setName}_F2, frac: 0.75 }`).join('\n')}
theory: { theoryid: ${theoryIds[0]} }
data_paths: { theories: ${theories}, commondata: ${commondata} }
trvlseed: 3
nnseed: 2
mcseed: 1
diagonal_basis: false
parameters:
  nodes_per_layer: [8, 8, 8]
  activation_per_layer: [tanh, tanh, linear]
  optimizer: { optimizer_name: Nadam }
  epochs: 20
  stopping_patience: 0.1
fitting:
  fitbasis: EVOL
  basis:
${['sng', 'g', 'v', 'v3', 'v8', 't3', 't8', 't15'].map((fl) => `    - { fl: ${fl}, smallx: [1.0, 1.1], largex: [1.5, 3.0] }`).join('\n')}
${theorycovmatconfig}`;
  return {
    folder,
    commondata,
    theories,
    theoryIds,
    combinations,
    runcard,
    remove: () => rm(folder, { recursive: true, force: true }),
  };
}
