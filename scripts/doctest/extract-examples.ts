import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** One `@example` block of a TSDoc comment. */
export interface DocExample {
  /** The source file, relative to the repository. */
  readonly file: string;
  /** The 1-based line of the example's first code line in that file. */
  readonly line: number;
  /** The code, without the comment's ` * ` prefixes. */
  readonly code: string;
  /** Whether the fence says `typecheck-only`: compiled, not run (it needs a user's files). */
  readonly typecheckOnly: boolean;
}

/** The TypeScript sources of the packages (not tests, fixtures, benchmarks or build output). */
export function packageSources(repository: string): string[] {
  const walk = (folder: string): string[] =>
    readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
      const path = join(folder, entry.name);
      if (entry.isDirectory())
        return ['node_modules', 'dist'].includes(entry.name) ? [] : walk(path);
      return /(?<!\.(test|fixture|bench))\.ts$/.test(entry.name) ? [path] : [];
    });
  const packages = join(repository, 'packages');
  return readdirSync(packages).flatMap((name) => {
    const src = join(packages, name, 'src');
    try {
      return walk(src);
    } catch {
      return [];
    }
  });
}

/**
 * The `@example` blocks of a file: after `@example`, a fenced block opened by ```` ```ts ````
 * (optionally ```` ```ts typecheck-only ````) inside a `/** … *\/` comment.
 */
export function extractExamples(file: string, text: string, repository: string): DocExample[] {
  const lines = text.split('\n');
  const examples: DocExample[] = [];
  let inExample = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].replace(/^\s*\* ?/, '');
    if (/^\s*\*\s*@example\b/.test(lines[i])) {
      inExample = true;
      continue;
    }
    const fence = /^```ts(?:\s+(\S+))?\s*$/.exec(line);
    if (!inExample || fence === null) continue;
    const code: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !/^\s*\*\s*```\s*$/.test(lines[j]); j++) {
      code.push(lines[j].replace(/^\s*\* ?/, ''));
    }
    examples.push({
      file: relative(repository, file),
      line: i + 2,
      code: `${code.join('\n')}\n`,
      typecheckOnly: fence[1] === 'typecheck-only',
    });
    inExample = false;
    i = j;
  }
  return examples;
}

/** Every `@example` block of the packages' sources. */
export function allExamples(repository: string): DocExample[] {
  return packageSources(repository).flatMap((file) =>
    extractExamples(file, readFileSync(file, 'utf8'), repository),
  );
}
