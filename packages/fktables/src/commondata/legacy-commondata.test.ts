import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputFileError } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import { legacyKinematicVariables, loadLegacyCommonData } from './legacy-commondata.js';
import { loadCommonData } from './load-commondata.js';

const LEGACY = join(SHARED_DATA, 'commondata_legacy');
const COMMONDATA = join(SHARED_DATA, 'commondata');
const hasShared =
  hasSharedData('commondata_legacy/DATA_SLACP.dat', 'legacy commondata') &&
  hasSharedData('commondata/SLAC_NC_NOTFIXED_P/metadata.yaml', 'real commondata');

const TOY_DATA = `TOYSET\t2\t2
   1\tDIS_NCE\t1.0e-01\t1.0e+01\t5.0e-01\t5.0e-01\t1.0e-02\t2.0e-02\t4.0e+00\t1.0e-02\t2.0e+00\t
   2\tDIS_NCE\t2.0e-01\t2.0e+01\t6.0e-01\t2.5e-01\t2.0e-02\t3.0e-02\t1.2e+01\t5.0e-03\t2.0e+00\t
`;
const TOY_SYSTYPE = `2
1    ADD    CORR
2    MULT    TOYNORM
`;

/**
 * Writes `DATA_TOYSET.dat` (and a SYSTYPE file unless null, and `plotting` files by name) to a
 * temporary folder and loads it.
 */
