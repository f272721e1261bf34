import { readFile } from 'node:fs/promises';
import {
  decodeLz4Frame,
  importedSubgridValues,
  parsePineapplGrid,
  type PineapplGrid,
  type SparseArray3,
} from '@partonfit/io';
import { UnsupportedInputError } from '@partonfit/core';
import { damageBytes, FUZZ_MUTATIONS, fuzzParser } from '@partonfit/testing';
import {
  ByteWriter,
  encodeFkTableV0,
  encodeFkTableV1,
  HADRONIC_FK_TABLE as HADRONIC,
  DIS_FK_TABLE as DIS,
  writePackedArray,
  type FkTableSpec,
} from '@partonfit/testing/pineappl-bytes';
import { beforeAll, describe, expect, it } from 'vitest';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import { loadBundle } from '../bundle/bundle.js';
import { chi2 } from '../bundle/chi2.js';
import { loadCommonData } from '../commondata/load-commondata.js';
import { covarianceMatrix } from '../covariance/covariance-matrix.js';
import type { DisFkTable } from './fk-table.js';
import { inputFileError } from '@partonfit/testing';
import { loadFkTable } from './load-fk-table.js';
import { atQ0, loadNnpdf40Central, NNPDF40_FOLDER } from './nnpdf40.fixture.js';
import { loadPineapplFkTable, pineapplFkTable, type PineapplFkTable } from './pineappl-fk-table.js';
import { predictFkTable, type PdfAtXGrid } from './predict.js';

const NAME = 'HERA_CC_318GEV_EM_SIGMARED';
const FILE = `${SHARED_DATA}theory_208/fastkernel/${NAME}.pineappl.lz4`;
const METADATA = `${SHARED_DATA}theory_208/fastkernel/${NAME}.metadata.json`;
const hasTable = hasSharedData(`theory_208/fastkernel/${NAME}.pineappl.lz4`, 'PineAPPL FK table');

