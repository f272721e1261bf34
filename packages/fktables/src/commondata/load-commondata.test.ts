import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InputFileError } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import { TOY_SET_FILES, writeToySet } from './commondata.fixture.js';
import { loadCommonData } from './load-commondata.js';

const COMMONDATA = join(SHARED_DATA, 'commondata');
const hasShared = hasSharedData('commondata/SLAC_NC_NOTFIXED_P/metadata.yaml', 'real commondata');

/** The error `promise` rejects with, which must be an InputFileError. */
async function inputError(promise: Promise<unknown>): Promise<InputFileError> {
  const error: unknown = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(InputFileError.isInstance(error)).toBe(true);
  return error as InputFileError;
}

/** Loads the toy set with some files replaced, and removes it again. */
async function loadToy(replace: Readonly<Record<string, string | null>>, variant?: string) {
  const toy = await writeToySet(replace);
  try {
    return await loadCommonData(
      toy.folder,
      'TOY_NC_10GEV_F2',
      variant === undefined ? {} : { variant },
    );
  } finally {
    await toy.remove();
  }
}

describe('loadCommonData: the toy set', () => {
  it('should read central values, kinematics, uncertainties and theory', async () => {
    const data = await loadToy({});
    expect(data).toMatchObject({
      name: 'TOY_NC_10GEV_F2',
      setName: 'TOY_NC_10GEV',
      observableName: 'F2',
      variant: undefined,
      processType: 'DIS_NC',
      kind: 'data',
      experiment: 'TOY',
      ndata: 2,
      positivityRequired: true,
    });
    expect(Array.from(data.central)).toEqual([0.5, 0.25]);
    expect(data.kinematics.variables).toEqual(['x', 'Q2', 'y']);
    // The second bin's x has a null mid: (0.2 + 0.4)/2.
    expect(Array.from(data.kinematics.values)).toEqual([
      0.1, 10, 0.5, 0.30000000000000004, 20, 0.6,
    ]);
    expect(data.uncertainties.map(({ name, treatment, type }) => [name, treatment, type])).toEqual([
      ['stat', 'ADD', 'UNCORR'],
      ['sys_norm', 'MULT', 'CORR'],
    ]);
    const [stat, norm] = data.uncertainties;
    expect(stat.relative).toBeUndefined();
    expect(Array.from(norm.values)).toEqual([0.05, 0.025]);
    expect(Array.from(norm.relative ?? [])).toEqual([0.1, 0.1]);
    expect(data.theory).toEqual({
      fkTables: [['TOY_F2_A', 'TOY_F2_B']],
      operation: 'NULL',
      conversionFactor: 1,
    });
    expect(Array.from(data.pointIndices)).toEqual([0, 1]);
    expect(data.files.map((file) => file.split('/').pop())).toEqual([
      'metadata.yaml',
      'data.yaml',
      'kinematics.yaml',
      'uncertainties.yaml',
    ]);
  });

  it('should apply a variant: other uncertainty files, other experiment', async () => {
    const data = await loadToy({}, 'alt');
    expect(data.variant).toBe('alt');
    expect(data.experiment).toBe('OTHER');
    expect(data.uncertainties.map((uncertainty) => Array.from(uncertainty.values))).toEqual([
      [0.03, 0.04],
    ]);
  });

  it('should find the observable case-insensitively, as validphys does', async () => {
    const toy = await writeToySet();
    try {
      expect((await loadCommonData(toy.folder, 'TOY_NC_10GEV_f2')).name).toBe('TOY_NC_10GEV_F2');
    } finally {
      await toy.remove();
    }
  });
});

