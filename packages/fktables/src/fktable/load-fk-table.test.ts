import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputFileError } from '@partonfit/core';
import { encodeFkTableV1, HADRONIC_FK_TABLE } from '@partonfit/testing/pineappl-bytes';
import { describe, expect, it } from 'vitest';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import {
  ATLAS_TTBAR_FILE,
  ATLAS_TTBAR_TAR_FILE,
  POSXDQ_FILE,
  POSXDQ_TAR_FILE,
} from './legacy-fk-table.fixture.js';
import { loadFkTable } from './load-fk-table.js';

describe('loadFkTable on a damaged PineAPPL grid', () => {
  it('should say the file is neither a PineAPPL grid nor a text FK table', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'partonfit-fk-'));
    const file = join(folder, 'BROKEN.pineappl');
    const bytes = encodeFkTableV1(HADRONIC_FK_TABLE);
    bytes[0] = 0x51; // "QineAPPL"
    await writeFile(file, bytes);
    await expect(loadFkTable(file)).rejects.toThrow(
      `${file}: neither a PineAPPL grid (it starts with neither "PineAPPL" nor an LZ4 frame) nor a text FK table (not UTF-8 text)`,
    );
  });
});

describe.skipIf(!hasSharedData('theory_200', 'loadFkTable tests'))('loadFkTable', () => {
  it.each([
    ['FK_POSXDQ', POSXDQ_FILE, POSXDQ_TAR_FILE],
    ['FK_ATLASTTBARTOT13TEV', ATLAS_TTBAR_FILE, ATLAS_TTBAR_TAR_FILE],
  ])(
    'should read the same %s from the plain file and the gzip tar',
    async (_, plainFile, tarFile) => {
      const plain = await loadFkTable(plainFile);
      const packed = await loadFkTable(tarFile);
      expect(packed.name).toBe(plain.name);
      expect(packed.file).toBe(tarFile);
      expect(packed.channels).toEqual(plain.channels);
      expect(packed.xGrid).toEqual(plain.xGrid);
      expect(packed.values).toEqual(plain.values);
    },
  );

  it('should name a file that does not exist', async () => {
    const missing = `${SHARED_DATA}theory_200/fastkernel/FK_NOPE.dat`;
    await expect(loadFkTable(missing)).rejects.toThrow(InputFileError);
    await expect(loadFkTable(missing)).rejects.toMatchObject({ file: missing });
  });

  it.skipIf(!hasSharedData('bundles', 'loadFkTable on a non-table'))(
    'should reject a file that is not an FK table',
    async () => {
      const npz = `${SHARED_DATA}bundles/SLACP.npz`;
      await expect(loadFkTable(npz)).rejects.toMatchObject({ file: npz });
    },
  );
});
