import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVOLUTION_TO_FLAVOUR, parseRuncard, rotateFlavours } from '@partonfit/core';
import { toyPdfXf } from '@partonfit/fktables';
import { EXPORT_X_GRID, fitFolderPaths, formatExportGrid } from '@partonfit/fit-folder';
import { CLOSURE_RUNCARD } from '@partonfit/testing';
import { runCaptured as run } from './cli.fixture.js';

/** The replicas' small-x shifts δ: replica r is the toy PDF times x^δ_r. */
const SHIFTS = [-0.1, -0.05, 0, 0.05, 0.1];

/**
 * A fit folder `<tmp>/closure/` shaped like a real one: the closure runcard and five replicas on
 * n3fit's export grid, the Les Houches toy PDF times x^δ, so that every flavour's α_eff is the
 * toy's minus δ (and its β_eff the toy's plus δ·ln x/ln(1 − x)); with
 * `evolved`, a stand-in of its LHAPDF set `<fit>/closure/closure.info` (6 members).
 */
async function toyFit(evolved: boolean): Promise<string> {
  const output = await mkdtemp(join(tmpdir(), 'partonfit-iterate-'));
  const folder = join(output, 'closure');
  await mkdir(folder);
  await copyFile(CLOSURE_RUNCARD, join(folder, 'runcard.yml'));
  const toy = rotateFlavours(EVOLUTION_TO_FLAVOUR, toyPdfXf(EXPORT_X_GRID));
  for (const [r, shift] of SHIFTS.entries()) {
    const paths = fitFolderPaths(output, 'closure', r + 1);
    await mkdir(paths.replicaFolder, { recursive: true });
    const pdfGrid = toy.map((value, i) => {
      const x = EXPORT_X_GRID[Math.floor(i / 14)];
      return value * x ** shift;
    });
    await writeFile(
      paths.exportGrid,
      formatExportGrid({ replica: r + 1, q20: 2, xGrid: EXPORT_X_GRID, pdfGrid }),
    );
  }
  if (evolved) {
    await mkdir(join(folder, 'closure'));
    await writeFile(
      join(folder, 'closure', 'closure.info'),
      'SetDesc: "closure"\nFormat: lhagrid1\nNumMembers: 6\nFlavors: [-3, -2, -1, 1, 2, 3, 21]\n',
    );
  }
  return folder;
}