describe('loadCommonData: bad input', () => {
  it('should name the variants when the one asked for does not exist', async () => {
    const error = await inputError(loadToy({}, 'nope'));
    expect(error.message).toMatch(
      /metadata\.yaml:5: TOY_NC_10GEV_F2\.variants: unknown variant 'nope'; available: alt$/,
    );
  });

  it('should list the observables of the set when the observable does not exist', async () => {
    const toy = await writeToySet();
    try {
      const error = await inputError(loadCommonData(toy.folder, 'TOY_NC_10GEV_F3'));
      expect(error.message).toContain(
        "no observable 'F3' (dataset TOY_NC_10GEV_F3); the set has F2",
      );
    } finally {
      await toy.remove();
    }
  });

  it('should say when the commondata folder does not exist', async () => {
    const error = await inputError(loadCommonData('/nonexistent/commondata', 'TOY_NC_10GEV_F2'));
    expect(error.message).toBe('/nonexistent/commondata: commondata folder not found');
  });

  it('should name a missing data file', async () => {
    const error = await inputError(loadToy({ 'data.yaml': null }));
    expect(error.file).toMatch(/TOY_NC_10GEV\/data\.yaml$/);
    expect(error.message).toContain('cannot read the central data');
  });

  it('should name the line of a central value count that disagrees with ndata', async () => {
    const error = await inputError(
      loadToy({ 'data.yaml': 'data_central:\n- 0.5\n- 0.25\n- 0.125\n' }),
    );
    expect(error.message).toMatch(
      /data\.yaml:2: data_central: has 3 points, but the metadata says ndata = 2$/,
    );
  });

  it('should name the line of a kinematics bin count that disagrees with ndata', async () => {
    const kinematics = TOY_SET_FILES['kinematics.yaml'].split('\n').slice(0, 4).join('\n');
    const error = await inputError(loadToy({ 'kinematics.yaml': kinematics }));
    expect(error.message).toMatch(
      /kinematics\.yaml:2: bins: has 1 points, but the metadata says ndata = 2$/,
    );
  });

  it('should name the line of an uncertainty bin count that disagrees with ndata', async () => {
    const error = await inputError(
      loadToy(
        {
          'uncertainties_alt.yaml':
            'definitions:\n  stat: {treatment: ADD, type: UNCORR}\nbins:\n- stat: 0.03\n',
        },
        'alt',
      ),
    );
    expect(error.message).toMatch(
      /uncertainties_alt\.yaml:4: bins: has 1 points, but the metadata says ndata = 2$/,
    );
  });

  it('should refuse a non-number with its line and key', async () => {
    const error = await inputError(loadToy({ 'data.yaml': 'data_central:\n- 0.5\n- abc\n' }));
    expect(error.message).toMatch(
      /data\.yaml:3: data_central\[1\]: expected a finite number, got 'abc'$/,
    );
  });

  it('should refuse NaN and null values', async () => {
    const nan = await inputError(loadToy({ 'data.yaml': 'data_central:\n- .nan\n- 0.25\n' }));
    expect(nan.message).toMatch(
      /data\.yaml:2: data_central\[0\]: expected a finite number, got NaN$/,
    );
    const uncertainties = TOY_SET_FILES['uncertainties.yaml'].replace(
      'sys_norm: 0.025',
      'sys_norm: null',
    );
    const empty = await inputError(loadToy({ 'uncertainties.yaml': uncertainties }));
    expect(empty.message).toMatch(
      /uncertainties\.yaml:14: bins\[1\]\.sys_norm: expected a finite number, got null$/,
    );
  });

  it('should refuse an uncertainty value whose name is not in definitions', async () => {
    const uncertainties = TOY_SET_FILES['uncertainties.yaml'].replace(
      '- stat: 0.02',
      '- stat: 0.02\n  sys_lumi: 0.1',
    );
    const error = await inputError(loadToy({ 'uncertainties.yaml': uncertainties }));
    expect(error.message).toMatch(
      /uncertainties\.yaml:14: bins\[1\]\.sys_lumi: not in definitions$/,
    );
  });

  it('should refuse a bin without a value for a defined uncertainty', async () => {
    const uncertainties = TOY_SET_FILES['uncertainties.yaml'].replace('  sys_norm: 0.025\n', '');
    const error = await inputError(loadToy({ 'uncertainties.yaml': uncertainties }));
    expect(error.message).toMatch(/uncertainties\.yaml:13: bins\[1\]: no value for 'sys_norm'$/);
  });

  it('should refuse a stat column that is not ADD/UNCORR', async () => {
    const uncertainties = TOY_SET_FILES['uncertainties.yaml'].replace(
      'treatment: ADD',
      'treatment: MULT',
    );
    const error = await inputError(loadToy({ 'uncertainties.yaml': uncertainties }));
    expect(error.message).toMatch(
      /uncertainties\.yaml:2: definitions\.stat: a statistical uncertainty must be ADD\/UNCORR, got MULT\/UNCORR$/,
    );
  });

  it('should refuse a treatment other than ADD or MULT', async () => {
    const uncertainties = TOY_SET_FILES['uncertainties.yaml'].replace(
      'treatment: MULT',
      'treatment: RAND',
    );
    const error = await inputError(loadToy({ 'uncertainties.yaml': uncertainties }));
    expect(error.message).toMatch(
      /uncertainties\.yaml:8: definitions\.sys_norm\.treatment: expected ADD or MULT, got 'RAND'$/,
    );
  });

  it('should refuse a MULT uncertainty on a zero central value', async () => {
    const error = await inputError(loadToy({ 'data.yaml': 'data_central:\n- 0.5\n- 0\n' }));
    expect(error.message).toMatch(
      /uncertainties\.yaml:14: bins\[1\]\.sys_norm: a MULT uncertainty of a zero central value has no relative size$/,
    );
  });

  it('should name a missing kinematic variable', async () => {
    const kinematics = TOY_SET_FILES['kinematics.yaml'].replace(
      '  y: {min: null, mid: 0.6, max: null}\n',
      '',
    );
    const error = await inputError(loadToy({ 'kinematics.yaml': kinematics }));
    expect(error.message).toMatch(/kinematics\.yaml:5: bins\[1\]: missing kinematic variable 'y'$/);
  });

  it('should refuse an unknown operation', async () => {
    const metadata = TOY_SET_FILES['metadata.yaml'].replace(
      "operation: 'null'",
      'operation: product',
    );
    const error = await inputError(loadToy({ 'metadata.yaml': metadata }));
    expect(error.message).toMatch(
      /metadata\.yaml:21: implemented_observables\[0\]\.theory\.operation: unknown operation 'PRODUCT', expected one of NULL, ADD, RATIO, ASY, SMN, COM, SMT$/,
    );
  });

  it('should report invalid YAML (here a key given twice) with its line', async () => {
    const error = await inputError(
      loadToy({ 'data.yaml': 'data_central:\n- 0.5\n- 0.25\ndata_central: []\n' }),
    );
    expect(error.file).toMatch(/data\.yaml$/);
    expect(error.line).toBe(4);
    expect(error.message).toContain('not valid YAML: Map keys must be unique');
  });

  it('should ask for a variant when the base observable has no uncertainties', async () => {
    const metadata = TOY_SET_FILES['metadata.yaml'].replace(
      'data_uncertainties: [uncertainties.yaml]',
      'data_uncertainties: []',
    );
    const error = await inputError(loadToy({ 'metadata.yaml': metadata }));
    expect(error.message).toMatch(
      /metadata\.yaml:5: TOY_NC_10GEV_F2: no data_uncertainties; choose a variant: alt$/,
    );
  });

  it('should name the line of a missing metadata key', async () => {
    const metadata = TOY_SET_FILES['metadata.yaml'].replace('  ndata: 2\n', '');
    const error = await inputError(loadToy({ 'metadata.yaml': metadata }));
    expect(error.message).toMatch(
      /metadata\.yaml:5: implemented_observables\[0\]\.ndata: missing$/,
    );
  });

  it('should suggest close names for an unknown dataset', async () => {
    const toy = await writeToySet();
    try {
      await writeFile(join(toy.folder, 'dataset_names.yml'), 'TOYF2: TOY_NC_10GEV_F2\n');
      const error = await inputError(loadCommonData(toy.folder, 'TOY_NC_10GEV_F1'));
      expect(error.message).toContain("no observable 'F1'");
      const unknown = await inputError(loadCommonData(toy.folder, 'TOY_NC_11GEV_F2'));
      expect(unknown.message).toBe(
        `${toy.folder}: TOY_NC_11GEV_F2: unknown dataset; close names: TOY_NC_10GEV_F2, TOYF2`,
      );
      expect((await loadCommonData(toy.folder, 'TOYF2')).legacyName).toBe('TOYF2');
    } finally {
      await toy.remove();
    }
  });
});

