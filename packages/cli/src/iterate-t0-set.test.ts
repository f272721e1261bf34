import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRuncard } from '@partonfit/core';
import { CLOSURE_RUNCARD, inputFileRejection } from '@partonfit/testing';
import { locateT0Set } from './iterate-t0-set.js';

/** An LHAPDF set `<folder>/<name>/<name>.info` (the `.info` is all `locateT0Set` looks for). */
async function writeSetInfo(folder: string, name: string): Promise<void> {
  await mkdir(join(folder, name), { recursive: true });
  await writeFile(join(folder, name, `${name}.info`), 'NumMembers: 2\nFlavors: [21]\n');
}

describe('locateT0Set', () => {
  let root: string;
  let closure: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'partonfit-t0-set-'));
    closure = await readFile(CLOSURE_RUNCARD, 'utf8');
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  /** The closure runcard with extra top-level text. */
  const runcardWith = (extra = '') => parseRuncard(`${closure}\n${extra}`).runcard;

  it("should take the fit folder's own set and point data_paths.lhapdf at it, or find it there", async () => {
    const fit = join(root, 'fits', 'closure');
    await writeSetInfo(fit, 'closure');
    const next = join(root, 'closure_iterated.yml');
    expect(await locateT0Set(fit, 'fits/closure', runcardWith(), next)).toEqual({
      setFolder: join(fit, 'closure'),
      lhapdfFolder: join('fits', 'closure'),
    });
    // a runcard whose data_paths.lhapdf is the fit folder already (relative to the runcard)
    const pointing = runcardWith('data_paths: { lhapdf: fits/closure }\n');
    expect(await locateT0Set(fit, 'fits/closure', pointing, next)).toEqual({
      setFolder: join(fit, 'closure'),
      lhapdfFolder: undefined,
    });
  });

  it('should take the set from the LHAPDF folder the runcard reads, and say how to put it there', async () => {
    const fit = join(root, 'other', 'closure');
    await mkdir(fit, { recursive: true });
    const sets = join(root, 'lhapdf');
    await writeSetInfo(sets, 'NNPDF40_nnlo_as_01180');
    const next = join(root, 'next.yml');
    const truth = runcardWith(`data_paths: { lhapdf: ${sets} }\n`).closuretest;
    const withFakeSet = {
      ...runcardWith(`data_paths: { lhapdf: ${sets} }\n`),
      closuretest: { ...truth!, fakepdf: 'NNPDF40_nnlo_as_01180' },
    };
    const none = await inputFileRejection(locateT0Set(fit, 'other/closure', withFakeSet, next));
    expect(none.message).toBe(
      `${join(fit, 'closure', 'closure.info')}: missing: the next fit's t0pdfset is this fit's evolved LHAPDF set; run \`partonfit evolve other/closure\` first`,
    );
    // evolved into the fit folder, but the closure test's fakepdf is read from the sets' folder
    await writeSetInfo(fit, 'closure');
    const elsewhere = await inputFileRejection(
      locateT0Set(fit, 'other/closure', withFakeSet, next),
    );
    expect(elsewhere.file).toBe(join(sets, 'closure', 'closure.info'));
    expect(elsewhere.problem).toContain(`run \`partonfit evolve other/closure --output ${sets}\``);
    await writeSetInfo(sets, 'closure');
    expect(await locateT0Set(fit, 'other/closure', withFakeSet, next)).toEqual({
      setFolder: join(sets, 'closure'),
      lhapdfFolder: undefined,
    });
  });
});
