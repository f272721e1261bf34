import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { makeTar, type TarFixtureEntry } from '@partonfit/testing/tar';
import { refusedUrl, startLocalServer, type LocalServer } from '@partonfit/testing/local-server';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runCaptured as run } from './cli.fixture.js';
import { runCli } from './run-cli.js';

const REAL_DATA = fileURLToPath(new URL('../../../examples/real-data.yml', import.meta.url));
const SET = 'NNPDF40_nnlo_as_01180';
const TABLES = ['FK_POSXDQ.dat', 'FK_ATLASTTBARTOT13TEV.dat'];

/** A gzip tar of `entries`, as NNPDF's and LHAPDF's servers ship theories and sets. */
const targz = (entries: readonly TarFixtureEntry[]) => gzipSync(makeTar(entries));

/**
 * NNPDF's and LHAPDF's servers as a local one: theory 200 made of the two shipped tables of
 * ../shared/data, and NNPDF4.0 with its two members (the .info announcing two).
 */
async function servedFiles(): Promise<Record<string, Uint8Array | string>> {
  const theory: TarFixtureEntry[] = [{ name: 'theory_200/fastkernel/', type: '5' }];
  for (const name of TABLES) {
    const content = await readFile(`${SHARED_DATA}theory_200/fastkernel_tar/${name}`);
    theory.push({ name: `theory_200/fastkernel/${name}`, content });
  }
  const folder = `${SHARED_DATA}lhapdf/${SET}`;
  const info = (await readFile(`${folder}/${SET}.info`, 'utf8')).replace(
    /^NumMembers: 101$/m,
    'NumMembers: 2',
  );
  const set: TarFixtureEntry[] = [{ name: `${SET}/${SET}.info`, content: info }];
  for (const member of ['0000', '0001']) {
    const name = `${SET}/${SET}_${member}.dat`;
    set.push({ name, content: await readFile(`${SHARED_DATA}lhapdf/${name}`) });
  }
  return {
    '/tables/theorydata.json': JSON.stringify({ files: ['theory_200.tgz'] }),
    '/tables/theory_200.tgz': targz(theory),
    [`/current/${SET}.tar.gz`]: targz(set),
  };
}

let server: LocalServer | undefined;
let data: string;
beforeEach(async () => {
  data = await mkdtemp(join(tmpdir(), 'partonfit-get-'));
  vi.stubEnv('PARTONFIT_DATA', data);
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await server?.close();
  server = undefined;
});

