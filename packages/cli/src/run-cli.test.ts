import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { backendStatus } from '@partonfit/backend-native';
import { CLOSURE_RUNCARD } from '@partonfit/testing';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import { runCaptured } from './cli.fixture.js';

const EXAMPLE = fileURLToPath(new URL('../../../examples/nnpdf40-like.yml', import.meta.url));

/** The runcard `text` written to a fresh folder. */
async function runcardFile(text: string): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'partonfit-check-')), 'fit.yml');
  await writeFile(file, text);
  return file;
}

const run = runCaptured;

describe('partonfit command line', () => {
  it('should list the commands with --help and with no arguments', async () => {
    const help = await run('--help');
    expect(help.code).toBe(0);
    for (const name of ['check', 'backend', 'fit', 'predict', 'export', 'postfit']) {
      expect(help.out).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
    }
    expect(help.out).toMatch(/^partonfit 0\.1\.0 — /);
    expect(help.out).toContain('\n  -v, --version  show the version\n');
    expect(help.out).toContain('\n  check          validate a runcard');
    expect((await run()).out).toBe(help.out);
  });

  it('should print the version', async () => {
    expect(await run('--version')).toEqual({ code: 0, out: '0.1.0\n', error: '' });
  });

  it('should summarise a valid runcard with the points of each dataset', async () => {
    const { code, out } = await run('check', CLOSURE_RUNCARD);
    expect(code).toBe(0);
    expect(out).toContain(`${CLOSURE_RUNCARD}: valid`);
    expect(out).toContain(
      'datasets:      174 points after cuts: CLOSURE_F2P (30), CLOSURE_F2D (24), CLOSURE_NU_F2 (16),',
    );
    expect(out).toContain('positivity:    CLOSURE_POS_XUB (20), CLOSURE_POS_XDB (20),');
    expect(out).toContain('network:       2 → 25 → 20 → 8 (tanh, tanh, linear), glorot_normal');
    expect(out).toContain('epochs:        8000, patience 800 epochs, threshold χ² 5');
    expect(out).toContain('optimizer:     Nadam, learning rate 0.001, clipnorm 0.000006073');
  });

  it('should refuse a runcard naming a dataset that does not exist, listing every one', async () => {
    const closure = await readFile(CLOSURE_RUNCARD, 'utf8');
    const typo = await runcardFile(closure.replace('CLOSURE_F2D,', 'CLOSURE_F2Q,'));
    const { code, out, error } = await run('check', typo);
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(error).toMatch(
      /^partonfit check: \(embedded closure data\): CLOSURE_F2Q: no such embedded dataset; there are CLOSURE_F2P, CLOSURE_F2D,/,
    );
    const twoTypos = await runcardFile(
      closure.replace('CLOSURE_F2D,', 'CLOSURE_F2Q,').replace('CLOSURE_POS_XG,', 'CLOSURE_POS_XQ,'),
    );
    const both = await run('check', twoTypos);
    expect(both.code).toBe(1);
    expect(both.error).toContain(
      'partonfit check: 2 datasets cannot be read:\n  (embedded closure data): CLOSURE_F2Q:',
    );
    expect(both.error).toContain('CLOSURE_POS_XQ');
  });

  it.skipIf(!hasSharedData('commondata/SLAC_NC_NOTFIXED_P', 'partonfit check on NNPDF commondata'))(
    'should name close commondata names for a misspelled real dataset, and missing FK tables',
    async () => {
      const text = (await readFile(EXAMPLE, 'utf8')).replace(
        /(commondata|theories): \.\.\/\.\.\/shared\/data/g,
        (_, key: string) => `${key}: ${SHARED_DATA}`,
      );
      const { code, out, error } = await run(
        'check',
        await runcardFile(text.replace('SLAC_NC_NOTFIXED_P_EM-F2', 'SLAC_NC_NOTFIXED_P_EM-F3')),
      );
      expect(code).toBe(1);
      expect(out).toBe('');
      expect(error).toContain(
        "no observable 'EM-F3' (dataset SLAC_NC_NOTFIXED_P_EM-F3); the set has EM-F2",
      );
      // NNPDF4.0's datasets validate, but ../shared/data holds only two of theory 200's tables.
      expect(error).toContain('no FK table for BCDMS_NC_NOTFIXED_P_EM-F2');
    },
  );

  it('should report an invalid runcard with exit code 1', async () => {
    const { code, error } = await run('check', '/nonexistent.yml');
    expect(code).toBe(1);
    expect(error).toBe(
      'partonfit check: /nonexistent.yml: 1 problem in the runcard\n  /nonexistent.yml: cannot read the runcard: no such file\n',
    );
  });

  it('should show the chosen backend', async () => {
    const { code, out } = await run('backend', '--backend', 'cpu');
    expect(code).toBe(0);
    expect(out).toBe('backend: cpu (@tensorflow/tfjs-backend-cpu; plain JavaScript)\n');
  });

  it.runIf(backendStatus().available)(
    'should say which BLAS, if any, and which vector path the native backend runs',
    async () => {
      const { code, out } = await run('backend', '--backend', 'native');
      expect(code).toBe(0);
      expect(out).toMatch(
        /^backend: native \(@partonfit\/backend-native; C\+\+ addon (over OpenBLAS \(.+\)|over the system CBLAS|without a BLAS \(own GEMM\)), (AVX-512|AVX2|baseline) kernels, \d+ threads?(, PARTONFIT_NATIVE_ADDON=.+)?\)\n$/,
      );
    },
  );

  it('should explain usage errors with exit code 2', async () => {
    expect(await run('check')).toMatchObject({
      code: 2,
      error: 'partonfit check: expected 1 argument, got 0\nusage: partonfit check <runcard.yml>\n',
    });
    expect(await run('check', 'a.yml', 'b.yml')).toMatchObject({
      code: 2,
      error: 'partonfit check: expected 1 argument, got 2\nusage: partonfit check <runcard.yml>\n',
    });
    expect(await run('backend', '--backend', 'gpu')).toMatchObject({
      code: 2,
      error:
        "partonfit backend: --backend: expected one of auto, tensorflow, native, wasm, cpu, got 'gpu'\n" +
        'usage: partonfit backend [--backend auto|tensorflow|native|wasm|cpu]\n',
    });
    expect(await run('backend', 'cpu')).toMatchObject({
      code: 2,
      error:
        'partonfit backend: expected no arguments, got 1\n' +
        'usage: partonfit backend [--backend auto|tensorflow|native|wasm|cpu]\n',
    });
    expect((await run('backend', '--fast')).error).toMatch(
      /^partonfit backend: Unknown option '--fast'/,
    );
    expect(await run('fitt')).toMatchObject({
      code: 2,
      error: "partonfit: unknown command 'fitt'; see `partonfit --help`\n",
    });
  });

  it("should print a command's usage with --help", async () => {
    expect((await run('check', '--help')).out).toBe(
      'usage: partonfit check <runcard.yml>\n  validate a runcard and show the settings a fit would use\n',
    );
    const fit = await run('fit', '--frobnicate', '-h');
    expect(fit).toMatchObject({ code: 0, error: '' });
    expect(fit.out).toMatch(/^usage: partonfit fit <runcard\.yml> \[--replicas 1-100\]/);
    expect(await run('check', '--', '--help')).toMatchObject({ code: 1 });
  });
});
