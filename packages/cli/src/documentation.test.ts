import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findCommand } from './run-cli.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** A `partonfit` command line, with its 1-based line. */
interface CommandLine {
  readonly text: string;
  readonly line: number;
}

/** The Markdown a person reads: README.md, every page under docs/, each package's README.md. */
function documentationFiles(): string[] {
  const guides = readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => join('docs', name));
  const packages = readdirSync(join(ROOT, 'packages'))
    .map((name) => join('packages', name, 'README.md'))
    .filter((file) => existsSync(join(ROOT, file)));
  return ['README.md', ...guides.sort(), ...packages.sort()];
}

/** Each line of `text` with its 1-based number and whether it lies in a fenced code block. */
function markdownLines(text: string): { text: string; line: number; fenced: boolean }[] {
  let fence: string | undefined;
  return text.split('\n').map((line, i) => {
    const marker = /^\s*(```|~~~)/.exec(line)?.[1];
    if (marker !== undefined && (fence === undefined || fence === marker)) {
      fence = fence === undefined ? marker : undefined;
      return { text: line, line: i + 1, fenced: false };
    }
    return { text: line, line: i + 1, fenced: fence !== undefined };
  });
}

/** A relative link or image target: the file (empty for the same page) and its `#anchor`. */
interface LinkTarget {
  readonly path: string;
  readonly anchor: string | undefined;
  readonly line: number;
}

/** The relative links `[text](target)` and images `![text](target)` outside code. */
function relativeLinks(text: string): LinkTarget[] {
  return markdownLines(text)
    .filter(({ fenced }) => !fenced)
    .flatMap(({ text: line, line: number }) =>
      [...line.replace(/`[^`]*`/g, '').matchAll(/\]\(([^()\s]+)(?:\s+"[^"]*")?\)/g)]
        .map((match) => match[1])
        .filter((target) => !/^(https?:|mailto:)/.test(target))
        .map((target) => {
          const [path = '', anchor] = target.split('#');
          return { path: decodeURIComponent(path), anchor, line: number };
        }),
    );
}

/**
 * The anchors of a Markdown page's headings as GitHub makes them: the heading's text without
 * code marks and link targets, lower case, without punctuation or symbols (`-` and `_` stay),
 * spaces turned into `-`; a repeated anchor gets `-1`, `-2`, ….
 */
function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  for (const { text: line, fenced } of markdownLines(text)) {
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading === null) continue;
    const base = heading[1]
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{Nd}\p{Nl}\p{Pc}\- ]/gu, '')
      .replace(/ /g, '-');
    let anchor = base;
    for (let repeat = 1; anchors.has(anchor); repeat++) anchor = `${base}-${repeat}`;
    anchors.add(anchor);
  }
  return anchors;
}

/**
 * Why the link `target` of the page `from`, whose Markdown is `text`, is broken, or undefined
 * if it leads somewhere: a file or folder that exists, and a heading of the page it names (a
 * folder's README.md) when it has an anchor.
 */
function linkProblem(from: string, text: string, target: LinkTarget): string | undefined {
  const { path, anchor } = target;
  const file = join(dirname(from), path);
  if (path !== '' && !existsSync(file)) return `link to ${path}, which does not exist`;
  if (anchor === undefined) return undefined;
  const page = path === '' ? from : statSync(file).isDirectory() ? join(file, 'README.md') : file;
  if (!page.endsWith('.md')) return undefined;
  const headings = path === '' ? text : existsSync(page) ? readFileSync(page, 'utf8') : '';
  if (headingAnchors(headings).has(anchor)) return undefined;
  return `link to ${path}#${anchor}, a heading that does not exist`;
}

/** Marks of a command line that is not literal: placeholders, alternatives, shell operators. */
const NOT_LITERAL = ['<', '[', '|', '…', '...', '$(', '&&', '>'];

/**
 * The concrete `partonfit …` (or `npx partonfit …`) command lines of the fenced code blocks, as
 * the arguments after `partonfit`: a trailing `# comment` removed, a line ending in `\` joined
 * with the next, lines with placeholders or shell operators left out.
 */
function commandLines(text: string): CommandLine[] {
  const found: CommandLine[] = [];
  const lines = markdownLines(text);
  for (let i = 0; i < lines.length; i++) {
    const { text: first, line, fenced } = lines[i];
    const start = /^\s*(?:npx )?partonfit /.exec(first);
    if (!fenced || start === null) continue;
    let command = first.slice(start[0].length);
    while (command.trimEnd().endsWith('\\') && i + 1 < lines.length && lines[i + 1].fenced) {
      command = `${command.trimEnd().slice(0, -1).trimEnd()} ${lines[++i].text.trim()}`;
    }
    command = command.replace(/\s#.*$/, '').trim();
    if (!NOT_LITERAL.some((mark) => command.includes(mark))) found.push({ text: command, line });
  }
  return found;
}

/** The words of a command line as a POSIX shell splits them, with '…' and "…" quoting. */
function shellWords(command: string): string[] {
  return [...command.matchAll(/(?:[^\s'"]+|'[^']*'|"[^"]*")+/g)].map(([word]) =>
    word.replace(
      /'([^']*)'|"([^"]*)"/g,
      (_, single: string | undefined, double: string | undefined) => single ?? double ?? '',
    ),
  );
}

/** What `partonfit` answers without a command: its help and its version. */
const TOP_LEVEL_OPTIONS = ['-h', '--help', 'help', '-v', '--version'];

/** Why the command line `partonfit <command>` would be refused, or undefined if it parses. */
function commandProblem(command: string): string | undefined {
  const [name = '', ...args] = shellWords(command).filter((word) => word !== '--debug');
  if (TOP_LEVEL_OPTIONS.includes(name) && args.length === 0) return undefined;
  const found = findCommand(name);
  if (found === undefined) return `unknown command '${name}'`;
  try {
    found.parse(args);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** The broken links and refused command lines of the Markdown `text` of `file` (from the root). */
function documentationProblems(root: string, file: string, text: string): string[] {
  const links = relativeLinks(text).flatMap((target) => {
    const problem = linkProblem(join(root, file), text, target);
    return problem === undefined ? [] : [`${file}:${target.line}: ${problem}`];
  });
  const commands = commandLines(text).flatMap(({ text: command, line }) => {
    const problem = commandProblem(command);
    return problem === undefined ? [] : [`${file}:${line}: partonfit ${command}: ${problem}`];
  });
  return [...links, ...commands];
}

const FILES = documentationFiles();

/** The text of `file`, relative to the repository's root. */
function read(file: string): string {
  return readFileSync(join(ROOT, file), 'utf8');
}

describe('the documentation', () => {
  it('should be found: the README, the guides of docs/ and every package README', () => {
    expect(FILES).toContain('README.md');
    expect(FILES).toContain(join('docs', 'README.md'));
    expect(FILES).toContain(join('docs', 'runcard', 'data.md'));
    expect(FILES).toContain(join('packages', 'cli', 'README.md'));
    expect(FILES.flatMap((file) => relativeLinks(read(file))).length).toBeGreaterThan(100);
    expect(FILES.flatMap((file) => commandLines(read(file))).length).toBeGreaterThan(30);
  });

  it.each(FILES)(
    'should link only to what exists and show only commands that parse: %s',
    (file) => {
      expect(documentationProblems(ROOT, file, read(file))).toEqual([]);
    },
  );

  it('should name the file and line of a broken link and of a refused command line', () => {
    const text = [
      '# A guide', // 1
      '[the fit folder](fitting.md#the-fit-folder) and [nothing](missing.md)', // 2
      '![a figure](missing.png) [outside](https://example.org/missing) [here](#a-guide) [there](#nowhere)', // 3
      '`[in code](not-a-link.md)` [a package](../packages/trainer#exactness) [no heading](fitting.md#no-such-heading)', // 4
      '```sh', // 5
      'npx partonfit check examples/closure.yml   # validate', // 6
      'partonfit fit examples/closure.yml --replicas 1-10 --epochs 5', // 7
      'partonfit fit <runcard.yml> --replicas 1-10 [--resume]', // 8
      'partonfit submit examples/closure.yml --replicas 1-10 \\', // 9
      "  --per-task 5 --postfit='--integrability-threshold 100' --dry-run", // 10
      'partonfit status one two', // 11
      'partonfit refit fits/closure', // 12
      'partonfit fit examples/closure.yml --help', // 13
      '[in a block](missing.md)', // 14
      '```', // 15
    ].join('\n');
    expect(commandLines(text)).toEqual([
      { text: 'check examples/closure.yml', line: 6 },
      { text: 'fit examples/closure.yml --replicas 1-10 --epochs 5', line: 7 },
      {
        text: "submit examples/closure.yml --replicas 1-10 --per-task 5 --postfit='--integrability-threshold 100' --dry-run",
        line: 9,
      },
      { text: 'status one two', line: 11 },
      { text: 'refit fits/closure', line: 12 },
      { text: 'fit examples/closure.yml --help', line: 13 },
    ]);
    expect(documentationProblems(join(ROOT, 'docs'), 'guide.md', text)).toEqual([
      'guide.md:2: link to missing.md, which does not exist',
      'guide.md:3: link to missing.png, which does not exist',
      'guide.md:3: link to #nowhere, a heading that does not exist',
      'guide.md:4: link to fitting.md#no-such-heading, a heading that does not exist',
      expect.stringMatching(
        /^guide\.md:7: partonfit fit examples\/closure\.yml --replicas 1-10 --epochs 5: Unknown option '--epochs'/,
      ),
      'guide.md:11: partonfit status one two: expected 1 argument, got 2',
      "guide.md:12: partonfit refit fits/closure: unknown command 'refit'",
    ]);
  });

  it('should make heading anchors as GitHub does', () => {
    const page = [
      '# partonfit',
      '## Per-replica settings: `parameters_per_replica` and `trial_specs`',
      "## The scan's report",
      '## χ² per dataset, [linked](other.md)',
      '## Usage',
      '## Usage',
      '```sh',
      '# a comment, not a heading',
      '```',
    ].join('\n');
    expect([...headingAnchors(page)]).toEqual([
      'partonfit',
      'per-replica-settings-parameters_per_replica-and-trial_specs',
      'the-scans-report',
      'χ-per-dataset-linked',
      'usage',
      'usage-1',
    ]);
  });
});