describe.skipIf(!hasTable)('pineapplFkTable on the theory-208 HERA CC e⁻p table', () => {
  let table: PineapplFkTable;
  let fkTable: DisFkTable;
  let grid: PineapplGrid;
  let plain: Uint8Array;
  beforeAll(async () => {
    table = await loadPineapplFkTable(FILE);
    if (table.fkTable.hadronic) throw new Error('expected a DIS table');
    fkTable = table.fkTable;
    plain = decodeLz4Frame(await readFile(FILE), FILE);
    grid = parsePineapplGrid(plain, { file: FILE });
  });

  it('should hold 42 points, the 9 evolution-basis channels, 50 x nodes and Q0 = 1.65 GeV', async () => {
    const runcard = JSON.parse(
      (JSON.parse(await readFile(METADATA, 'utf8')) as { runcard: string }).runcard,
    ) as { interpolation_xgrid: number[] };
    expect(fkTable).toMatchObject({ name: NAME, file: FILE, ndata: 42, hadronic: false });
    // Σ, g, V, V3, V8, V15, T3, T8, T15: the luminosity of the theory-200 bundle
    expect(fkTable.channels).toEqual([1, 2, 3, 4, 5, 6, 9, 10, 11]);
    expect(Array.from(fkTable.xGrid)).toEqual(runcard.interpolation_xgrid);
    expect(fkTable.q0).toBeCloseTo(1.65, 14);
    expect(fkTable.values).toHaveLength(42 * 9 * 50);
    expect(Array.from(table.binNormalizations)).toEqual(new Array(42).fill(1));
    expect(table.pidBasis).toBe('evol');
    expect(table.fileVersion).toBe(0);
    expect(table.metadata.get('fk_assumptions')).toBe('Nf4Ind');
    expect(JSON.parse(table.metadata.get('theory') ?? '{}')).toMatchObject({ ID: 208, PTO: 1 });
    // the theory card's "ID": 208, "XIF": 1.0, "XIR": 1.0 (the metadata dump beside the table)
    expect(fkTable.theoryScales).toEqual({ factorisation: 1, renormalisation: 1, theoryId: 208 });
  });

  it('should take the scale ratios from the theory card, and none from a card without them', () => {
    const card = JSON.parse(grid.metadata.get('theory') ?? '{}') as Record<string, unknown>;
    const varied = new Map(grid.metadata).set(
      'theory',
      JSON.stringify({ ...card, XIF: 2, XIR: 0.5 }),
    );
    expect(pineapplFkTable({ ...grid, metadata: varied }).fkTable.theoryScales).toEqual({
      factorisation: 2,
      renormalisation: 0.5,
      theoryId: 208,
    });
    const withoutId = new Map(grid.metadata).set('theory', '{"XIF": 2, "XIR": 0.5}');
    expect(pineapplFkTable({ ...grid, metadata: withoutId }).fkTable.theoryScales).toEqual({
      factorisation: 2,
      renormalisation: 0.5,
    });
    // pineko's FONLL combination writes the card as a Python repr, not JSON
    const repr = "{'ID': 208, 'XIF': 1.0, 'XIR': 1.0}";
    for (const theory of ['{"ID": 208}', 'not json', '{"XIF": "2", "XIR": 1}', repr]) {
      const metadata = new Map(grid.metadata).set('theory', theory);
      expect(pineapplFkTable({ ...grid, metadata }).fkTable).not.toHaveProperty('theoryScales');
    }
  });

  it('should equal the stored values over x, read from the bytes by hand', () => {
    // Subgrid [0, 0, 0] (bin 0, channel 0 = gluon, evolution index 2): its `entries` vector
    // starts at byte 53 (header 16, ndarray version 1, shape 24, count 8, variant 4): a u64
    // length, then the values of one run starting at x node 20 (its index pair follows).
    const view = new DataView(plain.buffer, plain.byteOffset, plain.byteLength);
    const entries = Number(view.getBigUint64(53, true));
    const zerosLeft = Number(view.getBigUint64(53 + 8 + 8 * entries + 8, true));
    expect([entries, zerosLeft]).toEqual([30, 20]);
    const gluon = fkTable.channels.indexOf(2);
    for (const k of [0, 7, 29]) {
      const node = zerosLeft + k;
      const stored = view.getFloat64(53 + 8 + 8 * k, true);
      expect(fkTable.values[gluon * 50 + node]).toBe(stored / fkTable.xGrid[node]);
    }
    for (let node = 0; node < zerosLeft; node++) expect(fkTable.values[gluon * 50 + node]).toBe(0);
  });

  it('should rotate a flavour-basis grid and fold channel factors in', () => {
    // the same grid with channels in PDG ids: gluon → 21, and Σ written as 2 · (½ u + ½ ū)
    const channels = grid.channels.map((entries) =>
      entries.flatMap(({ pid1, pid2 }) => {
        if (pid1 === 21) return [{ pid1: 21, pid2, factor: 1 }];
        if (pid1 === 100)
          return [
            { pid1: 2, pid2, factor: 2 },
            { pid1: -2, pid2, factor: 2 },
          ];
        return [];
      }),
    );
    const metadata = new Map(grid.metadata).set('lumi_id_types', 'pdg_mc_ids');
    const rotated = pineapplFkTable({ ...grid, channels, metadata });
    if (rotated.fkTable.hadronic) throw new Error('expected a DIS table');
    const xf = new Float64Array(50 * 14);
    // a PDF with only u = ū = 1 (x·f), so Σ = 2, T3 = 2, T8 = 2, T15 = 2, T24 = 2, T35 = 2
    const flavourOnly = new Float64Array(50 * 14);
    for (let a = 0; a < 50; a++) {
      for (const k of [1, 9, 10, 11, 12, 13]) flavourOnly[a * 14 + k] = 2;
      xf[a * 14 + 1] = 2;
    }
    // 2u + 2ū = 4 times the Σ channel's values; the evolution table sees Σ = 2 times them
    const pdg = predictFkTable(rotated.fkTable, flavourOnly);
    const evolution = predictFkTable(fkTable, xf);
    pdg.forEach((value, n) => {
      expect(value).toBeCloseTo(2 * evolution[n], 12);
    });
  });

  it('should refuse grids that are not FK tables, naming the file', () => {
    const orders = inputFileError(() =>
      pineapplFkTable({
        ...grid,
        orders: [{ alphas: 1, alpha: 0, logxir: 0, logxif: 0, logxia: 0 }],
      }),
    );
    expect(UnsupportedInputError.isInstance(orders)).toBe(true);
    expect(orders.file).toBe(FILE);
    expect(orders.message).toMatch(
      /not an FK table is not supported: it has the orders αs\^1 α\^0/,
    );
    const lagrange = inputFileError(() =>
      pineapplFkTable({
        ...grid,
        subgrids: grid.subgrids.map((subgrid, i) =>
          i === 5 ? { type: 'LagrangeSubgridV2' } : subgrid,
        ),
      }),
    );
    expect(lagrange.key).toBe('subgrids[0, 0, 5]');
    expect(lagrange.message).toMatch(/LagrangeSubgridV2; evolve it \(pineko\) first/);
    const basis = inputFileError(() =>
      pineapplFkTable({
        ...grid,
        metadata: new Map(grid.metadata).set('lumi_id_types', 'flavour'),
      }),
    );
    expect(basis.message).toMatch(/particle-id basis "flavour" is not supported/);
    const pid = inputFileError(() =>
      pineapplFkTable({
        ...grid,
        channels: [[{ pid1: 7, pid2: 11, factor: 1 }], ...grid.channels.slice(1)],
      }),
    );
    expect(pid).toMatchObject({ file: FILE, key: 'channels[0]' });
    expect(pid.message).toMatch(/7 is not an evolution-basis id/);
  });

  it.each([
    ['compressed', 81],
    ['decompressed', 82],
  ] as const)(
    `should read each of ${FUZZ_MUTATIONS} damaged copies of the %s file into finite tables or name the problem`,
    async (form, seed) => {
      const outcome = await fuzzParser({
        original: form === 'compressed' ? new Uint8Array(await readFile(FILE)) : plain,
        damage: damageBytes,
        parse: (bytes) => pineapplFkTable(parsePineapplGrid(bytes, { file: 'fuzz.pineappl.lz4' })),
        seed,
      });
      expect(outcome.refused).toBeGreaterThan(FUZZ_MUTATIONS / 10);
    },
  );

  it('should give the same table from the file rewritten as file version 1 (PineAPPL 1.x)', () => {
    // each subgrid's values over the 50 x nodes, empty ones left out
    const values = grid.subgrids.map((subgrid) => {
      if (subgrid.type === 'EmptySubgridV1') return undefined;
      if (subgrid.type !== 'ImportOnlySubgridV1') throw new Error('expected imported subgrids');
      const dense = Array.from(importedSubgridValues(subgrid));
      return dense.some((value) => value !== 0) ? dense : undefined;
    });
    const normalizations = grid.remapper?.normalizations ?? [];
    const [first0] = grid.subgrids;
    if (first0.type !== 'ImportOnlySubgridV1') throw new Error('expected an imported subgrid');
    const spec: FkTableSpec = {
      hadronic: false,
      channels: grid.channels.map(([{ pid1 }]) => [pid1]),
      xGrid: Array.from(fkTable.xGrid),
      q02: first0.mu2Grid[0].fac ?? 0,
      bins: Array.from(normalizations, (normalization, bin) => ({
        limits: [bin, bin + 1],
        normalization,
      })),
      values,
      metadata: [...grid.metadata],
    };
    const v1 = pineapplFkTable(parsePineapplGrid(encodeFkTableV1(spec), { file: FILE }));
    expect(v1.fileVersion).toBe(1);
    if (v1.fkTable.hadronic) throw new Error('expected a DIS table');
    // PineAPPL 1.x trims each subgrid's nodes to its non-zero values, and the x-grid is their
    // union (`FkTable::x_grid`): here x nodes 20 to 49, the 20 smallest carry only zeros
    expect(Array.from(v1.fkTable.xGrid)).toEqual(Array.from(fkTable.xGrid.subarray(20)));
    expect(v1.fkTable).toMatchObject({ channels: fkTable.channels, q0: fkTable.q0, ndata: 42 });
    for (let row = 0; row < 42 * 9; row++) {
      const full = fkTable.values.subarray(row * 50, (row + 1) * 50);
      expect(Array.from(full.subarray(0, 20))).toEqual(new Array(20).fill(0));
      expect(v1.fkTable.values.subarray(row * 30, (row + 1) * 30)).toEqual(full.subarray(20));
    }
    expect(v1.binNormalizations).toEqual(table.binNormalizations);
    expect(v1.pidBasis).toBe('evol');
  });

  it('should be what loadFkTable gives for the file', async () => {
    const loaded = await loadFkTable(FILE);
    expect(loaded.name).toBe(NAME);
    expect(loaded.values).toEqual(fkTable.values);
  });
});

