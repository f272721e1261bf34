import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeClosureRuncard } from '@partonfit/testing';
import { processEnd, runCaptured as run, startPartonfit } from './cli.fixture.js';

/** Every replica's exportgrid and JSON, and postfit's average, of `<folder>/ranges`. */
async function fitFiles(folder: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const fitFolder = join(folder, 'ranges');
  const paths = [
    ...[1, 2, 3, 4].map((replica) => join('nnfit', `replica_${replica}`, 'ranges.exportgrid')),
    join('postfit', 'replica_0', 'ranges.exportgrid'),
    join('postfit', 'veto_count.json'),
  ];
  for (const path of paths) files.set(path, await readFile(join(fitFolder, path), 'utf8'));
  return files;
}

describe('partonfit fit of replica ranges in separate processes, without a scheduler', () => {
  it('should fill one fit folder that postfit treats as a single-process fit', async () => {
    const { runcard } = await writeClosureRuncard('ranges', {
      epochs: 300,
      passEveryReplica: true,
    });
    const together = join(runcard, '..', 'together');
    const ranges = await Promise.all(
      ['1-2', '3-4'].map((replicas) =>
        processEnd(startPartonfit(['fit', runcard, '--replicas', replicas, '--output', together])),
      ),
    );
    expect(ranges.map(({ code }) => code)).toEqual([0, 0]);
    const postfitArgs = ['--integrability-threshold', '100'];
    expect((await run('postfit', join(together, 'ranges'), ...postfitArgs)).code).toBe(0);

    const single = join(runcard, '..', 'single');
    expect((await run('fit', runcard, '--replicas', '1-4', '--output', single)).code).toBe(0);
    expect((await run('postfit', join(single, 'ranges'), ...postfitArgs)).code).toBe(0);
    expect(await fitFiles(together)).toEqual(await fitFiles(single));
    const summary = JSON.parse(
      await readFile(join(together, 'ranges', 'summary.json'), 'utf8'),
    ) as { replicas: number[] };
    expect(summary.replicas).toEqual([1, 2, 3, 4]);
    expect((await readdir(join(together, 'ranges', 'summaries'))).sort()).toEqual([
      'replicas_1-2.json',
      'replicas_3-4.json',
    ]);
  });
});
