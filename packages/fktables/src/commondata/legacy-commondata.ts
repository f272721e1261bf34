import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { InputFileError } from '@partonfit/core';
import {
  requiresPositivePseudodata,
  type CommonData,
  type DatasetKind,
  type Uncertainty,
  type UncertaintyTreatment,
} from './commondata.js';
import { readLegacyPlottingProcess } from './legacy-plotting.js';

/** Options of {@link loadLegacyCommonData}. */
export interface LoadLegacyCommonDataOptions {
  /**
   * The SYSTYPE file giving each systematic's treatment and type; by default
   * `systypes/SYSTYPE_<SET>_DEFAULT.dat` beside the data file. Needed only when the set has
   * systematics.
   */
  readonly systypeFile?: string;
}

/**
 * The names validphys gives the three kinematic columns of a legacy process type, by the
 * kinematics key the process type starts with (the longest that matches); other process types
 * get `k1, k2, k3`.
 */
const LEGACY_KINEMATIC_VARIABLES: readonly (readonly [
  string,
  readonly [string, string, string],
])[] = [
  ['DIS', ['x', 'Q2', 'y']],
  ['DYP', ['y', 'M2', 'sqrts']],
  ['EWK_RAP', ['etay', 'M2', 'sqrts']],
  ['EWK_PTRAP', ['etay', 'pT2', 'sqrts']],
  ['EWK_PT', ['p_T', 'M2', 'sqrts']],
  ['EWK_MLL', ['M_ll', 'M_ll2', 'sqrts']],
  ['EWJ_RAP', ['etay', 'M2', 'sqrts']],
  ['EWJ_PTRAP', ['etay', 'pT2', 'sqrts']],
  ['EWJ_JRAP', ['etay', 'M2', 'sqrts']],
  ['EWJ_JPT', ['p_T', 'M2', 'sqrts']],
  ['EWJ_PT', ['p_T', 'M2', 'sqrts']],
  ['EWJ_MLL', ['M_ll', 'M_ll2', 'sqrts']],
  ['HQP_YQQ', ['yQQ', 'mu2', 'sqrts']],
  ['HQP_MQQ', ['MQQ', 'mu2', 'sqrts']],
  ['HQP_PTQQ', ['p_TQQ', 'mu2', 'sqrts']],
  ['HQP_YQ', ['yQ', 'mu2', 'sqrts']],
  ['HQP_PTQ', ['p_TQ', 'mu2', 'sqrts']],
  ['HIG_RAP', ['y', 'M_H2', 'sqrts']],
  ['INC', ['0', 'mu2', 'sqrts']],
  ['JET', ['eta', 'pT2', 'sqrts']],
  ['DIJET', ['eta', 'm_12', 'sqrts']],
  ['PHT', ['eta_gamma', 'E_{T,gamma)2', 'sqrts']],
];

/**
 * The kinematics key of a legacy process type, validphys's `get_kinlabel_key`: the longest key
 * the process type starts with (`DIS` for `DIS_NCE`, `EWK_PTRAP` for `EWK_PTRAP_ASY`), or
 * undefined.
 */
export function legacyKinematicsKey(processType: string): string | undefined {
  const matches = LEGACY_KINEMATIC_VARIABLES.filter(([key]) => processType.startsWith(key));
  return matches.reduce<string | undefined>(
    (longest, [key]) => (longest === undefined || key.length > longest.length ? key : longest),
    undefined,
  );
}

/** The kinematic variable names of a legacy process type (see above). */
export function legacyKinematicVariables(processType: string): [string, string, string] {
  const key = legacyKinematicsKey(processType);
  const found = LEGACY_KINEMATIC_VARIABLES.find(([prefix]) => prefix === key);
  return found === undefined ? ['k1', 'k2', 'k3'] : [...found[1]];
}

function kindOfLegacySet(setName: string): DatasetKind {
  if (setName.startsWith('POS')) return 'positivity';
  if (setName.startsWith('INTEG')) return 'integrability';
  return 'data';
}

/** A non-empty line split on whitespace, with its 1-based number. */
interface FieldLine {
  readonly line: number;
  readonly fields: string[];
}

