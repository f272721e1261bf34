import { InvalidArgumentError } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { buildEvolutionOperator } from './evolution-operator.js';
import { buildEvolutionOperatorInParallel } from './operator-in-parallel.js';
import { toyTheoryCard, X_GRID } from './toy-proton.fixture.js';

/** Every second knot of the toy grid, and x = 1. */
const COARSE_GRID = Float64Array.from(
  X_GRID.filter((_, i) => i % 2 === 0 || i === X_GRID.length - 1),
);

describe('buildEvolutionOperatorInParallel', () => {
  it('should build the same operator, bit for bit, from its two halves through both thresholds', async () => {
    const card = toyTheoryCard('');
    const options = { xGrid: COARSE_GRID, qGrid: [1.4, 2, 4.92, 4.92, 10, 100] };
    const progress: number[] = [];
    const parallel = await buildEvolutionOperatorInParallel(card, options, {
      onProgress: (done, scales) => {
        expect(scales).toBe(6);
        progress.push(done);
      },
    });
    const whole = buildEvolutionOperator(card, options);
    expect(parallel.activeFlavours).toEqual(whole.activeFlavours);
    expect(parallel.alphaS).toEqual(whole.alphaS);
    expect(parallel.blocks.map((blocks) => blocks.length)).toEqual(
      whole.blocks.map((blocks) => blocks.length),
    );
    parallel.blocks.forEach((blocks, q) => {
      blocks.forEach((block, k) => {
        const expected = whole.blocks[q][k];
        expect([block.output, block.input]).toEqual([expected.output, expected.input]);
        expect(Buffer.from(block.matrix.buffer).equals(Buffer.from(expected.matrix.buffer))).toBe(
          true,
        );
      });
    });
    // Progress counts the scales both halves have reached, once each.
    expect(progress).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('should refuse a bad Q grid before any work, with the typed error of the builder', async () => {
    await expect(
      buildEvolutionOperatorInParallel(toyTheoryCard(''), { xGrid: COARSE_GRID, qGrid: [1] }),
    ).rejects.toThrow(InvalidArgumentError);
    await expect(
      buildEvolutionOperatorInParallel(toyTheoryCard(''), { xGrid: COARSE_GRID, qGrid: [1] }),
    ).rejects.toThrow(/Q\[0\] = 1 GeV is below Q0 = 1.4 GeV/);
  });
});
