import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SeededRandom } from '@partonfit/core';
import {
  interpolationXGrid,
  predictFkTable,
  toyPdfXf,
  type FkTable,
  type HadronicFkTable,
} from '@partonfit/fktables';
import { benchRuncardCard } from '../workloads/bench-runcard.js';
import { streamOf } from '../workloads/build-workload.js';
import {
  STAT_FLOOR_FRACTION,
  STAT_FRACTION,
  SYSTEMATIC_FRACTIONS,
} from '../workloads/synthetic-covariance.js';
import {
  luminosityChannels,
  randomDisTable,
  randomHadronicTable,
} from '../workloads/synthetic-tables.js';
import type { SyntheticDatasetSpec, WorkloadSpec, XGridSpec } from '../workloads/workload-spec.js';
import { legacyFkText } from './legacy-fk-text.js';

/** The theory ID of the synthetic theory folder (`theory_<ID>/fastkernel/`). */
export const SYNTHETIC_THEORY_ID = 4000;

/**
 * The x-grid of the hadronic tables written to disk: 10 nodes, not the step workload's 50. A
 * legacy hadronic row holds all 196 flavour pairs as text (~0.85 kB with 40 channels), so 50 × 50
 * node pairs for 1,500 points would be ~3 GB of text; with 10 nodes and only the pairs with
 * x1·x2 above the threshold (55 of 100, as real tables omit kinematically empty rows) the
 * hadronic tables are ~70 MB, the DIS tables (50 nodes) ~20 MB.
 */
export const HADRONIC_FILE_X_GRID: XGridSpec = { xMin: 1e-5, xMax: 0.9, nodes: 10 };

/** The observable name every synthetic commondata set implements (`<SET>_<OBSERVABLE>`). */
export const SYNTHETIC_OBSERVABLE = 'SYN';

/** What {@link writeSyntheticTheoryFolder} wrote. */
export interface SyntheticTheoryFolder {
  /** The runcard (JSON, which is YAML) naming every dataset, positivity and integrability set. */
  readonly runcardFile: string;
  /** Data points of the measured datasets. */
  readonly points: number;
  /** FK tables written (one per dataset and per positivity or integrability set). */
  readonly tables: number;
  /** Bytes written, all files together. */
  readonly bytes: number;
}

/** Zeroes the node pairs with ix1 + ix2 < nx − 1 (x1·x2 below the observable's threshold). */
function withKinematicThreshold(table: HadronicFkTable): HadronicFkTable {
  const nx = table.xGrid.length;
  const values = Float64Array.from(table.values);
  for (let block = 0; block < values.length / (nx * nx); block++) {
    for (let a = 0; a < nx; a++) {
      for (let b = 0; b < nx - 1 - a; b++) values[(block * nx + a) * nx + b] = 0;
    }
  }
  return { ...table, values };
}

/** The dataset's FK table: random values on its grid, each dataset from its own stream. */
function datasetTable(
  spec: WorkloadSpec,
  dataset: SyntheticDatasetSpec,
  grids: { dis: Float64Array; hadronic: Float64Array },
): FkTable {
  const random = streamOf(spec, `dataset ${dataset.name}`);
  if (dataset.kind === 'dis') {
    return randomDisTable(dataset.name, dataset.ndata, spec.disChannels, grids.dis, random);
  }
  const channels = luminosityChannels(spec.disChannels, spec.hadronicChannels, random);
  return withKinematicThreshold(
    randomHadronicTable(dataset.name, dataset.ndata, channels, grids.hadronic, random),
  );
}

/** A YAML list of numbers under `key`. */
function yamlList(key: string, values: Iterable<number>): string {
  return `${key}:\n${Array.from(values, (value) => `- ${value}`).join('\n')}\n`;
}

/**
 * The kinematics file, in block style as NNPDF writes them: DIS points at x = 0.1,
 * Q² = 100 GeV², y = 0.5 (they pass the DIS cuts), hadronic ones at y = 1, m_Z², √s = 13 TeV.
 */
function kinematicsYaml(dataset: SyntheticDatasetSpec, variables: readonly string[]): string {
  const mids = dataset.kind === 'dis' ? [0.1, 100, 0.5] : [1.0, 8315.0, 13000.0];
  const bin = variables
    .map((name, k) => `  ${name}:\n    min: null\n    mid: ${mids[k]}\n    max: null`)
    .join('\n')
    .replace(/^ /, '-');
  return `bins:\n${Array.from({ length: dataset.ndata }, () => bin).join('\n')}\n`;
}

/**
 * The uncertainties file: a statistical ADD/UNCORR σ_i = 2 % |D_i| + 1 % of the dataset's mean
 * |D|, a MULT normalisation and three ADD shape systematics (sizes {@link SYSTEMATIC_FRACTIONS},
 * shapes uniform in [0.5, 1.5)). They are CORR for an experiment of one dataset and carry the
 * experiment's special name otherwise, so the experiment's datasets form one covariance block.
 */
function uncertaintiesYaml(
  dataset: SyntheticDatasetSpec,
  central: Float64Array,
  shared: boolean,
  random: SeededRandom,
): string {
  const scale = central.reduce((sum, value) => sum + Math.abs(value), 0) / central.length;
  const names = ['stat', ...SYSTEMATIC_FRACTIONS.map((_, k) => `sys_${k}`)];
  const definitions = [
    '  stat:\n    treatment: ADD\n    type: UNCORR',
    ...SYSTEMATIC_FRACTIONS.map(
      (_, k) =>
        `  sys_${k}:\n    treatment: ${k === 0 ? 'MULT' : 'ADD'}\n    type: ${shared ? `${dataset.experiment}_SYS${k}` : 'CORR'}`,
    ),
  ];
  const bins = Array.from(central, (value) => {
    const magnitude = Math.abs(value);
    const sigmas = [
      STAT_FRACTION * magnitude + STAT_FLOOR_FRACTION * scale,
      ...SYSTEMATIC_FRACTIONS.map(
        (fraction, k) => fraction * magnitude * (k === 0 ? 1 : 0.5 + random.uniform()),
      ),
    ];
    return names.map((name, k) => `${k === 0 ? '-' : ' '} ${name}: ${sigmas[k]}`).join('\n');
  });
  return `definitions:\n${definitions.join('\n')}\nbins:\n${bins.join('\n')}\n`;
}