/** The non-empty lines of a text, split on whitespace. */
function fieldLines(text: string): FieldLine[] {
  return text
    .split('\n')
    .map((content, i) => ({ line: i + 1, fields: content.trim().split(/\s+/) }))
    .filter(({ fields }) => fields[0] !== '');
}

function finiteNumber(field: string, file: string, line: number, key: string): number {
  const value = Number(field);
  if (field === '' || !Number.isFinite(value)) {
    throw new InputFileError({
      file,
      line,
      key,
      problem: `expected a finite number, got '${field}'`,
    });
  }
  return value;
}

function count(field: string | undefined, file: string, line: number, key: string): number {
  const value = Number(field);
  if (field === undefined || !Number.isInteger(value) || value < 0) {
    throw new InputFileError({
      file,
      line,
      key,
      problem: `expected a non-negative integer, got '${field ?? ''}'`,
    });
  }
  return value;
}

interface Systype {
  readonly treatment: UncertaintyTreatment;
  readonly type: string;
}

async function readSystypes(file: string, nsys: number): Promise<Systype[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    throw new InputFileError({
      file,
      problem: `cannot read the SYSTYPE file (the set has ${nsys} systematics)`,
      cause,
    });
  }
  const lines = fieldLines(text);
  const header = lines.at(0);
  const declared = count(header?.fields[0], file, header?.line ?? 1, 'nsys');
  if (declared !== nsys || lines.length - 1 !== nsys) {
    throw new InputFileError({
      file,
      line: header?.line ?? 1,
      key: 'nsys',
      problem: `declares ${declared} and lists ${lines.length - 1} systematics, the data file has ${nsys}`,
    });
  }
  return lines.slice(1).map(({ line, fields }, k) => {
    if (fields.length !== 3 || Number(fields[0]) !== k + 1) {
      throw new InputFileError({
        file,
        line,
        problem: `expected '${k + 1} ADD|MULT TYPE', got '${fields.join(' ')}'`,
      });
    }
    if (fields[1] !== 'ADD' && fields[1] !== 'MULT') {
      throw new InputFileError({
        file,
        line,
        key: `sys_${k + 1}`,
        problem: `expected ADD or MULT, got '${fields[1]}'`,
      });
    }
    return { treatment: fields[1], type: fields[2] };
  });
}

/**
 * Loads a dataset in NNPDF's legacy commondata format: `DATA_<SET>.dat` with a header line
 * `<SET> <nsys> <ndata>` and per point `index process kin1 kin2 kin3 data stat` followed by
 * `(add, mult%)` for each systematic; the SYSTYPE file lists per systematic `index ADD|MULT TYPE`.
 *
 * An ADD systematic takes the `add` column; a MULT one the `mult` column, a percentage of the
 * central value (so `values = mult · data / 100`, `relative = mult / 100`), as validphys did.
 * Uncertainties are named `stat`, `sys_1`, `sys_2`, …; the kinematic variables are named from
 * the process type (`x, Q2, y` for DIS). Positivity (`POS…`) and integrability (`INTEG…`) sets
 * are marked as such. The `nnpdf31_process` comes from the set's plotting files beside the data
 * file (`PLOTTING_<SET>.yaml` over `PLOTTINGTYPE_<KIND>.yaml`, see `readLegacyPlottingProcess`),
 * which join `files`; it is undefined when none has one.
 *
 * @param file - the `DATA_<SET>.dat` file
 * @throws InputFileError - with file and line: a header that is not `<SET> <nsys> <ndata>`, a
 *   row with the wrong number of columns, a point count other than ndata, indices out of order,
 *   non-numbers or NaN, a missing or inconsistent SYSTYPE file, an unreadable plotting file
 */