describe.skipIf(!hasShared)('loadCommonData: real NNPDF commondata', () => {
  it('should load SLAC proton F2 with the legacy variant', async () => {
    const slac = await loadCommonData(COMMONDATA, 'SLAC_NC_NOTFIXED_P_EM-F2', {
      variant: 'legacy',
    });
    expect(slac).toMatchObject({
      ndata: 211,
      processType: 'DIS_NC',
      experiment: 'SLAC',
      variant: 'legacy',
    });
    expect(slac.central[0]).toBe(0.27808);
    expect(Array.from(slac.kinematics.values.subarray(0, 3))).toEqual([0.07, 0.59, 0]);
    expect(slac.uncertainties.map(({ treatment, type }) => `${treatment}/${type}`)).toEqual([
      'ADD/UNCORR',
      'ADD/UNCORR',
      'MULT/SLACNORM',
      'MULT/SLACRELNORM',
    ]);
    // sys_corr_2 of point 0 is 0.00583968 absolute = 2.1 % of 0.27808.
    expect(slac.uncertainties[2].relative?.[0]).toBeCloseTo(0.021, 15);
  });

  it('should translate legacy names through dataset_names.yml', async () => {
    const hera = await loadCommonData(COMMONDATA, 'HERACOMBCCEM');
    expect(hera).toMatchObject({
      name: 'HERA_CC_318GEV_EM-SIGMARED',
      variant: 'legacy',
      legacyName: 'HERACOMBCCEM',
      ndata: 42,
      experiment: 'HERACOMB',
    });
    const deuteronShifted = await loadCommonData(COMMONDATA, 'SLACP_dwsh');
    expect(deuteronShifted.variant).toBe('legacy_dw');
    expect(deuteronShifted.experiment).toBe('DEUTERON');
    expect(deuteronShifted.uncertainties[2].type).toBe('SLACNORM1');
    const overridden = await loadCommonData(COMMONDATA, 'SLACP', { variant: 'legacy_dw' });
    expect(overridden.variant).toBe('legacy_dw');
  });

  it('should order kinematics by kinematic_coverage, not by declaration or bin order', async () => {
    const cms = await loadCommonData(COMMONDATA, 'CMS_Z0J_8TEV_PT-Y');
    expect(cms.kinematics.variables).toEqual(['pT', 'abs_y', 'm_Z2']);
    expect(Array.from(cms.kinematics.values.subarray(0, 3))).toEqual([10, 0.2, 8381]);
    // CMS Z pT has no stat column: 50 artificial correlated systematics and the luminosity.
    expect(cms.uncertainties.map(({ type }) => type)).toEqual([
      ...Array<string>(50).fill('CORR'),
      'CMSLUMI12',
    ]);
    // NMC's bins hold xraw, y, Q2, sqrts and x; the coverage picks x, Q2, sqrts.
    const nmc = await loadCommonData(COMMONDATA, 'NMC');
    expect(nmc.kinematics.variables).toEqual(['x', 'Q2', 'sqrts']);
    expect(Array.from(nmc.kinematics.values.subarray(0, 3))).toEqual([0.008, 0.8, 13]);
  });

  it('should pad two kinematic variables to three by repeating the last', async () => {
    const nmc = await loadCommonData(COMMONDATA, 'NMC_NC_NOTFIXED_P_EM-F2-HEPDATA');
    expect(nmc.kinematics.variables).toEqual(['x', 'Q2', 'extra_0']);
    expect(nmc.kinematics.values[1]).toBe(nmc.kinematics.values[2]);
  });

  it('should give positivity and integrability sets zero data and no uncertainties', async () => {
    const positivity = await loadCommonData(COMMONDATA, 'POSXDQ');
    expect(positivity).toMatchObject({
      name: 'NNPDF_POS_2P24GEV_XDQ',
      kind: 'positivity',
      processType: 'POS_XPDF',
      ndata: 20,
    });
    expect(positivity.central.every((value) => value === 0)).toBe(true);
    expect(positivity.uncertainties).toEqual([]);
    expect(Array.from(positivity.kinematics.values.subarray(0, 3))).toEqual([5e-7, 5, 5]);
    const integrability = await loadCommonData(COMMONDATA, 'NNPDF_INTEG_3GEV_XT8');
    expect(integrability).toMatchObject({ kind: 'integrability', processType: 'INTEG', ndata: 1 });
    expect(integrability.theory?.fkTables).toEqual([['INTEGXT8']]);
  });

  it('should let variants replace the theory (through YAML aliases) and the central data', async () => {
    const atlas = await loadCommonData(COMMONDATA, 'ATLAS_TTBAR_13TEV_TOT_X-SEC');
    expect(atlas.theory?.fkTables).toEqual([['ATLAS_TTBAR_13TEV_TOT_X-SEC']]);
    const legacyTheory = await loadCommonData(COMMONDATA, 'ATLAS_TTBAR_13TEV_TOT_X-SEC', {
      variant: 'legacy_theory',
    });
    expect(legacyTheory.theory?.fkTables).toEqual([
      ['ATLAS_TTBARTOT_13TEV_FULLLUMI-TOPDIFF13TEVTOT'],
    ]);
    expect(legacyTheory.uncertainties.map(({ name }) => name)).toEqual(
      atlas.uncertainties.map(({ name }) => name),
    );
    const rqcd = await loadCommonData(COMMONDATA, 'BCDMS_NC_NOTFIXED_P_EM-F2-HEPDATA', {
      variant: 'rqcd',
    });
    const rzero = await loadCommonData(COMMONDATA, 'BCDMS_NC_NOTFIXED_P_EM-F2-HEPDATA', {
      variant: 'rzero',
    });
    expect(rqcd.files.some((file) => file.endsWith('data_rqcd.yaml'))).toBe(true);
    expect(rzero.files.some((file) => file.endsWith('data_rzero.yaml'))).toBe(true);
    expect(rqcd.central).not.toEqual(rzero.central);
  });

  it('should read the conversion factor and split FK-table lists', async () => {
    const lhcb = await loadCommonData(COMMONDATA, 'LHCB_Z0_13TEV_DIMUON-Y');
    expect(lhcb.theory?.conversionFactor).toBe(1000);
    const bcdms = await loadCommonData(COMMONDATA, 'BCDMSP');
    expect(bcdms.theory?.fkTables[0]).toHaveLength(4);
  });

  it('should suggest close names for a misspelt dataset', async () => {
    const error = await inputError(loadCommonData(COMMONDATA, 'HERACOMBCCEN'));
    expect(error.message).toContain('unknown dataset; close names: HERACOMBCCEM, HERACOMBCCEP');
    const noVariant = await inputError(loadCommonData(COMMONDATA, 'SLAC_NC_NOTFIXED_P_EM-F2'));
    expect(noVariant.message).toMatch(
      /no data_uncertainties; choose a variant: legacy, legacy_dw$/,
    );
  });
});
