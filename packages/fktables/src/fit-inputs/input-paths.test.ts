import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseRuncard } from '@partonfit/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { inputPaths } from './input-paths.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

const CLOSURE = readFileSync(new URL('../../../../examples/closure.yml', import.meta.url), 'utf8');

/** The input paths of the closure runcard, as if in /fits/cards/, with `data_paths` `lines`. */
function pathsWith(...lines: string[]) {
  const dataPaths = lines.length === 0 ? [] : ['data_paths:', ...lines.map((line) => `  ${line}`)];
  const text = [CLOSURE, 'theory: { theoryid: 200 }', ...dataPaths, ''].join('\n');
  const file = '/fits/cards/fit.yml';
  return inputPaths(parseRuncard(text, { file }).runcard, file);
}

describe('inputPaths', () => {
  it('should look for theories and LHAPDF sets in the data folder unless data_paths places them', () => {
    vi.stubEnv('PARTONFIT_DATA', '/scratch/partonfit');
    expect(pathsWith()).toMatchObject({
      theories: '/scratch/partonfit/theories',
      lhapdf: '/scratch/partonfit/lhapdf',
      theoryId: 200,
    });
    expect(pathsWith('data: ../downloads')).toMatchObject({
      theories: join('/fits/downloads', 'theories'),
      lhapdf: join('/fits/downloads', 'lhapdf'),
    });
    expect(pathsWith('theories: /nnpdf/share/theories', 'data: /elsewhere')).toMatchObject({
      theories: '/nnpdf/share/theories',
      lhapdf: '/elsewhere/lhapdf',
    });
  });
});