async function loadToy(
  data: string,
  systype: string | null = TOY_SYSTYPE,
  plotting: Readonly<Record<string, string>> = {},
) {
  const folder = await mkdtemp(join(tmpdir(), 'partonfit-legacy-'));
  try {
    await writeFile(join(folder, 'DATA_TOYSET.dat'), data);
    for (const [name, text] of Object.entries(plotting)) await writeFile(join(folder, name), text);
    if (systype !== null) {
      await mkdir(join(folder, 'systypes'));
      await writeFile(join(folder, 'systypes', 'SYSTYPE_TOYSET_DEFAULT.dat'), systype);
    }
    return await loadLegacyCommonData(join(folder, 'DATA_TOYSET.dat'));
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

async function inputError(promise: Promise<unknown>): Promise<InputFileError> {
  const error: unknown = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(InputFileError.isInstance(error)).toBe(true);
  return error as InputFileError;
}

describe('loadLegacyCommonData: the layout', () => {
  it('should read points, kinematics and (add, mult%) pairs by their SYSTYPE', async () => {
    const data = await loadToy(TOY_DATA);
    expect(data).toMatchObject({
      name: 'TOYSET',
      processType: 'DIS_NCE',
      ndata: 2,
      kind: 'data',
      theory: undefined,
    });
    expect(data.kinematics.variables).toEqual(['x', 'Q2', 'y']);
    expect(Array.from(data.kinematics.values)).toEqual([0.1, 10, 0.5, 0.2, 20, 0.6]);
    expect(Array.from(data.central)).toEqual([0.5, 0.25]);
    const [stat, corr, norm] = data.uncertainties;
    expect(stat).toMatchObject({ name: 'stat', treatment: 'ADD', type: 'UNCORR' });
    expect(Array.from(stat.values)).toEqual([0.01, 0.02]);
    // ADD takes the absolute column.
    expect(corr).toMatchObject({ name: 'sys_1', treatment: 'ADD', type: 'CORR' });
    expect(Array.from(corr.values)).toEqual([0.02, 0.03]);
    expect(corr.relative).toBeUndefined();
    // MULT takes the percentage column: 2 % of 0.5 and of 0.25.
    expect(norm).toMatchObject({ name: 'sys_2', treatment: 'MULT', type: 'TOYNORM' });
    expect(Array.from(norm.relative ?? [])).toEqual([0.02, 0.02]);
    expect(Array.from(norm.values)).toEqual([0.01, 0.005]);
  });

  it('should take nnpdf31_process from PLOTTING_<SET> over PLOTTINGTYPE_<KIND>, .yml or .yaml', async () => {
    expect((await loadToy(TOY_DATA)).nnpdf31Process).toBeUndefined();
    const own = await loadToy(TOY_DATA, TOY_SYSTYPE, {
      'PLOTTING_TOYSET.yml': 'dataset_label: toy\nnnpdf31_process: DIS NC\n',
    });
    expect(own.nnpdf31Process).toBe('DIS NC');
    expect(own.files.at(-1)).toMatch(/PLOTTING_TOYSET\.yml$/);
    // the process type DIS_NCE has the kinematics key DIS
    const byType = await loadToy(TOY_DATA, TOY_SYSTYPE, {
      'PLOTTINGTYPE_DIS.yaml': 'nnpdf31_process: DIS\n',
      'PLOTTING_TOYSET.yaml': 'experiment: TOY\n',
    });
    expect(byType.nnpdf31Process).toBe('DIS');
    const both = await loadToy(TOY_DATA, TOY_SYSTYPE, {
      'PLOTTINGTYPE_DIS.yaml': 'nnpdf31_process: DIS\n',
      'PLOTTING_TOYSET.yaml': 'nnpdf31_process: DIS NC\n',
    });
    expect(both.nnpdf31Process).toBe('DIS NC');
    const bad = await inputError(
      loadToy(TOY_DATA, TOY_SYSTYPE, { 'PLOTTING_TOYSET.yaml': 'nnpdf31_process: [DIS]\n' }),
    );
    expect(bad.message).toMatch(/PLOTTING_TOYSET\.yaml:1: nnpdf31_process: expected a string/);
  });

  it('should name kinematic variables from the process type', () => {
    expect(legacyKinematicVariables('DIS_CCE')).toEqual(['x', 'Q2', 'y']);
    expect(legacyKinematicVariables('EWK_PTRAP')).toEqual(['etay', 'pT2', 'sqrts']);
    expect(legacyKinematicVariables('EWK_PT')).toEqual(['p_T', 'M2', 'sqrts']);
    expect(legacyKinematicVariables('UNKNOWN')).toEqual(['k1', 'k2', 'k3']);
  });
});

describe('loadLegacyCommonData: bad input', () => {
  it('should name the line of a row with the wrong number of columns', async () => {
    const error = await inputError(loadToy(TOY_DATA.replace('2.0e+00\t\n', '\n')));
    expect(error.message).toMatch(
      /DATA_TOYSET\.dat:2: expected 11 columns \(7 \+ 2 · 2 systematics\), got 10$/,
    );
  });

  it('should refuse a point count other than the header says', async () => {
    const error = await inputError(loadToy(TOY_DATA.replace('TOYSET\t2\t2', 'TOYSET\t2\t3')));
    expect(error.message).toMatch(
      /DATA_TOYSET\.dat:3: ndata: the header says 3 points, the file has 2$/,
    );
  });

  it('should refuse non-numbers and NaN with line and column name', async () => {
    const text = await inputError(loadToy(TOY_DATA.replace('2.5e-01', 'abc')));
    expect(text.message).toMatch(/DATA_TOYSET\.dat:3: data: expected a finite number, got 'abc'$/);
    const nan = await inputError(loadToy(TOY_DATA.replace('1.2e+01', 'nan')));
    expect(nan.message).toMatch(
      /DATA_TOYSET\.dat:3: sys_1 mult: expected a finite number, got 'nan'$/,
    );
  });

  it('should refuse points out of order', async () => {
    const error = await inputError(loadToy(TOY_DATA.replace('   2\t', '   3\t')));
    expect(error.message).toMatch(/DATA_TOYSET\.dat:3: index: expected point 2, got '3'$/);
  });

  it('should refuse a bad header', async () => {
    const error = await inputError(loadToy(TOY_DATA.replace('TOYSET\t2\t2', 'TOYSET\t2')));
    expect(error.message).toMatch(/DATA_TOYSET\.dat:1: expected a header line/);
  });

  it('should need a SYSTYPE file when there are systematics', async () => {
    const error = await inputError(loadToy(TOY_DATA, null));
    expect(error.file).toMatch(/systypes\/SYSTYPE_TOYSET_DEFAULT\.dat$/);
    expect(error.message).toContain('cannot read the SYSTYPE file (the set has 2 systematics)');
  });

  it('should refuse a SYSTYPE file that disagrees with the data file', async () => {
    const error = await inputError(loadToy(TOY_DATA, '1\n1    ADD    CORR\n'));
    expect(error.message).toMatch(
      /SYSTYPE_TOYSET_DEFAULT\.dat:1: nsys: declares 1 and lists 1 systematics, the data file has 2$/,
    );
    const treatment = await inputError(loadToy(TOY_DATA, TOY_SYSTYPE.replace('MULT', 'RAND')));
    expect(treatment.message).toMatch(
      /SYSTYPE_TOYSET_DEFAULT\.dat:3: sys_2: expected ADD or MULT, got 'RAND'$/,
    );
  });

  it('should name a missing data file', async () => {
    const error = await inputError(loadLegacyCommonData('/nonexistent/DATA_X.dat'));
    expect(error.message).toContain('/nonexistent/DATA_X.dat: cannot read the commondata file');
  });
});

describe.skipIf(!hasShared)('loadLegacyCommonData: real files against the YAML format', () => {
  for (const [legacy, dataset, variant] of [
    ['SLACP', 'SLAC_NC_NOTFIXED_P_EM-F2', 'legacy'],
    ['SLACP_dwsh', 'SLAC_NC_NOTFIXED_P_EM-F2', 'legacy_dw'],
    ['HERACOMBCCEM', 'HERA_CC_318GEV_EM-SIGMARED', 'legacy'],
    ['NMC', 'NMC_NC_NOTFIXED_P_EM-SIGMARED', 'legacy'],
  ] as const) {
    it(`should give ${legacy} the data, kinematics and uncertainties of ${dataset} (${variant})`, async () => {
      const old = await loadLegacyCommonData(join(LEGACY, `DATA_${legacy}.dat`));
      const current = await loadCommonData(COMMONDATA, dataset, { variant });
      expect(old.ndata).toBe(current.ndata);
      expect(old.central).toEqual(current.central);
      expect(old.uncertainties.map(({ treatment, type }) => `${treatment}/${type}`)).toEqual(
        current.uncertainties.map(({ treatment, type }) => `${treatment}/${type}`),
      );
      old.uncertainties.forEach((uncertainty, k) => {
        const values = current.uncertainties[k].values;
        uncertainty.values.forEach((value, i) => {
          expect(Math.abs(value - values[i])).toBeLessThanOrEqual(
            1e-14 * Math.abs(values[i]) + 1e-300,
          );
        });
      });
      // the process of the set's PLOTTING file is the current metadata's
      expect(old.nnpdf31Process).toBe(current.nnpdf31Process);
      // Q² agrees; NMC's current x is the bin centre where the legacy file has the measured x.
      for (let i = 0; i < old.ndata; i++)
        expect(old.kinematics.values[3 * i + 1]).toBe(current.kinematics.values[3 * i + 1]);
    });
  }

  it('should read nnpdf31_process from the PLOTTING files: HERACOMBCCEM DIS CC, NMC DIS NC', async () => {
    const processes = await Promise.all(
      ['HERACOMBCCEM', 'NMC', 'CMSZDIFF12', 'ATLASTTBARTOT13TEV'].map(
        async (set) => (await loadLegacyCommonData(join(LEGACY, `DATA_${set}.dat`))).nnpdf31Process,
      ),
    );
    expect(processes).toEqual(['DIS CC', 'DIS NC', 'DY NC', 'TOP']);
    // the process types DIS_CCE and DIS_NCE, which the process must not be taken from
    const hera = await loadLegacyCommonData(join(LEGACY, 'DATA_HERACOMBCCEM.dat'));
    expect(hera.processType).toBe('DIS_CCE');
    expect(hera.files).toEqual([
      join(LEGACY, 'DATA_HERACOMBCCEM.dat'),
      join(LEGACY, 'systypes', 'SYSTYPE_HERACOMBCCEM_DEFAULT.dat'),
      join(LEGACY, 'PLOTTINGTYPE_DIS.yaml'),
      join(LEGACY, 'PLOTTING_HERACOMBCCEM.yaml'),
    ]);
  });

  it('should mark legacy positivity and integrability sets', async () => {
    const positivity = await loadLegacyCommonData(join(LEGACY, 'DATA_POSXDQ.dat'));
    expect(positivity).toMatchObject({ kind: 'positivity', processType: 'DIS_XDQ', ndata: 20 });
    expect(positivity.uncertainties.map(({ name }) => name)).toEqual(['stat']);
    const integrability = await loadLegacyCommonData(join(LEGACY, 'DATA_INTEGXT8.dat'));
    expect(integrability).toMatchObject({ kind: 'integrability', ndata: 1 });
  });

  it('should take an explicit SYSTYPE file', async () => {
    const nnpdf31 = await loadLegacyCommonData(join(LEGACY, 'DATA_CMSZDIFF12.dat'), {
      systypeFile: join(LEGACY, 'systypes', 'SYSTYPE_CMSZDIFF12_NNPDF31.dat'),
    });
    const standard = await loadLegacyCommonData(join(LEGACY, 'DATA_CMSZDIFF12.dat'));
    expect(standard.uncertainties[1].treatment).toBe('ADD');
    expect(nnpdf31.uncertainties[1].treatment).toBe('MULT');
    expect(nnpdf31.kinematics.variables).toEqual(['etay', 'pT2', 'sqrts']);
  });
});
