import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { allExamples } from './extract-examples.js';
import { typecheckExamples } from './typecheck-examples.js';

const REPOSITORY = fileURLToPath(new URL('../../', import.meta.url));
/** Inside the repository, so that the examples resolve `@partonfit/*` through its node_modules. */
const FOLDER = join(REPOSITORY, 'scripts', 'doctest', '.examples');

const examples = allExamples(REPOSITORY).map((example) => ({
  ...example,
  name: `${example.file}:${example.line}`,
  path: join(FOLDER, `${example.file.replace(/[/.]/g, '_')}_${example.line}.ts`),
}));
rmSync(FOLDER, { recursive: true, force: true });
mkdirSync(FOLDER, { recursive: true });
for (const example of examples) {
  // `export {}` makes each example a module of its own, with top-level await.
  writeFileSync(example.path, `${example.code}export {};\n`);
}

describe('the @example blocks of the packages', () => {
  it('should find the examples', () => {
    expect(examples.length).toBeGreaterThanOrEqual(13);
  });

  it('should type-check every example against the packages’ sources', () => {
    const diagnostics = typecheckExamples(
      examples.map((example) => example.path),
      join(REPOSITORY, 'tsconfig.base.json'),
    ).map((diagnostic) => {
      const example = examples.find((candidate) => candidate.path === diagnostic.file);
      const where =
        example === undefined
          ? diagnostic.file
          : `${example.file}:${example.line + diagnostic.line - 1}`;
      return `${where}: ${diagnostic.message}`;
    });
    expect(diagnostics).toEqual([]);
  }, 120_000);

  it.each(
    examples.filter((example) => !example.typecheckOnly).map((example) => [example.name, example]),
  )('should run %s', async (_, example) => {
    await expect(import(pathToFileURL(example.path).href)).resolves.toBeDefined();
  });
});
