import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sharedDataFolder } from './shared-data.js';

const REPOSITORY = fileURLToPath(new URL('../../../', import.meta.url));

/** The lines of a TypeScript file that are code, not comments. */
function codeLines(file: string): string[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line));
}

/** The repository's test, fixture and benchmark files (not dist/ or node_modules/). */
function testFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      return ['node_modules', 'dist', '.turbo', '.git'].includes(entry.name) ? [] : testFiles(path);
    }
    return /\.(test|fixture|bench)\.ts$/.test(entry.name) ? [path] : [];
  });
}

describe('sharedDataFolder', () => {
  it('should default to ../shared/data beside the repository', () => {
    expect(sharedDataFolder(undefined)).toBe(join(REPOSITORY, '..', 'shared', 'data') + '/');
    expect(sharedDataFolder('')).toBe(sharedDataFolder(undefined));
  });

  it('should hide the data behind a folder that does not exist for none', () => {
    expect(sharedDataFolder('none')).toBe('/nonexistent/partonfit-shared-data-hidden/');
  });

  it('should take another folder, resolved, with a trailing slash', () => {
    expect(sharedDataFolder('/data/nnpdf')).toBe('/data/nnpdf/');
  });
});

describe('the tests reach the shared data only through this package', () => {
  it('should find no test, fixture or benchmark that names ../shared itself', () => {
    const offenders = [
      ...testFiles(join(REPOSITORY, 'packages')),
      ...testFiles(join(REPOSITORY, 'bench')),
    ]
      .filter((file) => !file.includes(join('packages', 'testing')))
      .filter((file) => codeLines(file).some((line) => /\.\.\/shared\b/.test(line)))
      .map((file) => relative(REPOSITORY, file));
    expect(offenders).toEqual([]);
  });
});