const hasComparison =
  hasTable &&
  hasSharedData(NNPDF40_FOLDER, 'NNPDF4.0 member 0') &&
  hasSharedData('bundles/HERACOMBCCEM.npz', 'theory-200 HERA CC bundle') &&
  hasSharedData('commondata/HERA_CC_318GEV', 'HERA CC commondata');

describe.skipIf(!hasComparison)(
  'theory 208 (PineAPPL, NLO) against theory 200 (bundle, NNLO)',
  () => {
    let pdf: PdfAtXGrid;
    beforeAll(async () => {
      pdf = atQ0(await loadNnpdf40Central());
    });

    it('should predict HERA CC e⁻p within the NLO–NNLO difference and fit the data as well', async () => {
      const { fkTable } = await loadPineapplFkTable(FILE);
      const bundle = await loadBundle(`${SHARED_DATA}bundles/HERACOMBCCEM.npz`);
      const commonData = await loadCommonData(`${SHARED_DATA}commondata`, 'HERACOMBCCEM');
      expect(commonData).toMatchObject({ name: 'HERA_CC_318GEV_EM-SIGMARED', variant: 'legacy' });
      const nlo = predictFkTable(fkTable, pdf(fkTable.xGrid));
      const nnlo = predictFkTable(bundle.fkTable, pdf(bundle.fkTable.xGrid));
      // theory 208 is NLO (PTO 1, FONLL-B), theory 200 NNLO (FONLL-C): a few per cent apart
      const ratios = Array.from(nlo, (value, n) => value / nnlo[n]);
      const sorted = [...ratios].sort((a, b) => a - b);
      const median = (sorted[20] + sorted[21]) / 2;
      expect(Math.abs(median - 1)).toBeLessThan(0.03);
      expect(sorted[0]).toBeGreaterThan(0.95);
      expect(sorted[41]).toBeLessThan(1.1);
      // the largest difference is at the smallest x (0.008, Q² = 300 GeV²)
      expect(ratios.indexOf(sorted[41])).toBe(0);
      const covariance = covarianceMatrix([commonData]);
      const chi2Nnlo = chi2(commonData.central, nnlo, covariance);
      expect(chi2Nnlo / 53.28 - 1).toBeLessThan(1e-3); // data/README.md, computed with numpy
      const chi2Nlo = chi2(commonData.central, nlo, covariance);
      expect(chi2Nlo / 42).toBeLessThan(1.5);
      expect(Math.abs(chi2Nlo - chi2Nnlo) / 42).toBeLessThan(0.2);
    });
  },
);

