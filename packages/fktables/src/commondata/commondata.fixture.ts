import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommonData, DatasetKind, Uncertainty, UncertaintyTreatment } from './commondata.js';

/** One uncertainty of a {@link syntheticCommonData}: absolute values per point. */
export interface SyntheticUncertainty {
  readonly name?: string;
  readonly treatment: UncertaintyTreatment;
  readonly type: string;
  readonly values: readonly number[];
}

/**
 * A hand-built dataset for tests: MULT uncertainties get `relative = values / central`; the
 * kinematics default to DIS `x, Q2, y` with every point at x = 0.1, Q² = 10, y = 0.5.
 */
export function syntheticCommonData(options: {
  readonly name: string;
  readonly central: readonly number[];
  readonly uncertainties: readonly SyntheticUncertainty[];
  readonly processType?: string;
  readonly kind?: DatasetKind;
  readonly kinematics?: readonly (readonly [number, number, number])[];
  readonly variables?: readonly [string, string, string];
}): CommonData {
  const ndata = options.central.length;
  const central = Float64Array.from(options.central);
  const kinematics = options.kinematics ?? options.central.map(() => [0.1, 10, 0.5] as const);
  return {
    name: options.name,
    setName: options.name,
    observableName: undefined,
    variant: undefined,
    legacyName: undefined,
    processType: options.processType ?? 'DIS_NC',
    kind: options.kind ?? 'data',
    experiment: undefined,
    nnpdf31Process: undefined,
    ndata,
    central,
    kinematics: {
      variables: options.variables ?? ['x', 'Q2', 'y'],
      values: Float64Array.from(kinematics.flat()),
    },
    uncertainties: options.uncertainties.map((uncertainty, k): Uncertainty => {
      const base = {
        name: uncertainty.name ?? `sys_${k}`,
        treatment: uncertainty.treatment,
        type: uncertainty.type,
        values: Float64Array.from(uncertainty.values),
      };
      return uncertainty.treatment === 'ADD'
        ? base
        : { ...base, relative: base.values.map((value, i) => value / central[i]) };
    }),
    theory: undefined,
    positivityRequired: true,
    pointIndices: Uint32Array.from({ length: ndata }, (_, i) => i),
    files: [],
  };
}

/** The files of a small valid YAML set `TOY_NC_10GEV` with observable `F2` (2 points). */
export const TOY_SET_FILES: Readonly<Record<string, string>> = {
  'metadata.yaml': `setname: TOY_NC_10GEV
nnpdf_metadata:
  experiment: TOY
implemented_observables:
- observable_name: F2
  process_type: DIS_NC
  ndata: 2
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
    - - TOY_F2_A
      - TOY_F2_B
    operation: 'null'
  variants:
    alt:
      data_uncertainties: [uncertainties_alt.yaml]
      experiment: OTHER
`,
  'data.yaml': `data_central:
- 0.5
- 0.25
`,
  'kinematics.yaml': `bins:
- x: {min: null, mid: 0.1, max: null}
  Q2: {min: null, mid: 10.0, max: null}
  y: {min: null, mid: 0.5, max: null}
- x: {min: 0.2, mid: null, max: 0.4}
  Q2: {min: null, mid: 20.0, max: null}
  y: {min: null, mid: 0.6, max: null}
`,
  'uncertainties.yaml': `definitions:
  stat:
    description: statistical
    treatment: ADD
    type: UNCORR
  sys_norm:
    description: normalisation
    treatment: MULT
    type: CORR
bins:
- stat: 0.01
  sys_norm: 0.05
- stat: 0.02
  sys_norm: 0.025
`,
  'uncertainties_alt.yaml': `definitions:
  stat:
    treatment: ADD
    type: UNCORR
bins:
- stat: 0.03
- stat: 0.04
`,
};

/**
 * Writes a temporary commondata folder holding the toy set `TOY_NC_10GEV`, with `replace`
 * replacing (or, with `null`, removing) some of its files. Returns the folder and a cleanup.
 */
export async function writeToySet(
  replace: Readonly<Record<string, string | null>> = {},
): Promise<{ folder: string; setFolder: string; remove: () => Promise<void> }> {
  const folder = await mkdtemp(join(tmpdir(), 'partonfit-commondata-'));
  const setFolder = join(folder, 'TOY_NC_10GEV');
  await mkdir(setFolder);
  const files = { ...TOY_SET_FILES, ...replace };
  for (const [name, text] of Object.entries(files)) {
    if (text !== null) await writeFile(join(setFolder, name), text);
  }
  return { folder, setFolder, remove: () => rm(folder, { recursive: true, force: true }) };
}