describe('partonfit iterate', () => {
  let evolved: string;
  let runcard: string;

  beforeAll(async () => {
    evolved = await toyFit(true);
    runcard = join(evolved, '..', 'closure_iterated.yml');
  });

  afterAll(async () => {
    await rm(join(evolved, '..'), { recursive: true, force: true });
  });

  it('should write a runcard that check accepts: the fit as t0, ranges from the replicas, seeds kept', async () => {
    const result = await run('iterate', evolved, '--output', runcard);
    expect(result.error).toBe('');
    expect(result.code).toBe(0);
    expect(result.out).toContain(
      'closure: 5 replica(s) from nnfit/ at Q0 = 1.414 GeV, EVOL basis; α_eff at x = 1e-6, 1e-3, β_eff at x = 0.65, 0.95\n',
    );
    expect(result.out).toContain(
      `t0pdfset: closure (${join(evolved, 'closure')}); data_paths.lhapdf: closure\n`,
    );
    expect(result.out).toContain('seeds: unchanged');
    const text = await readFile(runcard, 'utf8');
    const original = await readFile(CLOSURE_RUNCARD, 'utf8');
    // only the basis lines changed; the header comment and the new sections added
    const removed = original.split('\n').filter((line) => !text.split('\n').includes(line));
    expect(removed.every((line) => line.startsWith('    - { fl: '))).toBe(true);
    const { runcard: next } = parseRuncard(text);
    expect(next.datacuts.t0pdfset).toBe('closure');
    expect([next.trvlseed, next.nnseed, next.mcseed]).toEqual([3, 2, 1]);
    // α_eff of the replicas is the toy's minus δ: mean m, 68 % interval m ± 0.06826, doubled
    // m ± 0.13652 — a range 0.273 wide for Σ and g (read at x = 1e-6 only), rounded to 4 digits
    const [sng, g] = next.fitting.basis;
    for (const { smallx } of [sng, g]) expect(smallx[1] - smallx[0]).toBeCloseTo(0.273, 3);
    // the toy's Σ and g behave as x^−0.1 and x^−0.1 (x·f ∝ x^0.9) at small x: α near 1.1
    expect((sng.smallx[0] + sng.smallx[1]) / 2).toBeCloseTo(1.1, 1);
    expect((g.smallx[0] + g.smallx[1]) / 2).toBeCloseTo(1.1, 1);
    // the toy's valence-like flavours go as x^0.8 at small x (α ≈ 0.2), capped at 1
    for (const entry of next.fitting.basis.slice(2, 6))
      expect(entry.smallx[1]).toBeLessThanOrEqual(1);
    const checked = await run('check', runcard);
    expect(checked.error).toBe('');
    expect(checked.code).toBe(0);
    expect(checked.out).toContain(`${runcard}: valid`);
  });

  it('should refuse to replace the runcard without --overwrite, and draw new seeds with --new-seeds', async () => {
    const again = await run('iterate', evolved, '--output', runcard);
    expect(again.code).toBe(1);
    expect(again.error).toBe(
      `partonfit iterate: --output: ${runcard} exists: choose another file, or pass --overwrite to replace it\n`,
    );
    const seeded = await run('iterate', evolved, '--output', runcard, '--overwrite', '--new-seeds');
    expect(seeded.code).toBe(0);
    const { runcard: next } = parseRuncard(await readFile(runcard, 'utf8'));
    const seeds = [next.trvlseed, next.nnseed, next.mcseed];
    expect(seeds).not.toEqual([3, 2, 1]);
    for (const seed of seeds) expect(seed >= 0 && seed < 2 ** 31 - 1).toBe(true);
    expect(seeded.out).toContain(
      `seeds: trvlseed ${next.trvlseed}, nnseed ${next.nnseed}, mcseed ${next.mcseed}\n`,
    );
  });

  it('should say which evolve command to run for a fit without its LHAPDF set, in one line', async () => {
    const folder = await toyFit(false);
    const result = await run('iterate', folder, '--output', join(folder, '..', 'next.yml'));
    expect(result.code).toBe(1);
    expect(result.error).toBe(
      `partonfit iterate: ${join(folder, 'closure', 'closure.info')}: missing: the next fit's t0pdfset is this fit's evolved LHAPDF set; run \`partonfit evolve ${folder}\` first\n`,
    );
    await rm(join(folder, '..'), { recursive: true });
  });

  it('should name the folder that is not a fit, and a postfit/ that kept no replica', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'partonfit-iterate-empty-'));
    const notFit = await run('iterate', empty);
    expect(notFit.code).toBe(1);
    expect(notFit.error).toBe(
      `partonfit iterate: ${empty}: not a fit folder: it holds neither nnfit/ nor postfit/ (partonfit fit writes them)\n`,
    );
    const folder = await toyFit(true);
    await mkdir(join(folder, 'postfit', 'replica_0'), { recursive: true });
    const noneKept = await run('iterate', folder, '--output', join(empty, 'next.yml'));
    expect(noneKept.code).toBe(1);
    expect(noneKept.error).toMatch(
      new RegExp(
        `^partonfit iterate: ${join(folder, 'postfit')}: no replica after postfit: .*\\n$`,
      ),
    );
    await rm(empty, { recursive: true });
    await rm(join(folder, '..'), { recursive: true });
  });

  it('should give the rule and the formulas in its help', async () => {
    const help = await run('iterate', '--help');
    expect(help.code).toBe(0);
    expect(help.out).toContain('α_eff(x) = ln|f(x)| / ln(1/x)');
    expect(help.out).toContain('D(x) = [m − 2(m − l), m + 2(u − m)]');
    expect((await run('--help')).out).toMatch(/\n {2}iterate +write the next fit's runcard/);
  });
});
