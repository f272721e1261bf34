import { access, cp, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { closureRuncardText } from '@partonfit/testing';
import { fitOnCpu, runCaptured as run } from './cli.fixture.js';

/** The embedded closure runcard cut to a few datasets and `epochs` epochs. */
const shortRuncardText = (epochs: number) =>
  closureRuncardText({ epochs, chargedLeptonsOnly: true });

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

describe('partonfit fit into a folder that holds a fit', () => {
  it('should refuse another runcard’s fit unless told to overwrite it', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'partonfit-overwrite-'));
    const runcard = join(folder, 'short.yml');
    const fitFolder = join(folder, 'short');
    const fit = (replicas: string, ...extra: string[]) =>
      fitOnCpu(runcard, replicas, folder, ...extra);
    await writeFile(runcard, await shortRuncardText(20));
    expect((await fit('1-2')).code).toBe(0);
    // Another selection of the same fit shares the folder.
    expect((await fit('3')).code).toBe(0);
    expect(await readdir(join(fitFolder, 'nnfit'))).toHaveLength(3);
    const json = JSON.parse(
      await readFile(join(fitFolder, 'nnfit', 'replica_1', 'short.json'), 'utf8'),
    ) as { runcard_sha256: string };
    expect(json.runcard_sha256).toMatch(/^[0-9a-f]{64}$/);

    await writeFile(runcard, await shortRuncardText(30));
    const refused = await fit('1');
    expect(refused.code).toBe(1);
    expect(refused.error).toContain(
      `partonfit fit: ${join(fitFolder, 'runcard.yml')}: parameters.epochs: the fit folder holds a fit of another runcard (20 there, 30 in this one)`,
    );
    // Refused before any work: nothing was prepared or written.
    expect(refused.error).not.toContain('reading');
    expect(await readFile(join(fitFolder, 'runcard.yml'), 'utf8')).toBe(await shortRuncardText(20));

    const both = await fit('1', '--overwrite', '--resume');
    expect(both.code).toBe(2);
    expect(both.error).toContain('--resume and --overwrite exclude each other');

    const overwritten = await fit('1', '--overwrite');
    expect(overwritten.code).toBe(0);
    expect(overwritten.error).toContain(`deleted the earlier fit in ${fitFolder}`);
    expect(await readdir(join(fitFolder, 'nnfit'))).toEqual(['replica_1']);
    expect(await readFile(join(fitFolder, 'runcard.yml'), 'utf8')).toBe(await shortRuncardText(30));
    expect(await exists(join(fitFolder, 'checkpoint_replicas_1-2.h5'))).toBe(false);
  });

  it('should make postfit refuse replicas of two runcards', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'partonfit-mixed-'));
    const runcard = join(folder, 'short.yml');
    const fitFolder = join(folder, 'short');
    await writeFile(runcard, await shortRuncardText(20));
    const first = await fitOnCpu(runcard, '1-2', folder);
    expect(first.code).toBe(0);
    // Another runcard's replica slipped in by hand (copied from another output folder).
    const elsewhere = join(folder, 'elsewhere');
    await writeFile(runcard, await shortRuncardText(30));
    const second = await fitOnCpu(runcard, '3', elsewhere);
    expect(second.code).toBe(0);
    await cp(
      join(elsewhere, 'short', 'nnfit', 'replica_3'),
      join(fitFolder, 'nnfit', 'replica_3'),
      {
        recursive: true,
      },
    );
    const postfit = await run('postfit', fitFolder);
    expect(postfit.code).toBe(1);
    expect(postfit.error).toMatch(
      /the replicas were fitted with different runcards: replica\(s\) 1, 2 with runcard [0-9a-f]{12}… \(runcard\.yml\); replica\(s\) 3 with runcard [0-9a-f]{12}…/,
    );
    expect(await exists(join(fitFolder, 'postfit'))).toBe(false);
  });
});
