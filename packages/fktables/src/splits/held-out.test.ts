import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseRuncard, type EigenbasisChi2, type Runcard } from '@partonfit/core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FitInputs } from '../fit-inputs/fit-inputs.js';
import { prepareFitInputs } from '../fit-inputs/prepare-fit-inputs.js';
import { selectInputRows } from '../fit-inputs/select-rows.js';
import { chi2FromStructure } from './chi2-reference.js';
import { eigenbasisWithoutExcluded, heldOutMasks, type DataFolds } from './held-out.js';

const CLOSURE = fileURLToPath(new URL('../../../../examples/closure.yml', import.meta.url));

/** Two folds: F2D and F2C held out, and XG held out but overfitted (kept in training). */
const FOLDS: DataFolds = {
  datasets: [['CLOSURE_F2D', 'CLOSURE_F2C'], ['CLOSURE_XG']],
  overfit: [false, true],
  rowFold: [0, 0, 1],
};

async function closureInputs(
  changes: (text: string) => string,
  replicas: number[],
  folds?: DataFolds,
): Promise<{ runcard: Runcard; inputs: FitInputs }> {
  const { runcard } = parseRuncard(changes(await readFile(CLOSURE, 'utf8')), { file: CLOSURE });
  const { inputs } = await prepareFitInputs(runcard, {
    runcardFile: CLOSURE,
    replicas,
    cacheFolder: null,
    ...(folds === undefined ? {} : { folds }),
  });
  return { runcard, inputs };
}

const span = (inputs: FitInputs, name: string) => {
  const dataset = inputs.datasets.find((each) => each.name === name);
  if (dataset === undefined) throw new Error(name);
  return dataset;
};

