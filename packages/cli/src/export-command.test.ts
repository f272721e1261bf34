import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tfl from '@tensorflow/tfjs-layers';
import { beforeAll, describe, expect, it } from 'vitest';
import { modelFolderHandler, readReplicaWeightsMetadata, replicaPdfAt } from '@partonfit/trainer';
import { EXPORT_X_GRID, exportGridText } from '@partonfit/fit-folder';
import { writeClosureRuncard } from '@partonfit/testing';
import { fitOnCpu, runCaptured as run } from './cli.fixture.js';

/** A replica's file in the fit folder `fit`. */
function replicaFile(fit: string, replica: number, name: string): string {
  return join(fit, 'nnfit', `replica_${replica}`, name);
}

/** The closure runcard cut to a few datasets and epochs, fitted with replicas 1–2 on cpu. */
async function tinyFit(): Promise<string> {
  const { folder, runcard } = await writeClosureRuncard('tiny', {
    epochs: 30,
    chargedLeptonsOnly: true,
  });
  const fit = await fitOnCpu(runcard, '1-2', folder);
  expect(fit.error).not.toContain('partonfit fit:');
  expect(fit.code).toBe(0);
  return join(folder, 'tiny');
}

/** A copy of the fit folder to change. */
async function copyOf(fit: string, name: string): Promise<string> {
  const copy = join(fit, '..', name, 'tiny');
  await cp(fit, copy, { recursive: true });
  return copy;
}

describe('partonfit export', () => {
  let fit: string;

  beforeAll(async () => {
    fit = await tinyFit();
  });

  it('should re-create the exportgrids and JSON summaries the fit wrote, identically', async () => {
    const copy = await copyOf(fit, 'identical');
    const written = new Map<string, string>();
    for (const replica of [1, 2]) {
      for (const name of ['tiny.exportgrid', 'tiny.json']) {
        const file = replicaFile(copy, replica, name);
        written.set(file, await readFile(file, 'utf8'));
      }
      await rm(replicaFile(copy, replica, 'tiny.exportgrid'));
      const json = replicaFile(copy, replica, 'tiny.json');
      const document = JSON.parse(await readFile(json, 'utf8')) as Record<string, unknown>;
      await writeFile(json, JSON.stringify({ ...document, arc_lengths: [0, 0, 0, 0, 0] }));
    }
    const result = await run('export', copy);
    expect(result.error).toContain('backend: cpu');
    expect(result.code).toBe(0);
    expect(result.out).toContain('exported 2 replica(s)');
    for (const [file, text] of written) expect(await readFile(file, 'utf8')).toBe(text);
  });

  it('should save each replica as a tfjs model giving the exportgrid’s PDF', async () => {
    const copy = await copyOf(fit, 'tfjs');
    const result = await run('export', copy, '--tfjs', '--backend', 'cpu');
    expect(result.code).toBe(0);
    const folder = join(copy, 'nnfit', 'replica_2', 'tfjs');
    expect(result.out).toContain(`${folder}/`);
    const model = await tfl.loadLayersModel(modelFolderHandler(folder));
    const { q0 } = await readReplicaWeightsMetadata(replicaFile(copy, 2, 'weights.h5'));
    const xfEvolution = await replicaPdfAt(model, EXPORT_X_GRID);
    expect(exportGridText({ replica: 2, q0, xfEvolution })).toBe(
      await readFile(replicaFile(copy, 2, 'tiny.exportgrid'), 'utf8'),
    );
    model.dispose();
  });

  it('should name the file and key of what is missing or does not belong to the fit', async () => {
    const broken = await copyOf(fit, 'broken');
    await rm(replicaFile(broken, 2, 'weights.h5'));
    const missing = await run('export', broken, '--backend', 'cpu');
    expect(missing.code).toBe(1);
    expect(missing.error).toContain(
      `${replicaFile(broken, 2, 'weights.h5')}: cannot read the file`,
    );
    const runcard = join(broken, 'runcard.yml');
    await writeFile(runcard, (await readFile(runcard, 'utf8')).replace('epochs: 30', 'epochs: 31'));
    const other = await run('export', broken, '--backend', 'cpu');
    expect(other.error).toContain(
      `${replicaFile(broken, 1, 'weights.h5')}: runcard_sha256: written by a fit of another runcard`,
    );
    await rm(runcard);
    expect((await run('export', broken)).error).toContain(`${runcard}: cannot read the runcard`);
    const empty = await mkdtemp(join(tmpdir(), 'partonfit-export-empty-'));
    await writeFile(join(empty, 'runcard.yml'), await readFile(join(fit, 'runcard.yml')));
    expect((await run('export', empty)).error).toContain(
      `${join(empty, 'nnfit')}: cannot read the folder`,
    );
    expect((await run('export')).code).toBe(2);
    expect((await run('export', fit, '--backend', 'gpu')).code).toBe(2);
  });
});
