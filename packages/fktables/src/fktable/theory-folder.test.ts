import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import {
  disFlavourMap,
  disValues,
  POSXDQ_TAR_FILE,
  syntheticLegacyText,
} from './legacy-fk-table.fixture.js';
import { predictObservable } from './predict.js';
import {
  findCFactorFile,
  findCompoundFile,
  findFkTable,
  findLegacyFkTable,
  loadLegacyObservable,
} from './theory-folder.js';
import { inputFileRejection } from '@partonfit/testing';

/** A one-x-node gluon table whose points (with g = 1) are `points`. */
function gluonTableText(points: readonly number[]): string {
  return syntheticLegacyText({
    hadronic: false,
    ndata: points.length,
    xGrid: [0.5],
    flavourMap: disFlavourMap([2]),
    rows: points.map((value, n) => [n, 0, ...disValues({ 2: value })]),
  });
}

const GLUON_ONE = () => Float64Array.from({ length: 14 }, (_, f) => (f === 2 ? 1 : 0));

describe('theory-folder resolution', () => {
  let theories = '';
  let theory = '';

  beforeAll(async () => {
    theories = await mkdtemp(join(tmpdir(), 'partonfit-theories-'));
    theory = join(theories, 'theory_7');
    for (const folder of ['fastkernel', 'compound', 'cfactor']) {
      await mkdir(join(theory, folder), { recursive: true });
    }
    const files: Record<string, string> = {
      'fastkernel/FK_NUM.dat': gluonTableText([6, 3]),
      'fastkernel/FK_DEN.dat': gluonTableText([3]),
      'fastkernel/FK_WIDE.dat': gluonTableText([1, 2, 3]),
      'compound/FK_SETR-COMPOUND.dat': '# ratio\nFK: FK_NUM.dat\nFK: FK_DEN.dat\nOP: RATIO\n',
      'compound/FK_BAD-COMPOUND.dat': '# add\nFK: FK_NUM.dat\nFK: FK_WIDE.dat\nOP: ADD\n',
      'compound/FK_LOST-COMPOUND.dat': '# lost\nFK: FK_NUM.dat\nFK: FK_GONE.dat\nOP: ADD\n',
      'cfactor/CF_QCD_NUM.dat': '****\nSetName: NUM\n****\n2 0.1\n0.5 0.1\n',
      'cfactor/CF_QCD_DEN.dat': '****\nSetName: DEN\n****\n3 0.1\n',
      'cfactor/CF_QCD_WIDE.dat': '****\n****\n1 0\n',
    };
    for (const [path, text] of Object.entries(files)) await writeFile(join(theory, path), text);
  });

  afterAll(async () => {
    await rm(theories, { recursive: true, force: true });
  });

  it('should find tables, COMPOUND files and C-factors by NNPDF names', async () => {
    await expect(findLegacyFkTable(theories, 7, 'NUM')).resolves.toBe(
      join(theory, 'fastkernel', 'FK_NUM.dat'),
    );
    await expect(findCompoundFile(theories, 7, 'SETR')).resolves.toBe(
      join(theory, 'compound', 'FK_SETR-COMPOUND.dat'),
    );
    await expect(findCompoundFile(theories, 7, 'NUM')).resolves.toBeUndefined();
    await expect(findCFactorFile(theories, 7, 'QCD', 'DEN')).resolves.toBe(
      join(theory, 'cfactor', 'CF_QCD_DEN.dat'),
    );
  });

  it('should load a COMPOUND observable with C-factors on each of its tables', async () => {
    const plain = await loadLegacyObservable(theories, 7, 'SETR');
    expect(plain.operation).toBe('RATIO');
    expect(plain.operands.map((operand) => operand.map((table) => table.name))).toEqual([
      ['NUM'],
      ['DEN'],
    ]);
    expect(Array.from(predictObservable(plain, GLUON_ONE))).toEqual([2, 1]);
    const corrected = await loadLegacyObservable(theories, 7, 'SETR', { cfactors: ['QCD'] });
    // (6·2, 3·0.5) / (3·3)
    expect(Array.from(predictObservable(corrected, GLUON_ONE))).toEqual([12 / 9, 1.5 / 9]);
    expect(corrected.operands[0][0].cFactors).toEqual([join(theory, 'cfactor', 'CF_QCD_NUM.dat')]);
  });

  it('should load a dataset without COMPOUND file as its single table with NULL', async () => {
    const observable = await loadLegacyObservable(theories, 7, 'NUM');
    expect(observable.operation).toBe('NULL');
    expect(Array.from(predictObservable(observable, GLUON_ONE))).toEqual([6, 3]);
  });

  it('should name the path looked for when something is missing', async () => {
    expect(await inputFileRejection(loadLegacyObservable(theories, 8, 'NUM'))).toMatchObject({
      file: join(theories, 'theory_8'),
    });
    expect(await inputFileRejection(loadLegacyObservable(theories, 7, 'GONE'))).toMatchObject({
      file: join(theory, 'fastkernel', 'FK_GONE.dat'),
    });
    expect(await inputFileRejection(loadLegacyObservable(theories, 7, 'LOST'))).toMatchObject({
      file: join(theory, 'fastkernel', 'FK_GONE.dat'),
    });
    expect(
      await inputFileRejection(loadLegacyObservable(theories, 7, 'NUM', { cfactors: ['EWK'] })),
    ).toMatchObject({ file: join(theory, 'cfactor', 'CF_EWK_NUM.dat') });
  });

  it('should reject a COMPOUND file whose tables do not fit together, naming it', async () => {
    const error = await inputFileRejection(loadLegacyObservable(theories, 7, 'BAD'));
    expect(error.file).toBe(join(theory, 'compound', 'FK_BAD-COMPOUND.dat'));
    expect(error.message).toMatch(/operands have 2, 3 data points/);
  });

  it('should reject C-factors whose length does not match the table', async () => {
    const error = await inputFileRejection(
      loadLegacyObservable(theories, 7, 'WIDE', { cfactors: ['QCD'] }),
    );
    expect(error.file).toBe(join(theory, 'cfactor', 'CF_QCD_WIDE.dat'));
  });

  it.skipIf(!hasSharedData('theory_200/fastkernel_tar', 'gzip-tar theory-folder test'))(
    'should read a table stored as NNPDF ships it, a gzip tar named FK_<SET>.dat',
    async () => {
      const folder = join(theories, 'theory_200', 'fastkernel');
      await mkdir(folder, { recursive: true });
      await symlink(POSXDQ_TAR_FILE, join(folder, 'FK_POSXDQ.dat'));
      const observable = await loadLegacyObservable(theories, 200, 'POSXDQ');
      expect(observable.operands[0][0]).toMatchObject({ name: 'POSXDQ', ndata: 20, q0: 1.65 });
    },
  );
});

describe.skipIf(!hasSharedData('theory_208/fastkernel', 'PineAPPL theory folder'))(
  'findFkTable in the shared theories',
  () => {
    it('should find legacy tables first and PineAPPL tables by their commondata name', async () => {
      expect(await findFkTable(SHARED_DATA, 200, 'POSXDQ')).toBe(
        `${SHARED_DATA}theory_200/fastkernel/FK_POSXDQ.dat`,
      );
      expect(await findFkTable(SHARED_DATA, 208, 'HERA_CC_318GEV_EM_SIGMARED')).toBe(
        `${SHARED_DATA}theory_208/fastkernel/HERA_CC_318GEV_EM_SIGMARED.pineappl.lz4`,
      );
      const error = await inputFileRejection(findFkTable(SHARED_DATA, 208, 'POSXDQ'));
      expect(error.file).toBe(`${SHARED_DATA}theory_208/fastkernel`);
      expect(error.message).toContain(
        'no FK table for POSXDQ in theory 208: looked for FK_POSXDQ.dat, FK_POSXDQ.dat.gz, POSXDQ.pineappl.lz4',
      );
    });
  },
);
