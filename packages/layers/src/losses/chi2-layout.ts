import type { serialization } from '@tensorflow/tfjs-core';
import {
  InvalidArgumentError,
  ShapeError,
  type Chi2Structure,
  type CovarianceChi2,
  type CovarianceChi2Block,
  type EigenbasisChi2,
  type EigenbasisChi2Block,
} from '@partonfit/core';

/** A covariance block without its weights. */
export type CovarianceChi2BlockLayout = Omit<CovarianceChi2Block, 'weights'>;

/** An eigenbasis block without its rotation and weights. */
export type EigenbasisChi2BlockLayout = Omit<EigenbasisChi2Block, 'rotation' | 'weights'>;

/** A {@link CovarianceChi2} without its values: what a loss layer's config records. */
export interface CovarianceChi2Layout extends Omit<CovarianceChi2, 'blocks'> {
  readonly blocks: readonly CovarianceChi2BlockLayout[];
}

/** An {@link EigenbasisChi2} without its values: what a loss layer's config records. */
export interface EigenbasisChi2Layout extends Omit<EigenbasisChi2, 'blocks'> {
  readonly blocks: readonly EigenbasisChi2BlockLayout[];
}

/** Either layout. */
export type Chi2StructureLayout = CovarianceChi2Layout | EigenbasisChi2Layout;

/** Whether a structure carries its values (rather than being a layout from a config). */
export function hasStructureValues(
  structure: Chi2Structure | Chi2StructureLayout,
): structure is Chi2Structure {
  return structure.blocks.every((block) => 'weights' in block);
}

/** The layout of a structure, without its values. */
export function chi2Layout(structure: Chi2Structure | Chi2StructureLayout): Chi2StructureLayout {
  if (structure.kind === 'covariance') {
    return {
      kind: 'covariance',
      ndata: structure.ndata,
      replicas: structure.replicas,
      blocks: structure.blocks.map(({ offset, size }) => ({ offset, size })),
    };
  }
  return {
    kind: 'eigenbasis',
    ndata: structure.ndata,
    replicas: structure.replicas,
    blocks: structure.blocks.map(({ offset, size, modes }) => ({ offset, size, modes })),
  };
}

/**
 * Checks a χ² structure before any tensor is made: positive sizes, blocks in data order that do
 * not overlap and stay inside `ndata`, and, when values are present, arrays of the documented
 * lengths holding only finite numbers.
 *
 * @throws InvalidArgumentError naming the block and the field
 * @throws ShapeError when an array has the wrong length
 */
export function validateChi2Structure(structure: Chi2Structure | Chi2StructureLayout): void {
  const fail = (argument: string, problem: string): never => {
    throw new InvalidArgumentError({ argument, problem });
  };
  if ((structure.kind as string) !== 'covariance' && (structure.kind as string) !== 'eigenbasis') {
    fail('chi2 structure', `kind must be 'covariance' or 'eigenbasis', got '${structure.kind}'`);
  }
  for (const field of ['ndata', 'replicas'] as const) {
    if (!isPositiveInteger(structure[field])) {
      fail(`chi2 structure ${field}`, `must be a positive integer, got ${structure[field]}`);
    }
  }
  if (structure.blocks.length === 0) fail('chi2 structure blocks', 'no blocks');
  let end = 0;
  structure.blocks.forEach((block, b) => {
    const where = `chi2 structure block ${b}`;
    if (!Number.isInteger(block.offset) || block.offset < end) {
      fail(
        `${where} offset`,
        `expected an integer ≥ ${end} (blocks in data order), got ${block.offset}`,
      );
    }
    if (!isPositiveInteger(block.size))
      fail(`${where} size`, `must be a positive integer, got ${block.size}`);
    end = block.offset + block.size;
    if (end > structure.ndata) {
      fail(where, `points [${block.offset}, ${end}) run past ndata = ${structure.ndata}`);
    }
  });
  if (structure.kind === 'eigenbasis') {
    structure.blocks.forEach((block, b) => {
      if (!isPositiveInteger(block.modes)) {
        fail(`chi2 structure block ${b} modes`, `must be a positive integer, got ${block.modes}`);
      }
    });
  }
  if (!hasStructureValues(structure)) return;
  const replicas = structure.replicas;
  if (structure.kind === 'eigenbasis') {
    structure.blocks.forEach((block, b) => {
      const where = `chi2 structure block ${b}`;
      checkArray(block.rotation, [block.size, block.modes], `${where} rotation`, '(data, mode)');
      checkArray(block.weights, [replicas, block.modes], `${where} weights`, '(replicas, mode)');
    });
    return;
  }
  structure.blocks.forEach((block, b) => {
    checkArray(
      block.weights,
      [replicas, block.size, block.size],
      `chi2 structure block ${b} weights`,
      '(replicas, data, data)',
    );
  });
}

