import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCaptured } from './cli.fixture.js';

const EXAMPLE = fileURLToPath(new URL('../../../examples/nnpdf40-like.yml', import.meta.url));

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

  it('should summarise a valid runcard', async () => {
    const { code, out } = await run('check', EXAMPLE);
    expect(code).toBe(0);
    expect(out).toContain(`${EXAMPLE}: valid`);
    expect(out).toContain('network:       2 → 25 → 20 → 8 (tanh, tanh, linear), glorot_normal');
    expect(out).toContain('epochs:        17000, patience 1700 epochs, threshold χ² 3.5');
    expect(out).toContain('optimizer:     Nadam, learning rate 0.002621, clipnorm 0.000006073');
  });

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
