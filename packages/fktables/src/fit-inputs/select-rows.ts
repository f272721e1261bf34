import { InvalidArgumentError, type Chi2Structure } from '@partonfit/core';
import { cacheKey } from '@partonfit/io';
import type { FitInputs } from './fit-inputs.js';

/** Rows `rows` of a `(inputRows, width)` array, in that order. */
function gather<T extends Float32Array | Int32Array>(
  values: T,
  width: number,
  rows: readonly number[],
): T {
  const out = new (values.constructor as new (length: number) => T)(rows.length * width);
  rows.forEach((row, r) => {
    out.set(values.subarray(row * width, (row + 1) * width), r * width);
  });
  return out;
}

/** A χ² structure's rows (a shared structure stays shared). */
function selectStructureRows(structure: Chi2Structure, rows: readonly number[]): Chi2Structure {
  if (structure.replicas === 1) return structure;
  if (structure.kind === 'covariance') {
    return {
      ...structure,
      replicas: rows.length,
      blocks: structure.blocks.map((block) => ({
        ...block,
        weights: gather(block.weights, block.size * block.size, rows),
      })),
    };
  }
  return {
    ...structure,
    replicas: rows.length,
    blocks: structure.blocks.map((block) => ({
      ...block,
      weights: gather(block.weights, block.modes, rows),
    })),
  };
}

/**
 * The inputs of other replica rows made from these inputs' rows: row r of the result is row
 * `rows[r]` (its pseudodata, split, counts and fold), named `replicas[r]`. A scan builds the
 * inputs of each (fold, replica) once and lays out every batch of trials from them.
 *
 * @param rows - for each new row, the row of `inputs` it copies
 * @param replicas - the new rows' replica numbers (the model's and the methodology's)
 * @throws InvalidArgumentError when the two lists differ in length or a row does not exist
 */
export function selectInputRows(
  inputs: FitInputs,
  rows: readonly number[],
  replicas: readonly number[],
): FitInputs {
  const count = inputs.replicas.length;
  const bad = rows.findIndex((row) => !Number.isInteger(row) || row < 0 || row >= count);
  if (bad >= 0 || rows.length !== replicas.length) {
    throw new InvalidArgumentError({
      argument: 'rows',
      problem:
        bad >= 0
          ? `row ${rows[bad]} is not one of the inputs' ${count} rows`
          : `expected one row per replica (${replicas.length}), got ${rows.length}`,
    });
  }
  return {
    ...inputs,
    key: cacheKey([inputs.key, rows, replicas]),
    replicas: [...replicas],
    pseudodata: gather(inputs.pseudodata, inputs.ndata, rows),
    training: selectStructureRows(inputs.training, rows),
    validation: selectStructureRows(inputs.validation, rows),
    trainingCounts: gather(inputs.trainingCounts, 1, rows),
    validationCounts: gather(inputs.validationCounts, 1, rows),
    ...(inputs.folds === undefined
      ? {}
      : { folds: { ...inputs.folds, rowFold: gather(inputs.folds.rowFold, 1, rows) } }),
  };
}