describe('k-fold inputs: rows that leave a partition out', () => {
  let plain: FitInputs;
  let folded: FitInputs;

  beforeAll(async () => {
    ({ inputs: plain } = await closureInputs((text) => text, [1, 2, 1]));
    ({ inputs: folded } = await closureInputs((text) => text, [1, 2, 1], FOLDS));
  });

  it("mark each fold's held-out points, and hold them out of training and validation", () => {
    const { ndata } = folded;
    const heldOut = folded.folds?.heldOut ?? new Uint8Array();
    const f2d = span(folded, 'CLOSURE_F2D');
    const f2c = span(folded, 'CLOSURE_F2C');
    expect(heldOut.subarray(0, ndata).reduce((sum, point) => sum + point, 0)).toBe(
      f2d.ndata + f2c.ndata,
    );
    expect(heldOut[f2d.offset]).toBe(1);
    expect(heldOut[ndata + span(folded, 'CLOSURE_XG').offset]).toBe(1);
    // rows 0 and 1 lose F2D and F2C from both training and validation; row 2 overfits XG
    for (const row of [0, 1]) {
      expect(folded.trainingCounts[row] + folded.validationCounts[row]).toBe(
        ndata - f2d.ndata - f2c.ndata,
      );
    }
    expect(folded.trainingCounts[2]).toBe(plain.trainingCounts[2]);
    expect(folded.validationCounts[2]).toBe(plain.validationCounts[2]);
    // replica 1 in rows 0 and 2: the same pseudodata
    expect(folded.pseudodata.subarray(0, ndata)).toEqual(folded.pseudodata.subarray(2 * ndata));
  });

  it("give a held-out point no weight in the replica's χ², and leave the others' alone", () => {
    const { ndata } = folded;
    const f2c = span(folded, 'CLOSURE_F2C');
    // an F2C point in replica 1's training split (rows 0 and 2 are replica 1)
    const weightOf = (row: number, point: number) => {
      if (plain.training.kind !== 'covariance') throw new Error('expected a data-point split');
      const block = plain.training.blocks.find(
        (each) => point >= each.offset && point < each.offset + each.size,
      );
      if (block === undefined) throw new Error(`no block holds point ${point}`);
      const i = point - block.offset;
      return block.weights[(row * block.size + i) * block.size + i];
    };
    const point = Array.from({ length: f2c.ndata }, (_, k) => f2c.offset + k).find(
      (candidate) => weightOf(0, candidate) !== 0,
    );
    if (point === undefined) throw new Error('replica 1 trains on no F2C point');
    const residuals = new Float64Array(3 * ndata).fill(0.01);
    const plainBase = chi2FromStructure(plain.training, residuals);
    const base = chi2FromStructure(folded.training, residuals);
    residuals[point] = 1e3;
    residuals[2 * ndata + point] = 1e3;
    const plainChanged = chi2FromStructure(plain.training, residuals);
    const changed = chi2FromStructure(folded.training, residuals);
    // without folds the point counts; with F2C held out, row 0 does not see it
    expect(plainChanged[0] - plainBase[0]).toBeGreaterThan(1e3);
    expect(changed[0]).toBeCloseTo(base[0], 6);
    // row 2 overfits XG only: it keeps F2C, as without folds
    expect(changed[2]).toBeCloseTo(plainChanged[2], 0);
    expect(changed[2] - base[2]).toBeGreaterThan(1e3);
  });

  it('lay out other rows from these: the same pseudodata, split and fold', () => {
    const rows = selectInputRows(folded, [2, 0, 0], [7, 8, 9]);
    const { ndata } = folded;
    expect(rows.replicas).toEqual([7, 8, 9]);
    expect(Array.from(rows.folds?.rowFold ?? [])).toEqual([1, 0, 0]);
    expect(rows.pseudodata.subarray(0, ndata)).toEqual(folded.pseudodata.subarray(2 * ndata));
    expect(Array.from(rows.trainingCounts)).toEqual([
      folded.trainingCounts[2],
      folded.trainingCounts[0],
      folded.trainingCounts[0],
    ]);
    const residuals = Float64Array.from({ length: 3 * ndata }, (_, i) => Math.sin(i % ndata));
    const original = chi2FromStructure(folded.validation, residuals);
    expect(Array.from(chi2FromStructure(rows.validation, residuals))).toEqual([
      original[2],
      original[0],
      original[0],
    ]);
    expect(() => selectInputRows(folded, [3], [1])).toThrow(
      /row 3 is not one of the inputs' 3 rows/,
    );
  });

  it('refuse a partition that names a dataset the fit does not have', () => {
    const spans = folded.datasets;
    expect(() =>
      heldOutMasks({ datasets: [['HERA_NC']], overfit: [false], rowFold: [0] }, spans),
    ).toThrow(/HERA_NC is not a fitted dataset/);
    expect(() =>
      heldOutMasks({ datasets: [['CLOSURE_XG']], overfit: [false], rowFold: [1] }, spans),
    ).toThrow(/expected a fold between 0 and 0/);
  });
});

describe('k-fold inputs in the diagonal basis', () => {
  it('drop the modes of blocks a fold holds out whole, and refuse to cut a block', () => {
    const structure: EigenbasisChi2 = {
      kind: 'eigenbasis',
      ndata: 4,
      replicas: 1,
      blocks: [
        {
          offset: 0,
          size: 2,
          modes: 2,
          rotation: new Float32Array(4),
          weights: Float32Array.from([1, 2]),
        },
        {
          offset: 2,
          size: 2,
          modes: 1,
          rotation: new Float32Array(2),
          weights: Float32Array.from([3]),
        },
      ],
    };
    const names = [
      { name: 'A', offset: 0, ndata: 1 },
      { name: 'B', offset: 1, ndata: 1 },
      { name: 'C', offset: 2, ndata: 2 },
    ];
    const excluded = Uint8Array.from([0, 0, 1, 1, 0, 0, 0, 0]);
    const { structure: kept, modes } = eigenbasisWithoutExcluded(structure, excluded, names);
    expect(Array.from(kept.blocks[0].weights)).toEqual([1, 2, 1, 2]);
    expect(Array.from(kept.blocks[1].weights)).toEqual([0, 3]);
    expect(Array.from(modes)).toEqual([2, 3]);
    expect(() =>
      eigenbasisWithoutExcluded(structure, Uint8Array.from([1, 0, 0, 0]), names),
    ).toThrow(/part of the correlated datasets A, B/);
  });
});
