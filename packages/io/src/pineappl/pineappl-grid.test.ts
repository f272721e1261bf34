import { readFile } from 'node:fs/promises';
import { UnsupportedInputError } from '@partonfit/core';
import { damageBytes, FUZZ_MUTATIONS, fuzzParser, inputFileError } from '@partonfit/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import { decodeLz4Frame } from './lz4-frame.js';
import {
  importedSubgridValues,
  isPineapplGrid,
  parsePineapplGrid,
  pineapplBinNormalizations,
  readPineapplGrid,
  type PineapplGrid,
} from './pineappl-grid.js';

const NAME = 'HERA_CC_318GEV_EM_SIGMARED';
const FILE = `${SHARED_DATA}theory_208/fastkernel/${NAME}.pineappl.lz4`;
const METADATA = `${SHARED_DATA}theory_208/fastkernel/${NAME}.metadata.json`;

/** Byte offsets in the decompressed file, counted by hand from the bincode layout. */
const LAYOUT = {
  /** `PineAPPL` + u64 version (16), ndarray version u8 (1), shape 3 × u64 (24). */
  subgridCount: 41,
  /** + u64 subgrid count (8), then subgrid [0, 0, 0]: its u32 variant index. */
  firstSubgridType: 49,
  /** + u32 variant (4): the u64 length of `array.entries` of subgrid [0, 0, 0]. */
  firstEntriesLength: 53,
};

