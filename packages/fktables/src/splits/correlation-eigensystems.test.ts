import { InvalidArgumentError } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { correlationEigensystem } from './correlation-eigensystem.js';
import { startCorrelationEigensystems } from './correlation-eigensystems-in-parallel.js';
import { eigenbasisSplit } from './eigenbasis-split.js';
import { randomBlockCovariances } from './splits.fixture.js';

describe('correlationEigensystem', () => {
  const [block] = randomBlockCovariances([12], 3);

  it('should diagonalise the correlation matrix S⁻¹ C S⁻¹', () => {
    const { scale, values, vectors } = correlationEigensystem(block);
    const n = block.size;
    expect(scale[4]).toBe(Math.sqrt(block.covariance.data[4 * n + 4]));
    // ρ·v_k = λ_k v_k for the largest eigenvalue's vector (row n − 1 of V).
    const k = n - 1;
    for (let i = 0; i < n; i++) {
      let product = 0;
      for (let j = 0; j < n; j++) {
        const rho = block.covariance.data[i * n + j] / (scale[i] * scale[j]);
        product += rho * vectors.data[k * n + j];
      }
      expect(product).toBeCloseTo(values[k] * vectors.data[k * n + i], 10);
    }
    expect(values.reduce((sum, value) => sum + value, 0)).toBeCloseTo(n, 10);
  });
});

describe('startCorrelationEigensystems', () => {
  const blocks = randomBlockCovariances([30, 12, 1], 21);

  it('should keep small blocks on this thread and give each block its eigensystem, bit for bit', async () => {
    const pending = startCorrelationEigensystems(blocks);
    expect(pending.inWorker).toEqual([]);
    const eigensystems = await pending.eigensystems();
    await pending.stop();
    blocks.forEach((block, b) => {
      const alone = correlationEigensystem(block);
      expect(eigensystems[b].values).toEqual(alone.values);
      expect(eigensystems[b].vectors.data).toEqual(alone.vectors.data);
      expect(eigensystems[b].scale).toEqual(alone.scale);
    });
  });

  it('should give eigenbasisSplit the same split as computing the eigensystems itself', async () => {
    const options = { trvlseed: 5, replicas: [1, 2], diagonalFrac: 0.75 };
    const given = eigenbasisSplit(blocks, {
      ...options,
      eigensystems: await startCorrelationEigensystems(blocks).eigensystems(),
    });
    const own = eigenbasisSplit(blocks, options);
    given.training.blocks.forEach((block, b) => {
      expect(block.rotation).toEqual(own.training.blocks[b].rotation);
      expect(block.weights).toEqual(own.training.blocks[b].weights);
    });
  });

  it('should reject eigensystems that do not match the blocks', () => {
    const eigensystems = blocks.map(correlationEigensystem);
    const options = { trvlseed: 5, replicas: [1], diagonalFrac: 0.75 };
    expect(() =>
      eigenbasisSplit(blocks, { ...options, eigensystems: eigensystems.slice(1) }),
    ).toThrow(InvalidArgumentError);
    expect(() =>
      eigenbasisSplit(blocks, { ...options, eigensystems: [...eigensystems].reverse() }),
    ).toThrow('3 eigensystems do not match the 3 covariance blocks (block 0 first)');
  });
});
