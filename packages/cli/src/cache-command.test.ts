import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { writeHdf5File } from '@partonfit/io';
import { runCaptured as run } from './cli.fixture.js';

const DAY = 86_400_000;

describe('partonfit cache', () => {
  let home: string;
  let cache: string;

  /** An entry with the attributes partonfit writes, last used `days` ago. */
  async function entry(name: string, attributes: Record<string, string | number>, days: number) {
    const file = join(cache, name);
    await writeHdf5File(file, {
      datasets: { values: { shape: [1000], data: new Float64Array(1000) } },
      attributes,
    });
    const when = new Date(Date.now() - days * DAY);
    await utimes(file, when, when);
  }

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'partonfit-cache-command-'));
    cache = join(home, 'partonfit');
    vi.stubEnv('XDG_CACHE_HOME', home);
    vi.stubEnv('PARTONFIT_DATA', '');
    vi.stubEnv('PARTONFIT_CACHE_MAX', '');
    await mkdir(join(cache, 'theories', 'theory_200'), { recursive: true });
    await writeFile(join(cache, 'theories', 'theory_200', 'FK_A.dat'), Buffer.alloc(2500));
    await writeFile(join(cache, 'notes.txt'), 'mine');
    const skeleton = JSON.stringify({
      datasets: ['F2P', 'F2D', 'XF3', 'DIMUON'].map((name) => ({ name })),
      replicas: [1, 2, 3],
    });
    await entry('fit-inputs-0a1b.h5', { format: 'partonfit-fit-inputs-1', skeleton }, 40);
    await entry(
      'evolution-operator-2c3d.h5',
      { theory_card: '/cards/200.yaml', x_points: 196, q_points: 50 },
      2,
    );
    await writeFile(join(cache, 'fit-inputs-9999.h5'), 'not HDF5');
  });

  afterEach(async () => {
    vi.unstubAllEnvs();
    await rm(home, { recursive: true, force: true });
  });

  it('should list each entry with its size, last use and what it belongs to', async () => {
    const listed = await run('cache');
    expect(listed.code).toBe(0);
    const lines = listed.out.split('\n');
    expect(lines[0]).toBe(`${cache}: cap 5.00 GB (PARTONFIT_CACHE_MAX)`);
    // most recently used first
    expect(lines[1]).toMatch(
      /^ {2}fit inputs +8 B {2}used just now +unreadable \(rebuilt when next needed\) {2}fit-inputs-9999\.h5$/,
    );
    expect(lines[2]).toMatch(
      /^ {2}evolution operator +\d+\.\d kB {2}used 2 d ago +\/cards\/200\.yaml, 196 x × 50 Q {2}evolution-operator-2c3d\.h5$/,
    );
    expect(lines[3]).toMatch(
      /^ {2}fit inputs +\d+\.\d kB {2}used 40 d ago +4 datasets \(F2P, F2D, XF3, …\), 3 replicas {2}fit-inputs-0a1b\.h5$/,
    );
    expect(lines[4]).toMatch(/^3 entries, \d+\.\d kB; partonfit builds each again when needed$/);
    expect(lines[5]).toBe(
      'downloads in the same folder (partonfit get; never removed by cache clean): theories/ 2.5 kB',
    );
  });

  it('should remove the entries unused for longer than --older-than, or all, and nothing else', async () => {
    const old = await run('cache', 'clean', '--older-than', '30d');
    expect(old.code).toBe(0);
    expect(old.out).toMatch(/^removed 1 of 3 cache entries \(\d+\.\d kB\) from .*; 2 kept\n$/);
    expect((await readdir(cache)).sort()).toEqual([
      'evolution-operator-2c3d.h5',
      'fit-inputs-9999.h5',
      'notes.txt',
      'theories',
    ]);
    const all = await run('cache', 'clean', '--all');
    expect(all.out).toMatch(/^removed 2 of 2 cache entries/);
    expect((await readdir(cache)).sort()).toEqual(['notes.txt', 'theories']);
    expect(await readdir(join(cache, 'theories', 'theory_200'))).toEqual(['FK_A.dat']);
  });

  it('should be a usage error to clean without saying what, or with a bad age', async () => {
    for (const [args, message] of [
      [['clean'], 'say what to remove: --older-than <age> (e.g. 30d) or --all'],
      [['clean', '--all', '--older-than', '2d'], 'say what to remove'],
      [
        ['clean', '--older-than', 'old'],
        "--older-than: expected an age such as 30d, 12h or 2w, got 'old'",
      ],
      [['purge'], "unknown action 'purge': expected clean"],
      [['--all'], '--older-than and --all go with `partonfit cache clean`'],
    ] as const) {
      const result = await run('cache', ...args);
      expect(result.code).toBe(2);
      expect(result.error).toContain(message);
    }
    expect(await readdir(cache)).toHaveLength(5);
  });
});