export async function loadLegacyCommonData(
  file: string,
  options: LoadLegacyCommonDataOptions = {},
): Promise<CommonData> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    throw new InputFileError({ file, problem: 'cannot read the commondata file', cause });
  }
  const lines = fieldLines(text);
  const header = lines.at(0);
  const rows = lines.slice(1);
  if (header?.fields.length !== 3) {
    throw new InputFileError({
      file,
      line: header?.line ?? 1,
      problem: 'expected a header line `<SET> <nsys> <ndata>`',
    });
  }
  const setName = header.fields[0];
  const nsys = count(header.fields[1], file, header.line, 'nsys');
  const ndata = count(header.fields[2], file, header.line, 'ndata');
  if (rows.length !== ndata) {
    throw new InputFileError({
      file,
      line: rows.at(-1)?.line ?? header.line,
      key: 'ndata',
      problem: `the header says ${ndata} points, the file has ${rows.length}`,
    });
  }
  const fileSet = /^DATA_(.+)\.dat$/.exec(basename(file))?.[1] ?? setName;
  const systypeFile =
    options.systypeFile ?? join(dirname(file), 'systypes', `SYSTYPE_${fileSet}_DEFAULT.dat`);
  const systypes =
    nsys === 0 && !existsSync(systypeFile) ? [] : await readSystypes(systypeFile, nsys);

  const columns = 7 + 2 * nsys;
  const central = new Float64Array(ndata);
  const kinematics = new Float64Array(ndata * 3);
  const stat = new Float64Array(ndata);
  const values = systypes.map(() => new Float64Array(ndata));
  const relative = systypes.map((systype) =>
    systype.treatment === 'MULT' ? new Float64Array(ndata) : undefined,
  );
  const processType = rows[0]?.fields[1] ?? '';
  rows.forEach(({ line, fields }, i) => {
    if (fields.length !== columns) {
      throw new InputFileError({
        file,
        line,
        problem: `expected ${columns} columns (7 + 2 · ${nsys} systematics), got ${fields.length}`,
      });
    }
    if (Number(fields[0]) !== i + 1) {
      throw new InputFileError({
        file,
        line,
        key: 'index',
        problem: `expected point ${i + 1}, got '${fields[0]}'`,
      });
    }
    if (fields[1] !== processType) {
      throw new InputFileError({
        file,
        line,
        key: 'process',
        problem: `expected ${processType}, got '${fields[1]}'`,
      });
    }
    for (let k = 0; k < 3; k++)
      kinematics[3 * i + k] = finiteNumber(fields[2 + k], file, line, `kin${k + 1}`);
    central[i] = finiteNumber(fields[5], file, line, 'data');
    stat[i] = finiteNumber(fields[6], file, line, 'stat');
    systypes.forEach((_, k) => {
      const add = finiteNumber(fields[7 + 2 * k], file, line, `sys_${k + 1} add`);
      const percent = finiteNumber(fields[8 + 2 * k], file, line, `sys_${k + 1} mult`);
      const fraction = relative[k];
      if (fraction === undefined) {
        values[k][i] = add;
      } else {
        fraction[i] = percent / 100;
        values[k][i] = fraction[i] * central[i];
      }
    });
  });
  const uncertainties: Uncertainty[] = [
    { name: 'stat', treatment: 'ADD', type: 'UNCORR', values: stat },
    ...systypes.map((systype, k): Uncertainty => {
      const fraction = relative[k];
      const name = `sys_${k + 1}`;
      return fraction === undefined
        ? { name, ...systype, values: values[k] }
        : { name, ...systype, values: values[k], relative: fraction };
    }),
  ];
  const plotting = await readLegacyPlottingProcess(
    dirname(file),
    fileSet,
    legacyKinematicsKey(processType),
  );
  return {
    name: setName,
    setName,
    observableName: undefined,
    variant: undefined,
    legacyName: undefined,
    processType,
    kind: kindOfLegacySet(setName),
    experiment: undefined,
    nnpdf31Process: plotting.nnpdf31Process,
    ndata,
    central,
    kinematics: { variables: legacyKinematicVariables(processType), values: kinematics },
    uncertainties,
    theory: undefined,
    positivityRequired: requiresPositivePseudodata(processType),
    pointIndices: Uint32Array.from({ length: ndata }, (_, i) => i),
    files: [file, ...(systypes.length > 0 ? [systypeFile] : []), ...plotting.files],
  };
}
