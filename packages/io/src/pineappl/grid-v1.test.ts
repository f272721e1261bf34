import { UnsupportedInputError } from '@partonfit/core';
import { damageBytes, FUZZ_MUTATIONS, fuzzParser, inputFileError } from '@partonfit/testing';
import { storedLz4Frame } from '@partonfit/testing/lz4';
import {
  ByteWriter,
  encodeFkTableV1,
  HADRONIC_FK_TABLE as HADRONIC,
  DIS_FK_TABLE as DIS,
  writePackedArray,
} from '@partonfit/testing/pineappl-bytes';
import { describe, expect, it } from 'vitest';
import {
  importedSubgridValues,
  parsePineapplGrid,
  pineapplBinNormalizations,
} from './pineappl-grid.js';

/**
 * Byte offsets in a version 1 file: `PineAPPL` + u64 version (16), ndarray version (1), shape
 * (24), then the u64 subgrid count and subgrid [0, 0, 0]'s u32 variant.
 */
const SUBGRID_COUNT = 41;
const FIRST_SUBGRID_TYPE = 49;

const parse = (bytes: Uint8Array) => parsePineapplGrid(bytes, { file: 'v1.pineappl.lz4' });

describe('parsePineapplGrid on file version 1 (PineAPPL 1.x)', () => {
  it('should read every field of a DIS FK table', () => {
    const grid = parse(encodeFkTableV1(DIS));
    expect(grid.fileVersion).toBe(1);
    expect(grid.subgridShape).toEqual([1, 2, 3]);
    expect(grid.orders).toEqual([{ alphas: 0, alpha: 0, logxir: 0, logxif: 0, logxia: 0 }]);
    expect(grid.channels).toEqual([
      [{ pid1: 21, pid2: 0, factor: 1 }],
      [{ pid1: 100, pid2: 0, factor: 1 }],
      [{ pid1: 203, pid2: 0, factor: 1 }],
    ]);
    expect(grid.pidBasis).toBe('Evol');
    expect(grid.convolutions).toEqual([{ type: 'UnpolPDF', pid: 2212 }]);
    expect(grid.binLimits).toEqual({ kind: 'unequal', limits: Float64Array.of(0, 1, 2) });
    expect(Array.from(pineapplBinNormalizations(grid))).toEqual([1, 2]);
    expect(Array.from(grid.remapper?.limits ?? [])).toEqual([0, 1, 1, 3]);
    expect([...grid.metadata]).toEqual([
      ['fk_assumptions', 'Nf4Ind'],
      ['theory', '{"ID": 40000000}'],
    ]);
    expect(grid.subgrids.map((subgrid) => subgrid.type)).toEqual([
      'ImportSubgridV1',
      'ImportSubgridV1',
      'EmptySubgridV1',
      'ImportSubgridV1',
      'EmptySubgridV1',
      'ImportSubgridV1',
    ]);
    const [first, second, , fourth, , sixth] = grid.subgrids;
    if (
      first.type !== 'ImportSubgridV1' ||
      second.type !== 'ImportSubgridV1' ||
      fourth.type !== 'ImportSubgridV1' ||
      sixth.type !== 'ImportSubgridV1'
    ) {
      throw new Error('expected imported subgrids');
    }
    // the scale is Scale(0)'s one node for fac; ren is NoScale, as FK tables of PineAPPL 1.x have
    expect(first.mu2Grid).toEqual([{ ren: undefined, fac: 2.7224999999999997 }]);
    // nodes trimmed to the non-zero ones: x = 0.1, 0.3 hold 2, 3
    expect(Array.from(first.x1Grid)).toEqual([0.1, 0.3]);
    expect(Array.from(first.x2Grid)).toEqual([1]);
    expect(Array.from(importedSubgridValues(first))).toEqual([2, 3]);
    // two groups inside all four nodes: 1 at x = 0.01, 4 at x = 0.7
    expect(Array.from(second.x1Grid)).toEqual([0.01, 0.1, 0.3, 0.7]);
    expect(Array.from(second.array.startIndices)).toEqual([0, 3]);
    expect(Array.from(importedSubgridValues(second))).toEqual([1, 0, 0, 4]);
    expect(Array.from(fourth.x1Grid)).toEqual([0.3, 0.7]);
    expect(Array.from(importedSubgridValues(fourth))).toEqual([5, 6]);
    expect(Array.from(sixth.x1Grid)).toEqual([0.01]);
    expect(Array.from(importedSubgridValues(sixth))).toEqual([7]);
  });

  it('should read a hadronic FK table, also from an LZ4 frame', () => {
    const grid = parse(storedLz4Frame(encodeFkTableV1(HADRONIC)));
    expect(grid.subgridShape).toEqual([1, 1, 2]);
    expect(grid.channels).toEqual([
      [{ pid1: 21, pid2: 21, factor: 1 }],
      [{ pid1: 100, pid2: 21, factor: 1 }],
    ]);
    expect(grid.convolutions).toEqual([
      { type: 'UnpolPDF', pid: 2212 },
      { type: 'UnpolPDF', pid: 2212 },
    ]);
    expect(Array.from(pineapplBinNormalizations(grid))).toEqual([0.5]);
    const [gg, sigmaG] = grid.subgrids;
    if (gg.type !== 'ImportSubgridV1' || sigmaG.type !== 'ImportSubgridV1') {
      throw new Error('expected imported subgrids');
    }
    // rows x1 = 0.2, 0.6 and columns x2 = 0.2, 0.6 hold [[1, 2], [3, 0]]
    expect(Array.from(gg.x1Grid)).toEqual([0.2, 0.6]);
    expect(Array.from(gg.x2Grid)).toEqual([0.2, 0.6]);
    expect(Array.from(importedSubgridValues(gg))).toEqual([1, 2, 3, 0]);
    expect(Array.from(sigmaG.x1Grid)).toEqual([0.05, 0.2, 0.6]);
    expect(Array.from(importedSubgridValues(sigmaG))).toEqual([9, 0, 0, 0, 0, 0, 0, 0, 8]);
    expect(sigmaG.mu2Grid).toEqual([{ ren: undefined, fac: 2.7224999999999997 }]);
  });

  it('should bring kinematics in another order into (mu2, x1, x2)', () => {
    // one subgrid, kinematics [X(1), Scale(0), X(0)]: shape (x2 = 2, mu2 = 1, x1 = 3)
    const writer = new ByteWriter();
    for (const byte of new TextEncoder().encode('PineAPPL')) writer.u8(byte);
    writer.u64(1).u8(1).u64(1).u64(1).u64(1).u64(1);
    writer.u32(2);
    // values v[x2][0][x1] = 10 · x2 + x1 + 1
    writePackedArray(writer, [1, 2, 3, 11, 12, 13], [2, 1, 3]);
    writer.u64(3).f64s([0.3, 0.4]).f64s([4]).f64s([0.1, 0.2, 0.5]);
    writer.u64(1).u64(1).f64(0).f64(1).f64(1).f64s([0, 1]); // one bin
    writer.u64(1).u8(0).u8(0).u8(0).u8(0).u8(0);
    writer.u64(1).u64(1).u64(2).i32(21).i32(21).f64(1);
    writer.u32(0); // Pdg
    writer.u64(2).u32(0).i32(2212).u32(0).i32(2212);
    writer.u64(0); // no interps
    writer.u64(3).u32(1).u64(1).u32(0).u64(0).u32(1).u64(0);
    writer.u32(1).u64(0).u32(1).u64(0).u32(0); // ren and fac Scale(0)
    writer.u64(0).u32(0).u64(0).u64(0);
    const grid = parse(writer.bytes());
    expect(grid.pidBasis).toBe('Pdg');
    const [subgrid] = grid.subgrids;
    if (subgrid.type !== 'ImportSubgridV1') throw new Error('expected an imported subgrid');
    expect(subgrid.mu2Grid).toEqual([{ ren: 4, fac: 4 }]);
    expect(Array.from(subgrid.x1Grid)).toEqual([0.1, 0.2, 0.5]);
    expect(Array.from(subgrid.x2Grid)).toEqual([0.3, 0.4]);
    // (x1, x2) row-major: v = 10 · x2 + x1 + 1
    expect(Array.from(importedSubgridValues(subgrid))).toEqual([1, 11, 2, 12, 3, 13]);
  });

  it('should read past interpolation subgrids and reference results', () => {
    const bytes = encodeFkTableV1({ ...HADRONIC, values: [undefined, HADRONIC.values[1]] });
    // subgrid [0, 0, 0]: an InterpSubgridV1 (variant 0) instead of EmptySubgridV1 (variant 1)
    const interp = new ByteWriter().u32(0);
    writePackedArray(interp, [0, 0.5, 0, 0], [1, 2, 2]);
    interp.u64(1).f64(2e-7).f64(1).u64(50).u64(3).u32(0).u32(0).u32(0);
    interp.u64(2).u8(0).u8(1).f64(91.1876); // static nodes: None, Some(91.1876)
    // the reference: ByBinOrder([1.5, 2.5]) with ByBinChannel([0.1], Quadrature), and "NNPDF40"
    const reference = new ByteWriter().u64(1).u32(1).f64s([1.5, 2.5]).u32(2).f64s([0.1]).u32(1);
    reference.u64(1).string('NNPDF40');
    const grid = parse(
      new Uint8Array([
        ...bytes.subarray(0, FIRST_SUBGRID_TYPE),
        ...interp.bytes(),
        ...bytes.subarray(FIRST_SUBGRID_TYPE + 4, bytes.length - 16),
        ...reference.bytes(),
      ]),
    );
    expect(grid.subgrids.map((subgrid) => subgrid.type)).toEqual([
      'InterpSubgridV1',
      'ImportSubgridV1',
    ]);
    expect(grid.channels).toHaveLength(2);
  });

  it('should give typed errors naming the file for damaged version 1 grids', () => {
    const plain = encodeFkTableV1(DIS);
    const damaged = (change: (view: DataView) => void): Uint8Array => {
      const bytes = plain.slice();
      change(new DataView(bytes.buffer));
      return bytes;
    };
    for (const cut of [20, 60, 200, plain.length - 1]) {
      const truncated = inputFileError(() => parse(plain.subarray(0, cut)));
      expect(truncated.file).toBe('v1.pineappl.lz4');
      expect(truncated.message).toMatch(/truncated|corrupt length/);
    }
    const length = inputFileError(() =>
      parse(
        damaged((view) => {
          view.setUint32(SUBGRID_COUNT + 4, 0x10, true);
        }),
      ),
    );
    expect(length.key).toBe('subgrids.data');
    expect(length.message).toMatch(/corrupt length 68719476742/);
    const variant = inputFileError(() =>
      parse(
        damaged((view) => {
          view.setUint32(FIRST_SUBGRID_TYPE, 3, true);
        }),
      ),
    );
    expect(variant.message).toBe(
      'v1.pineappl.lz4: subgrids[0, 0, 0] (subgrid type): unknown variant 3 (expected 0 to 2) (byte 49)',
    );
    // the entries of subgrid [0, 0, 0] (2 values) are followed by its start indices: [1]
    const start = inputFileError(() =>
      parse(
        damaged((view) => {
          view.setUint32(FIRST_SUBGRID_TYPE + 4 + 8 + 16 + 8, 3, true);
        }),
      ),
    );
    expect(start.key).toBe('subgrids[0, 0, 0].array');
    expect(start.message).toMatch(/group 0 ends at 5, past the 2 values of the shape/);
    const longer = new Uint8Array(plain.length + 1);
    longer.set(plain);
    expect(inputFileError(() => parse(longer)).message).toMatch(
      /1 bytes follow the end of the grid/,
    );
    const version = inputFileError(() =>
      parse(
        damaged((view) => {
          view.setUint8(8, 2);
        }),
      ),
    );
    expect(UnsupportedInputError.isInstance(version)).toBe(true);
    expect(version.message).toMatch(/PineAPPL file version 2 is not supported/);
  });

  it('should refuse three convolutions by name', () => {
    const bytes = encodeFkTableV1(DIS);
    // the convolutions follow the 4-byte pid basis: a u64 count 1 and one Conv (8 bytes)
    const text = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
    const conv = '0100000000000000' + '00000000' + 'a4080000';
    const at = text.indexOf('01000000' + conv) / 2 + 4;
    const bytes3 = new Uint8Array(bytes.length + 16);
    bytes3.set(bytes.subarray(0, at));
    new DataView(bytes3.buffer).setUint32(at, 3, true);
    bytes3.set(bytes.subarray(at + 8, at + 16), at + 8);
    bytes3.set(bytes.subarray(at + 8, at + 16), at + 16);
    bytes3.set(bytes.subarray(at + 8, at + 16), at + 24);
    bytes3.set(bytes.subarray(at + 16), at + 32);
    const error = inputFileError(() => parse(bytes3));
    expect(UnsupportedInputError.isInstance(error)).toBe(true);
    expect(error.message).toBe(
      'v1.pineappl.lz4: convolutions: a PineAPPL grid with 3 convolutions is not supported: ' +
        'partonfit reads grids with one (DIS) or two (hadronic) convolutions',
    );
  });

  it.each([
    ['DIS', DIS, 171],
    ['hadronic', HADRONIC, 172],
  ] as const)(
    `should decode each of ${FUZZ_MUTATIONS} damaged copies of a version 1 %s table or name the problem`,
    async (_, spec, seed) => {
      const outcome = await fuzzParser({
        original: encodeFkTableV1(spec),
        damage: damageBytes,
        parse,
        seed,
      });
      expect(outcome.refused).toBeGreaterThan(FUZZ_MUTATIONS / 10);
    },
  );
});