/** A full (un-sparse) `SparseArray3` of shape (1, n, n) holding `dense` (n, n) row-major. */
function denseSparseArray(dense: readonly number[], n: number): SparseArray3 {
  const indices = new Float64Array(2 * (n + 1));
  for (let row = 0; row <= n; row++) indices[2 * row + 1] = row * n;
  return { entries: Float64Array.from(dense), indices, start: 0, dimensions: [1, n, n] };
}

describe('pineapplFkTable on a hadronic grid', () => {
  const xGrid = Float64Array.of(0.01, 0.1, 0.5);
  const subgrid = (dense: readonly number[]) =>
    ({
      type: 'ImportOnlySubgridV2',
      array: denseSparseArray(dense, 3),
      mu2Grid: [{ ren: 100, fac: 2.7225 }],
      x1Grid: xGrid,
      x2Grid: xGrid,
    }) as const;
  const grid: PineapplGrid = {
    file: 'pp.pineappl.lz4',
    fileVersion: 0,
    subgridShape: [1, 2, 2],
    subgrids: [
      subgrid([1, 2, 3, 4, 5, 6, 7, 8, 9]),
      { type: 'EmptySubgridV1' },
      subgrid([0, 0, 0, 0, 1, 0, 0, 0, 0]),
      subgrid([0, 0, 0, 0, 0, 0, 0, 0, 2]),
    ],
    // g g, and Σ g with a factor 3
    channels: [[{ pid1: 21, pid2: 21, factor: 1 }], [{ pid1: 100, pid2: 21, factor: 3 }]],
    binLimits: { kind: 'unequal', limits: Float64Array.of(0, 0.5, 2.5) },
    orders: [{ alphas: 0, alpha: 0, logxir: 0, logxif: 0, logxia: 0 }],
    remapper: undefined,
    metadata: new Map([['lumi_id_types', 'evol']]),
  };

  it('should divide by x1·x2 and the bin widths and fold the factors into pairs', () => {
    const { fkTable, binNormalizations } = pineapplFkTable(grid);
    expect(Array.from(binNormalizations)).toEqual([0.5, 2]);
    if (!fkTable.hadronic) throw new Error('expected a hadronic table');
    expect(fkTable).toMatchObject({ name: 'pp', ndata: 2 });
    expect(fkTable.q0).toBeCloseTo(1.65, 14);
    expect(fkTable.channels).toEqual([
      [1, 2],
      [2, 2],
    ]);
    // point 0, channel g g (index 1), x nodes (1, 2): 6 / (0.1 · 0.5) / 0.5
    expect(fkTable.values[(0 * 2 + 1) * 9 + 1 * 3 + 2]).toBeCloseTo(6 / 0.05 / 0.5, 12);
    expect(fkTable.values[(0 * 2 + 0) * 9 + 1 * 3 + 2]).toBe(0);
    // point 1, channel Σ g (index 0), x nodes (2, 2): 3 · 2 / 0.25 / 2
    expect(fkTable.values[(1 * 2 + 0) * 9 + 2 * 3 + 2]).toBeCloseTo((3 * 2) / 0.25 / 2, 12);
  });

  it('should place subgrids on other x nodes into the union of the nodes', () => {
    const other = {
      ...subgrid([0, 0, 0, 0, 0, 0, 0, 0, 2]),
      x2Grid: Float64Array.of(0.01, 0.2, 0.5),
    };
    const { fkTable } = pineapplFkTable({
      ...grid,
      subgrids: [...grid.subgrids.slice(0, 3), other],
    });
    expect(Array.from(fkTable.xGrid)).toEqual([0.01, 0.1, 0.2, 0.5]);
    // point 1, channel Σ g (index 0), x nodes (0.5, 0.5) at places (3, 3): 3 · 2 / 0.25 / 2
    expect(fkTable.values[(1 * 2 + 0) * 16 + 3 * 4 + 3]).toBeCloseTo((3 * 2) / 0.25 / 2, 12);
    // point 0, channel g g, x nodes (0.1, 0.5) at places (1, 3): 6 / 0.05 / 0.5
    expect(fkTable.values[(0 * 2 + 1) * 16 + 1 * 4 + 3]).toBeCloseTo(6 / 0.05 / 0.5, 12);
  });

  it('should convolve an antiproton as the charge-conjugated proton, as PineAPPL does', () => {
    const table = (channels: PineapplGrid['channels'], particle: string) =>
      pineapplFkTable({
        ...grid,
        channels,
        metadata: new Map([
          ['lumi_id_types', 'pdg_mc_ids'],
          ['initial_state_2', particle],
        ]),
      }).fkTable;
    // u ū and g d (×3) from p p̄ are u u and g d̄ from p p: the antiproton's ū is the proton's u
    const ppbar = [[{ pid1: 2, pid2: -2, factor: 1 }], [{ pid1: 21, pid2: 1, factor: 3 }]];
    const pp = [[{ pid1: 2, pid2: 2, factor: 1 }], [{ pid1: 21, pid2: -1, factor: 3 }]];
    expect(table(ppbar, '-2212')).toEqual(table(pp, '2212'));
    expect(table(ppbar, '2212')).not.toEqual(table(pp, '2212'));
  });

  it('should refuse a beam that is neither a proton nor an antiproton', () => {
    const neutron = new Map(grid.metadata).set('initial_state_2', '2112');
    expect(() => pineapplFkTable({ ...grid, metadata: neutron })).toThrow(
      'pp.pineappl.lz4: initial_state_2: a convolution with particle 2112',
    );
    expect(() => pineapplFkTable({ ...grid, metadata: neutron })).toThrow(
      "partonfit fits the proton's PDF and convolves protons (2212) and antiprotons (-2212) only",
    );
  });

  it('should refuse a lepton side with several nodes', () => {
    const dis = new Map(grid.metadata).set('initial_state_2', '-11');
    const lepton = inputFileError(() => pineapplFkTable({ ...grid, metadata: dis }));
    expect(lepton.message).toMatch(/3 x nodes for the lepton \(x2\)/);
  });
});