describe.skipIf(!hasSharedData(`theory_208/fastkernel/${NAME}.pineappl.lz4`, 'PineAPPL FK table'))(
  'parsePineapplGrid on the theory-208 HERA CC table',
  () => {
    let compressed: Uint8Array;
    let plain: Uint8Array;
    let grid: PineapplGrid;
    let runcard: { interpolation_xgrid: number[] };
    beforeAll(async () => {
      compressed = await readFile(FILE);
      plain = decodeLz4Frame(compressed, FILE);
      grid = await readPineapplGrid(FILE);
      const metadata = JSON.parse(await readFile(METADATA, 'utf8')) as { runcard: string };
      runcard = JSON.parse(metadata.runcard) as typeof runcard;
    });

    it('should read the shape, channels, bins, orders and metadata', () => {
      expect(grid.fileVersion).toBe(0);
      expect(grid.subgridShape).toEqual([1, 42, 9]);
      expect(grid.orders).toEqual([{ alphas: 0, alpha: 0, logxir: 0, logxif: 0, logxia: 0 }]);
      expect(grid.channels.map((channel) => channel.map(({ pid1 }) => pid1))).toEqual([
        [21],
        [203],
        [208],
        [215],
        [200],
        [103],
        [108],
        [115],
        [100],
      ]);
      expect(grid.channels.every(([entry]) => entry.pid2 === 11 && entry.factor === 1)).toBe(true);
      expect(grid.binLimits).toEqual({ kind: 'equal', left: 0, right: 42, bins: 42 });
      expect(Array.from(pineapplBinNormalizations(grid))).toEqual(new Array(42).fill(1));
      // the remapper holds each bin's (Q², x): the first bin is Q² = 300 GeV², x = 0.008
      expect(Array.from(grid.remapper?.limits.subarray(0, 4) ?? [])).toEqual([
        300, 300, 0.008, 0.008,
      ]);
      expect(grid.metadata.get('lumi_id_types')).toBe('evol');
      expect(grid.metadata.get('initial_state_1')).toBe('2212');
      expect(grid.metadata.get('initial_state_2')).toBe('11');
      expect(grid.metadata.get('pineappl_gitversion')).toBe('v0.5.0-12-g4dbc8cc');
      expect(grid.subgrids.every((subgrid) => subgrid.type === 'ImportOnlySubgridV1')).toBe(true);
    });

    it('should read the x-grid the metadata runcard lists and the scale Q0² = 1.65²', () => {
      const subgrid = grid.subgrids[0];
      if (subgrid.type !== 'ImportOnlySubgridV1') throw new Error('not an imported subgrid');
      expect(Array.from(subgrid.x1Grid)).toEqual(runcard.interpolation_xgrid);
      expect(Array.from(subgrid.x2Grid)).toEqual([1]);
      expect(subgrid.mu2Grid).toHaveLength(1);
      expect(subgrid.mu2Grid[0]?.fac).toBeCloseTo(1.65 ** 2, 14);
    });

    it('should place the stored values where the bytes put them', () => {
      const view = new DataView(plain.buffer, plain.byteOffset, plain.byteLength);
      expect(view.getUint32(LAYOUT.firstSubgridType, true)).toBe(4); // ImportOnlySubgridV1
      const entries = Number(view.getBigUint64(LAYOUT.firstEntriesLength, true));
      const first = LAYOUT.firstEntriesLength + 8;
      const afterEntries = first + 8 * entries;
      // indices: u64 count, then (zeros left, offset) pairs: one run starting at x node 20
      expect(Number(view.getBigUint64(afterEntries, true))).toBe(2);
      const zerosLeft = Number(view.getBigUint64(afterEntries + 8, true));
      const subgrid = grid.subgrids[0];
      if (subgrid.type !== 'ImportOnlySubgridV1') throw new Error('not an imported subgrid');
      const values = importedSubgridValues(subgrid); // (mu2 = 1, x1 = 50, x2 = 1)
      expect(values).toHaveLength(50);
      for (let node = 0; node < zerosLeft; node++) expect(values[node]).toBe(0);
      for (let k = 0; k < entries; k++) {
        expect(values[zerosLeft + k]).toBe(view.getFloat64(first + 8 * k, true));
      }
      expect(zerosLeft + entries).toBe(50);
    });

    it('should recognise PineAPPL files by their first bytes', () => {
      expect(isPineapplGrid(compressed)).toBe(true);
      expect(isPineapplGrid(plain)).toBe(true);
      expect(isPineapplGrid(new TextEncoder().encode('{_____GridDesc'))).toBe(false);
    });

    it('should read the uncompressed form too', () => {
      expect(parsePineapplGrid(plain, { file: 'plain.pineappl' }).subgridShape).toEqual([1, 42, 9]);
    });

    it('should give typed errors naming the file for damaged grids', () => {
      const damaged = (change: (bytes: Uint8Array, view: DataView) => void): Uint8Array => {
        const bytes = plain.slice();
        change(bytes, new DataView(bytes.buffer));
        return bytes;
      };
      const parse = (bytes: Uint8Array) => () => parsePineapplGrid(bytes, { file: 'bad.pineappl' });

      const magic = inputFileError(parse(damaged((bytes) => (bytes[0] = 0x70))));
      expect(magic.file).toBe('bad.pineappl');
      expect(magic.message).toMatch(/not a PineAPPL grid/);

      const version = inputFileError(parse(damaged((bytes) => (bytes[8] = 2))));
      expect(UnsupportedInputError.isInstance(version)).toBe(true);
      expect(version.message).toBe(
        'bad.pineappl: header: PineAPPL file version 2 is not supported: ' +
          'partonfit reads file versions 0 (PineAPPL 0.5 to 0.8) and 1 (PineAPPL 1.x)',
      );

      const length = inputFileError(
        parse(
          damaged((_, view) => {
            view.setUint32(LAYOUT.subgridCount + 4, 0x10, true);
          }),
        ),
      );
      expect(length.key).toBe('subgrids.data');
      expect(length.message).toMatch(/corrupt length 68719477114/);

      // the offset that ends the first subgrid's only run: 30 entries, claimed 29
      const runEnd = LAYOUT.firstEntriesLength + 8 + 8 * 30 + 8 + 16 + 8;
      const entries = inputFileError(
        parse(
          damaged((_, view) => {
            view.setUint32(runEnd, 29, true);
          }),
        ),
      );
      expect(entries.key).toBe('subgrids[0, 0, 0].array');
      expect(entries.message).toMatch(/inconsistent sparse array/);

      const variant = inputFileError(
        parse(
          damaged((_, view) => {
            view.setUint32(LAYOUT.firstSubgridType, 7, true);
          }),
        ),
      );
      expect(variant.message).toMatch(/subgrid type\): unknown variant 7/);

      for (const cut of [20, 1000, plain.length - 1]) {
        const truncated = inputFileError(parse(plain.subarray(0, cut)));
        expect(truncated.message).toMatch(/truncated|corrupt length/);
      }

      const longer = new Uint8Array(plain.length + 1);
      longer.set(plain);
      const trailing = inputFileError(parse(longer));
      expect(trailing.message).toMatch(/1 bytes follow the end of the grid/);

      const lz4 = inputFileError(() =>
        parsePineapplGrid(compressed.subarray(0, 5000), { file: FILE }),
      );
      expect(lz4.file).toBe(FILE);
      expect(lz4.key).toBe('LZ4 frame');
    });

    it(`should decode each of ${FUZZ_MUTATIONS} damaged copies of the file or name the problem`, async () => {
      const outcome = await fuzzParser({
        original: compressed,
        damage: damageBytes,
        parse: (bytes) => parsePineapplGrid(bytes, { file: 'fuzz.pineappl.lz4' }),
        seed: 17,
      });
      expect(outcome.refused).toBeGreaterThan(FUZZ_MUTATIONS / 10);
    });
  },
);