/** The set's `metadata.yaml`: one observable whose theory is the FK table of the same name. */
function metadataYaml(dataset: SyntheticDatasetSpec, variables: readonly string[]): string {
  const processType = dataset.kind === 'dis' ? 'DIS_NC' : 'EWK_RAP';
  return `setname: ${dataset.name}
nnpdf_metadata:
  experiment: ${dataset.experiment}
implemented_observables:
- observable_name: ${SYNTHETIC_OBSERVABLE}
  process_type: ${processType}
  ndata: ${dataset.ndata}
  kinematic_coverage: [${variables.join(', ')}]
  kinematics:
    variables:
${variables.map((name) => `      ${name}: {label: ${name}}`).join('\n')}
    file: kinematics.yaml
  data_central: data.yaml
  data_uncertainties: [uncertainties.yaml]
  theory:
    FK_tables:
    - - ${dataset.name}
    operation: 'null'
`;
}

/**
 * Writes a synthetic theory folder, commondata and runcard of a workload's shapes to `folder`,
 * in the formats `prepareFitInputs` reads:
 * - `theory_<ID>/fastkernel/FK_<NAME>.dat`: one legacy text table per dataset (DIS on the
 *   workload's x-grid; hadronic on {@link HADRONIC_FILE_X_GRID}, node pairs below the x1·x2
 *   threshold omitted) and per positivity or integrability set;
 * - `commondata/<NAME>/`: NNPDF's current YAML format (`metadata.yaml`, `data.yaml`,
 *   `kinematics.yaml`, `uncertainties.yaml`), central values the Les Houches toy PDF through
 *   the table, uncertainties as {@link uncertaintiesYaml}; the dataset is `<NAME>_SYN`;
 * - `runcard.yml`: the workload's runcard (NNPDF4.0's settings, diagonal-basis split) with
 *   `data_paths` and `theory.theoryid` pointing at them.
 *
 * Seeded by the spec: the same spec writes the same bytes.
 */
export async function writeSyntheticTheoryFolder(
  spec: WorkloadSpec,
  folder: string,
): Promise<SyntheticTheoryFolder> {
  const fastkernel = join(folder, `theory_${SYNTHETIC_THEORY_ID}`, 'fastkernel');
  const commondata = join(folder, 'commondata');
  await mkdir(fastkernel, { recursive: true });
  let bytes = 0;
  const write = async (file: string, text: string) => {
    await writeFile(file, text);
    bytes += Buffer.byteLength(text);
  };
  const dis = interpolationXGrid(spec.xGrid);
  const grids = { dis, hadronic: interpolationXGrid(HADRONIC_FILE_X_GRID) };
  const truth = { dis: toyPdfXf(dis), hadronic: toyPdfXf(grids.hadronic) };
  const members = new Map<string, number>();
  for (const dataset of spec.datasets) {
    members.set(dataset.experiment, (members.get(dataset.experiment) ?? 0) + 1);
  }
  let points = 0;
  for (const dataset of spec.datasets) {
    const table = datasetTable(spec, dataset, grids);
    const central = predictFkTable(table, table.hadronic ? truth.hadronic : truth.dis);
    const variables = dataset.kind === 'dis' ? ['x', 'Q2', 'y'] : ['y', 'm_Z2', 'sqrts'];
    const setFolder = join(commondata, dataset.name);
    await mkdir(setFolder, { recursive: true });
    const shared = (members.get(dataset.experiment) ?? 0) > 1;
    const random = streamOf(spec, `uncertainties ${dataset.name}`);
    await write(join(fastkernel, `FK_${dataset.name}.dat`), legacyFkText(table));
    await write(join(setFolder, 'metadata.yaml'), metadataYaml(dataset, variables));
    await write(join(setFolder, 'data.yaml'), yamlList('data_central', central));
    await write(join(setFolder, 'kinematics.yaml'), kinematicsYaml(dataset, variables));
    await write(
      join(setFolder, 'uncertainties.yaml'),
      uncertaintiesYaml(dataset, central, shared, random),
    );
    points += dataset.ndata;
  }
  const lagrange = [...spec.positivity, ...spec.integrability];
  for (const set of lagrange) {
    const random = streamOf(spec, `lagrange ${set.name}`);
    const table = randomDisTable(set.name, set.ndata, set.channels, dis, random);
    await write(join(fastkernel, `FK_${set.name}.dat`), legacyFkText(table));
  }
  const card = {
    ...benchRuncardCard(spec),
    dataset_inputs: spec.datasets.map((dataset) => ({
      dataset: `${dataset.name}_${SYNTHETIC_OBSERVABLE}`,
      frac: 0.75,
    })),
    theory: { theoryid: SYNTHETIC_THEORY_ID },
    data_paths: { theories: '.', commondata: 'commondata' },
  };
  const runcardFile = join(folder, 'runcard.yml');
  await write(runcardFile, `${JSON.stringify(card, null, 1)}\n`);
  return { runcardFile, points, tables: spec.datasets.length + lagrange.length, bytes };
}
