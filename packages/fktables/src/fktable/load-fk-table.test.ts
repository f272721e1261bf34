import { InputFileError } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import {
  ATLAS_TTBAR_FILE,
  ATLAS_TTBAR_TAR_FILE,
  POSXDQ_FILE,
  POSXDQ_TAR_FILE,
} from './legacy-fk-table.fixture.js';
import { loadFkTable } from './load-fk-table.js';

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
