import { InvalidArgumentError } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { packTree, unpackTree } from './typed-array-tree.js';

describe('packTree / unpackTree', () => {
  it('should split typed arrays from the skeleton and put them back', () => {
    const tree = {
      name: 'HERACOMBCCEM',
      xGrid: Float64Array.from([1e-5, 0.1, 1]),
      tables: [{ kind: 'dis', channels: [1, 2], values: Float32Array.from([1.5, -2]) }],
      counts: Int32Array.from([31, 30]),
      mask: Uint8Array.from([1, 0, 1]),
      flag: true,
      missing: null,
    };
    const withUndefined = { ...tree, absent: undefined };
    const packed = packTree(tree);
    expect([...packed.arrays.keys()]).toEqual([
      'tree/xGrid',
      'tree/tables/0/values',
      'tree/counts',
      'tree/mask',
    ]);
    expect(packed.skeleton).not.toContain('1e-5');
    expect(unpackTree(packed.skeleton, packed.arrays)).toEqual(tree);
    const unpacked = unpackTree(packTree(withUndefined).skeleton, packed.arrays) as object;
    expect('absent' in unpacked).toBe(false);
  });

  it('should store an array held at several places once and unpack it as one array', () => {
    const weights = Float32Array.from([2, -1, -1, 2]);
    const tree = { whole: { blocks: [{ weights }] }, byDataset: { blocks: [{ weights }] } };
    const packed = packTree(tree);
    expect([...packed.arrays.keys()]).toEqual(['tree/whole/blocks/0/weights']);
    const unpacked = unpackTree(packed.skeleton, packed.arrays) as typeof tree;
    expect(unpacked).toEqual(tree);
    expect(unpacked.byDataset.blocks[0].weights).toBe(unpacked.whole.blocks[0].weights);
  });

  it('should refuse values JSON cannot hold and references to missing arrays', () => {
    expect(() => packTree({ scale: Number.NaN })).toThrow(InvalidArgumentError);
    expect(() => packTree({ table: new Map() })).toThrow(
      'tree/table: cannot store this kind of value',
    );
    expect(() => unpackTree('{"a":{"$array":"tree/a"}}', new Map())).toThrow(
      'tree/a: array missing from the cache',
    );
  });
});
