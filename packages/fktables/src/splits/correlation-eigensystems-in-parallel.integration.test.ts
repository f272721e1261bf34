import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const DIST = new URL('../../dist/', import.meta.url);

describe('startCorrelationEigensystems in a worker thread (the built package)', () => {
  it('should diagonalise the longest block in the worker, bit for bit as this thread does', async () => {
    const worker = new URL('splits/correlation-eigen-worker.js', DIST);
    expect(existsSync(worker), `${fileURLToPath(worker)}: build the package first`).toBe(true);
    // Three blocks (340, 120, 60 points) of C_ij = σ_i σ_j (δ_ij + e^(−|i−j|/10) / 2); the child
    // prints which blocks went to the worker and the digests of both threads' eigensystems.
    const script = `
      import { createHash } from 'node:crypto';
      import { correlationEigensystem, startCorrelationEigensystems } from ${JSON.stringify(new URL('index.js', DIST).href)};
      let offset = 0;
      const blocks = [340, 120, 60].map((size) => {
        const sigma = Float64Array.from({ length: size }, (_, i) => 0.01 + 0.1 * ((i * 7) % 13));
        const data = new Float64Array(size * size);
        for (let i = 0; i < size; i++) for (let j = 0; j < size; j++)
          data[i * size + j] = sigma[i] * sigma[j] * ((i === j ? 1 : 0) + Math.exp(-Math.abs(i - j) / 10) / 2);
        const block = { offset, size, covariance: { rows: size, columns: size, data } };
        offset += size;
        return block;
      });
      const digest = (eigensystems) => {
        const hash = createHash('sha256');
        for (const { scale, values, vectors } of eigensystems)
          for (const array of [scale, values, vectors.data]) hash.update(new Uint8Array(array.buffer));
        return hash.digest('hex');
      };
      const pending = startCorrelationEigensystems(blocks);
      const parallel = await pending.eigensystems();
      await pending.stop();
      console.log(JSON.stringify({
        inWorker: pending.inWorker,
        parallel: digest(parallel),
        alone: digest(blocks.map(correlationEigensystem)),
      }));`;
    const folder = await mkdtemp(join(tmpdir(), 'partonfit-parallel-eigen-'));
    const file = join(folder, 'eigensystems.mjs');
    await writeFile(file, script);
    const { stdout } = await promisify(execFile)(process.execPath, [file]);
    await rm(folder, { recursive: true });
    const { inWorker, parallel, alone } = JSON.parse(stdout) as {
      inWorker: number[];
      parallel: string;
      alone: string;
    };
    expect(inWorker).toEqual([0]);
    expect(parallel).toBe(alone);
  });
});
