import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeClosureRuncard } from '@partonfit/testing';
import { processEnd, runCaptured as run, startPartonfit } from './cli.fixture.js';

/** The embedded closure runcard with 1,500 epochs. */
async function shortRuncard(): Promise<string> {
  return (await writeClosureRuncard('signals', { epochs: 1500 })).runcard;
}

/**
 * Runs the built `partonfit fit` in a process of its own and sends it `signal` twice (as a batch
 * scheduler signals the job's shell and its processes alike, the second while the checkpoint is
 * being written) once it is training.
 */
function interruptedFit(
  args: readonly string[],
  signal: NodeJS.Signals,
): Promise<{ code: number | null; error: string }> {
  const child = startPartonfit(['fit', ...args]);
  let error = '';
  child.stderr.on('data', (chunk: Buffer) => {
    const training = error.includes('fitting 174 data points');
    error += chunk.toString();
    if (!training && error.includes('fitting 174 data points')) {
      setTimeout(() => {
        child.kill(signal);
        setTimeout(() => child.kill(signal), 20);
      }, 2000);
    }
  });
  return processEnd(child);
}

async function exportGrids(folder: string): Promise<string[]> {
  return Promise.all(
    [1, 2].map((replica) =>
      readFile(
        join(folder, 'signals', 'nnfit', `replica_${replica}`, 'signals.exportgrid'),
        'utf8',
      ),
    ),
  );
}

describe('partonfit fit interrupted by a signal', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    'should write its checkpoint on %s, exit with code 75, and resume to the uninterrupted fit',
    async (signal) => {
      const runcard = await shortRuncard();
      const interrupted = join(runcard, '..', 'interrupted');
      const args = [runcard, '--replicas', '1-2', '--output', interrupted];
      const { code, error } = await interruptedFit(args, signal);
      expect(code).toBe(75);
      expect(error).toMatch(
        new RegExp(`training interrupted \\(${signal}\\) after \\d+ epochs; checkpoint written`),
      );
      expect(error).not.toMatch(/\n\s+at /);
      const resumed = await run('fit', ...args, '--resume');
      expect(resumed.code).toBe(0);
      const resumedAt = Number(/resuming from .* at epoch (\d+)/.exec(resumed.error)?.[1]);
      expect(resumedAt).toBeGreaterThan(0);
      expect(resumedAt).toBeLessThan(1500);

      const uninterrupted = join(runcard, '..', 'uninterrupted');
      expect((await run('fit', runcard, '--replicas', '1-2', '--output', uninterrupted)).code).toBe(
        0,
      );
      expect(await exportGrids(interrupted)).toEqual(await exportGrids(uninterrupted));
    },
  );
});