function checkArray(values: Float32Array, shape: number[], quantity: string, axes: string) {
  const expected = shape.reduce((a, b) => a * b, 1);
  if (values.length !== expected) {
    throw new ShapeError({ quantity, expected: [expected], actual: [values.length], axes });
  }
  const bad = values.findIndex((value) => !Number.isFinite(value));
  if (bad >= 0) {
    throw new InvalidArgumentError({
      argument: quantity,
      problem: `value [${bad}] is ${values[bad]}`,
    });
  }
}

function isPositiveInteger(value: number): boolean {
  return Number.isInteger(value) && value > 0;
}

/** The layout as a tfjs-layers config (all keys and values survive a save and load). */
export function chi2LayoutToConfig(layout: Chi2StructureLayout): serialization.ConfigDict {
  return {
    kind: layout.kind,
    ndata: layout.ndata,
    replicas: layout.replicas,
    blocks: layout.blocks.map((block) => ({ ...block })),
  };
}

/**
 * Reads a layout back from {@link chi2LayoutToConfig}'s output and validates it.
 *
 * @throws InvalidArgumentError naming the key that is missing or malformed
 */
export function chi2LayoutFromConfig(config: unknown): Chi2StructureLayout {
  const root = asRecord(config, 'structure');
  const number = (record: Record<string, unknown>, key: string, where: string): number => {
    const value = record[key];
    if (typeof value !== 'number') {
      throw new InvalidArgumentError({ argument: `${where}.${key}`, problem: 'expected a number' });
    }
    return value;
  };
  if (!Array.isArray(root.blocks)) {
    throw new InvalidArgumentError({ argument: 'structure.blocks', problem: 'expected an array' });
  }
  const blocks = (root.blocks as unknown[]).map((value, b) =>
    asRecord(value, `structure.blocks[${b}]`),
  );
  const common = {
    ndata: number(root, 'ndata', 'structure'),
    replicas: number(root, 'replicas', 'structure'),
  };
  let layout: Chi2StructureLayout;
  if (root.kind === 'covariance') {
    layout = {
      kind: 'covariance',
      ...common,
      blocks: blocks.map((block, b) => ({
        offset: number(block, 'offset', `structure.blocks[${b}]`),
        size: number(block, 'size', `structure.blocks[${b}]`),
      })),
    };
  } else if (root.kind === 'eigenbasis') {
    layout = {
      kind: 'eigenbasis',
      ...common,
      blocks: blocks.map((block, b) => ({
        offset: number(block, 'offset', `structure.blocks[${b}]`),
        size: number(block, 'size', `structure.blocks[${b}]`),
        modes: number(block, 'modes', `structure.blocks[${b}]`),
      })),
    };
  } else {
    throw new InvalidArgumentError({
      argument: 'structure.kind',
      problem: `expected 'covariance' or 'eigenbasis', got ${JSON.stringify(root.kind)}`,
    });
  }
  validateChi2Structure(layout);
  return layout;
}

function asRecord(value: unknown, key: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidArgumentError({ argument: key, problem: 'expected an object' });
  }
  return value as Record<string, unknown>;
}

/**
 * `(W + Wᵀ)/2` for each of `replicas` row-major `(size, size)` matrices, rounded to float32.
 * The quadratic form rᵀWr is unchanged, and the gradient of a symmetric form is exactly `2Wr`,
 * which the χ² layer uses instead of a second product.
 */
export function symmetrizeWeights(
  weights: Float32Array,
  replicas: number,
  size: number,
): Float32Array {
  const out = new Float32Array(weights.length);
  for (let r = 0; r < replicas; r++) {
    const base = r * size * size;
    for (let i = 0; i < size; i++) {
      for (let j = 0; j < size; j++) {
        out[base + i * size + j] =
          (weights[base + i * size + j] + weights[base + j * size + i]) / 2;
      }
    }
  }
  return out;
}