describe('pineapplFkTable on file version 1 (PineAPPL 1.x)', () => {
  const fromBytes = (bytes: Uint8Array): PineapplFkTable =>
    pineapplFkTable(parsePineapplGrid(bytes, { file: 'v1/TABLE.pineappl.lz4' }));

  it('should give a DIS table equal to the version 0 one', () => {
    const v0 = fromBytes(encodeFkTableV0(DIS));
    const v1 = fromBytes(encodeFkTableV1(DIS));
    expect(v1.fkTable).toEqual(v0.fkTable);
    expect(v1.binNormalizations).toEqual(v0.binNormalizations);
    expect(v1.pidBasis).toBe('evol');
    expect(v1.fileVersion).toBe(1);
    const { fkTable } = v1;
    if (fkTable.hadronic) throw new Error('expected a DIS table');
    expect(fkTable).toMatchObject({ name: 'TABLE', ndata: 2, channels: [1, 2, 4] });
    expect(fkTable.q0).toBeCloseTo(1.65, 14);
    expect(Array.from(fkTable.xGrid)).toEqual([0.01, 0.1, 0.3, 0.7]);
    // (point, channel Σ g V3, x): bin 0 g at x = 0.1: 2 / 0.1; bin 1 V3 at x = 0.01: 7 / 0.01 / 2
    expect(fkTable.values[(0 * 3 + 1) * 4 + 1]).toBeCloseTo(20, 12);
    expect(fkTable.values[(0 * 3 + 0) * 4 + 3]).toBeCloseTo(4 / 0.7, 12);
    expect(fkTable.values[(1 * 3 + 1) * 4 + 3]).toBeCloseTo(6 / 0.7 / 2, 12);
    expect(fkTable.values[(1 * 3 + 2) * 4 + 0]).toBeCloseTo(350, 10);
    expect(v1.metadata.get('fk_assumptions')).toBe('Nf4Ind');
  });

  it('should give a hadronic table equal to the version 0 one', () => {
    const v0 = fromBytes(encodeFkTableV0(HADRONIC));
    const v1 = fromBytes(encodeFkTableV1(HADRONIC));
    expect(v1.fkTable).toEqual(v0.fkTable);
    expect(Array.from(v1.binNormalizations)).toEqual([0.5]);
    const { fkTable } = v1;
    if (!fkTable.hadronic) throw new Error('expected a hadronic table');
    expect(fkTable.channels).toEqual([
      [1, 2],
      [2, 2],
    ]);
    // g g at (x1, x2) = (0.2, 0.6): 2 / (0.2 · 0.6) / 0.5; Σ g at (0.6, 0.6): 8 / 0.36 / 0.5
    expect(fkTable.values[(0 * 2 + 1) * 9 + 1 * 3 + 2]).toBeCloseTo(2 / 0.12 / 0.5, 12);
    expect(fkTable.values[(0 * 2 + 0) * 9 + 2 * 3 + 2]).toBeCloseTo(8 / 0.36 / 0.5, 12);
  });

  it('should charge-conjugate the antiproton beam of a version 1 grid', () => {
    // Σ V and g V3 from p p̄: the antiproton's valence distributions are minus the proton's
    const channels = [
      [100, 200],
      [21, 203],
    ];
    const ppbar = fromBytes(
      encodeFkTableV1({ ...HADRONIC, channels, particles: [2212, -2212] }),
    ).fkTable;
    const pp = fromBytes(encodeFkTableV1({ ...HADRONIC, channels })).fkTable;
    expect(ppbar.channels).toEqual(pp.channels);
    expect(Array.from(ppbar.values)).toEqual(Array.from(pp.values, (value) => 0 - value));
    // the first beam an antiproton, or both: each side's valence flips once
    const valence = { ...HADRONIC, channels: [[200, 203]], values: HADRONIC.values.slice(0, 1) };
    const pp2 = fromBytes(encodeFkTableV1(valence)).fkTable;
    const pbarp = fromBytes(encodeFkTableV1({ ...valence, particles: [-2212, 2212] })).fkTable;
    expect(Array.from(pbarp.values)).toEqual(Array.from(pp2.values, (value) => 0 - value));
    const pbarpbar = fromBytes(encodeFkTableV1({ ...valence, particles: [-2212, -2212] })).fkTable;
    expect(pbarpbar.values).toEqual(pp2.values);
    const lead = encodeFkTableV1({ ...HADRONIC, particles: [2212, 1000822080] });
    expect(() => fromBytes(lead)).toThrow(
      'v1/TABLE.pineappl.lz4: convolutions[1].pid: a convolution with particle 1000822080',
    );
    const v0 = encodeFkTableV0({ ...HADRONIC, channels, particles: [2212, -2212] });
    expect(fromBytes(v0).fkTable).toEqual(ppbar);
  });

  it('should refuse a value that float32 cannot hold, as the legacy reader does', () => {
    // 1e37 at (x1, x2) = (0.05, 0.05) in a bin normalised to 0.5: 8e39 > 3.4e38
    const values = [[1e37, 0, 0, 0, 1, 2, 0, 3, 0], HADRONIC.values[1]];
    expect(() => fromBytes(encodeFkTableV1({ ...HADRONIC, values }))).toThrow(
      'v1/TABLE.pineappl.lz4: subgrids[0, 0, 0]: value 1e+37 at x nodes (0.05, 0.05) gives 7.999999999999998e+39, beyond the float32 range (±3.4e38) fits compute in',
    );
  });

  it('should refuse version 1 grids that are not FK tables, naming the file', () => {
    const scales = inputFileError(() =>
      fromBytes(encodeFkTableV1({ ...DIS, scaleNodes: [2.7225, 10] })),
    );
    expect(UnsupportedInputError.isInstance(scales)).toBe(true);
    expect(scales).toMatchObject({ file: 'v1/TABLE.pineappl.lz4', key: 'subgrids[0, 0, 0]' });
    expect(scales.message).toMatch(/2 scales, an FK table has one/);
    const orders = inputFileError(() =>
      fromBytes(encodeFkTableV1({ ...DIS, order: [1, 0, 0, 0, 0] })),
    );
    expect(orders.message).toMatch(/it has the orders αs\^1 α\^0; an FK table has one/);
    // subgrid [0, 0, 2] (empty, variant 1) replaced by an InterpSubgridV1 (variant 0)
    const bytes = encodeFkTableV1({ ...DIS, values: [undefined, ...DIS.values.slice(1)] });
    const interp = new ByteWriter().u32(0);
    writePackedArray(interp, [0, 0, 0, 0], [1, 4]);
    interp.u64(0).u64(0); // no interps, no static nodes
    const spliced = new Uint8Array([
      ...bytes.subarray(0, 49),
      ...interp.bytes(),
      ...bytes.subarray(53),
    ]);
    const subgrid = inputFileError(() => fromBytes(spliced));
    expect(subgrid).toMatchObject({ file: 'v1/TABLE.pineappl.lz4', key: 'subgrids[0, 0, 0]' });
    expect(subgrid.message).toMatch(/it holds an InterpSubgridV1; evolve it \(pineko\) first/);
    // Conv { PolPDF, 2212 }: the convolution type follows the pid basis Evol and the count 1
    const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
    const at = hex.indexOf('01000000' + '0100000000000000' + '00000000' + 'a4080000') / 2 + 12;
    const polarised = bytes.slice();
    polarised[at] = 1;
    const conv = inputFileError(() => fromBytes(polarised));
    expect(conv.message).toMatch(/convolution type PolPDF is not supported/);
  });

  it.each([
    ['DIS', DIS, 181],
    ['hadronic', HADRONIC, 182],
  ] as const)(
    `should read each of ${FUZZ_MUTATIONS} damaged copies of a version 1 %s table into finite tables or name the problem`,
    async (_, spec, seed) => {
      const outcome = await fuzzParser({
        original: encodeFkTableV1(spec),
        damage: damageBytes,
        parse: fromBytes,
        seed,
      });
      expect(outcome.refused).toBeGreaterThan(FUZZ_MUTATIONS / 10);
    },
  );
});