describe.skipIf(
  !hasSharedData('theory_200/fastkernel_tar', "NNPDF's shipped theory-200 tables") ||
    !hasSharedData(`lhapdf/${SET}`, 'the NNPDF4.0 LHAPDF set'),
)('partonfit get, then check and predict', () => {
  it('should get theory 200 and NNPDF4.0, where check and predict then find them', async () => {
    server = await startLocalServer(await servedFiles());
    vi.stubEnv('PARTONFIT_THEORY_URLS', `${server.url}tables/`);
    vi.stubEnv('PARTONFIT_LHAPDF_URL', `${server.url}current/`);
    // examples/real-data.yml without data_paths.theories and .lhapdf: the data folder is used.
    const runcard = join(data, 'real-data.yml');
    const text = (await readFile(REAL_DATA, 'utf8'))
      .replace(/^ {2}(theories|lhapdf): .*\n/gm, '')
      .replace(/\.\.\/\.\.\/shared\/data\//g, SHARED_DATA);
    await writeFile(runcard, text);

    const before = await run('check', runcard);
    expect(before.code).toBe(1);
    expect(before.error).toContain(
      `${join(data, 'theories', 'theory_200')}: no folder for theory 200; \`partonfit get theory 200\` downloads it`,
    );

    const theory = await run('get', 'theory', '200');
    expect(theory.code).toBe(0);
    const folder = join(data, 'theories', 'theory_200');
    expect(theory.out).toMatch(
      new RegExp(
        `^theory 200: ${folder}\\n  downloaded 0\\.7 MB from ${server.url}tables/theory_200\\.tgz\\n`,
      ),
    );
    expect(theory.error).toMatch(/^theory_200\.tgz \[-{30}\] {3}0% {2}0\.0 of 0\.7 MB\n/);
    expect(theory.error).toContain(`theory_200.tgz [${'#'.repeat(30)}] 100%  0.7 of 0.7 MB\n`);
    expect(theory.error).toMatch(/\nunpacking theory_200\.tgz\nchecking\n$/);

    const after = await run('check', runcard);
    expect(after.error).toBe('');
    expect(after.code).toBe(0);
    expect(after.out).toContain('positivity:    POSXDQ (20)');

    const pdf = await run('get', 'pdf', SET);
    expect(pdf.code).toBe(0);
    expect(pdf.out).toContain(`LHAPDF set ${SET}: ${join(data, 'lhapdf', SET)}\n`);
    const predict = await run(
      'predict',
      '--pdf',
      SET,
      '--fktable',
      join(folder, 'fastkernel', 'FK_POSXDQ.dat'),
      '--json',
    );
    expect(predict.code).toBe(0);
    const { predictions } = JSON.parse(predict.out) as { predictions: number[] };
    // ../shared/data/README.md: FK_POSXDQ ⊗ member 0, first three points.
    expect(predictions[0]).toBeCloseTo(1.24252, 4);
    expect(predictions[1]).toBeCloseTo(1.05899, 4);
    expect(predictions[2]).toBeCloseTo(0.90396, 4);

    const again = await run('get', 'theory', '200', '--data', data);
    expect(again).toEqual({ code: 0, out: `theory 200 is already in ${folder}\n`, error: '' });
  });
});

describe('partonfit get', () => {
  it('should draw the progress bar on a terminal’s status line', async () => {
    const table = targz([{ name: 'theory_9/fastkernel/FK_X.dat', content: 'x'.repeat(5000) }]);
    server = await startLocalServer({
      '/tables/theorydata.json': JSON.stringify({ files: ['theory_9.tgz'] }),
      '/tables/theory_9.tgz': targz([{ name: 'theory_9/fastkernel/FK_X.dat', content: table }]),
    });
    vi.stubEnv('PARTONFIT_THEORY_URLS', `${server.url}tables/`);
    const status: string[] = [];
    let error = '';
    const code = await runCli(['get', 'theory', '9'], {
      out: () => undefined,
      error: (text) => (error += text),
      status: (line) => status.push(line),
    });
    expect(code).toBe(0);
    expect(status.filter((line) => line !== '').at(-1)).toMatch(
      new RegExp(`^theory_9\\.tgz \\[#{30}\\] 100% {2}0\\.0 of 0\\.0 MB$`),
    );
    expect(status.at(-1)).toBe('');
    expect(error).toBe('unpacking theory_9.tgz\nchecking\n');
  });

  it('should say which command fetches a missing LHAPDF set', async () => {
    const { code, error } = await run('predict', '--pdf', SET, '--fktable', 'FK_ANY.dat');
    expect(code).toBe(1);
    expect(error).toBe(
      `partonfit predict: ${join(data, 'lhapdf', SET)}: no LHAPDF set ${SET} here; \`partonfit get pdf ${SET}\` downloads it into the data folder, where runcards without data_paths.lhapdf look\n`,
    );
  });

  it('should fail clearly offline, naming the address', async () => {
    const offline = await refusedUrl();
    vi.stubEnv('PARTONFIT_LHAPDF_URL', offline);
    const { code, out, error } = await run('get', 'pdf', SET, '--data', data);
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(error).toMatch(
      new RegExp(
        `^partonfit get: ${offline}${SET}\\.tar\\.gz: cannot reach the server \\(.*ECONNREFUSED.*\\); offline\\? check the network connection\\n$`,
      ),
    );
  });

  it('should refuse what it cannot get with the usage line', async () => {
    const notAnId = await run('get', 'theory', 'latest');
    expect(notAnId.code).toBe(2);
    expect(notAnId.error).toBe(
      "partonfit get: expected a theory id (a non-negative integer), got 'latest'\nusage: partonfit get (theory <ID> | pdf <LHAPDF set name>) [--data <folder>]\n",
    );
    expect((await run('get', 'fit', 'NNPDF40')).error).toMatch(
      /^partonfit get: expected 'theory' or 'pdf', got 'fit'\n/,
    );
    expect((await run('get', 'theory')).code).toBe(2);
  });
});
