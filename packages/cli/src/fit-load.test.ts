import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { closureRuncardText, writeClosureRuncard } from '@partonfit/testing';
import { runCaptured as run } from './cli.fixture.js';

const FIT = ['--replicas', '1-2', '--backend', 'cpu'];

/** The training χ² per point of each replica of a fit, from its replicas' summaries. */
async function trainingChi2(fitFolder: string, name: string): Promise<number[]> {
  return Promise.all(
    [1, 2].map(async (replica) => {
      const summary = JSON.parse(
        await readFile(join(fitFolder, 'nnfit', `replica_${replica}`, `${name}.json`), 'utf8'),
      ) as { erf_tr: number };
      return summary.erf_tr;
    }),
  );
}

describe('partonfit fit with load', () => {
  it("should start each replica from the earlier fit's weights, replicas matched by number", async () => {
    const { folder, runcard } = await writeClosureRuncard('earlier', {
      epochs: 400,
      chargedLeptonsOnly: true,
    });
    const earlier = await run('fit', runcard, ...FIT, '--output', folder);
    expect(earlier.code).toBe(0);
    const earlierFit = join(folder, 'earlier');
    // one epoch from the earlier fit's weights against one epoch from random ones
    const oneEpoch = await closureRuncardText({ epochs: 1, chargedLeptonsOnly: true });
    const loading = join(folder, 'loading.yml');
    await writeFile(loading, `${oneEpoch}\nload: earlier\n`);
    const fresh = join(folder, 'fresh.yml');
    await writeFile(fresh, oneEpoch);
    const checked = await run('check', loading);
    expect(checked.code).toBe(0);
    expect(checked.out).toContain(
      `  starts from:   the weights of the fit ${earlierFit}, replica by replica (load)`,
    );
    const loaded = await run('fit', loading, ...FIT, '--output', folder);
    expect(loaded.code).toBe(0);
    expect(loaded.error).toContain('starting the replicas from the weights in earlier (load)');
    expect((await run('fit', fresh, ...FIT, '--output', folder)).code).toBe(0);
    const [trained, continued, random] = await Promise.all([
      trainingChi2(earlierFit, 'earlier'),
      trainingChi2(join(folder, 'loading'), 'loading'),
      trainingChi2(join(folder, 'fresh'), 'fresh'),
    ]);
    // (χ²/n 3.5 and 6.1 after 400 epochs; 3.5 and 8.9 one epoch later, Nadam's first step
    // moving every weight; 881 and 1256 after one epoch from random weights)
    for (const r of [0, 1]) {
      expect(continued[r]).toBeLessThan(2 * trained[r]);
      expect(random[r]).toBeGreaterThan(50 * trained[r]);
    }
    const missing = join(folder, 'missing.yml');
    await writeFile(missing, `${oneEpoch}\nload: nowhere\n`);
    for (const command of [
      ['check', missing],
      ['fit', missing, ...FIT, '--output', folder],
    ]) {
      const refused = await run(...command);
      expect(refused.code).toBe(1);
      expect(refused.error).toContain(`${join(folder, 'nowhere')}: cannot read the file`);
    }
  });
});
