import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The example scan runcard of the repository's `examples/`. */
export const HYPEROPT_RUNCARD = fileURLToPath(
  new URL('../../../../examples/hyperopt.yml', import.meta.url),
);

/**
 * The example scan runcard made short (epochs sampled from `epochs`), with further text
 * replacements, written as `<name>.yml` into a new temporary folder.
 */
export async function writeScanRuncard(
  name: string,
  epochs: readonly [number, number],
  replacements: readonly (readonly [string | RegExp, string])[] = [],
): Promise<{ folder: string; runcard: string; text: string }> {
  let text = (await readFile(HYPEROPT_RUNCARD, 'utf8'))
    .replace('min_epochs: 1000', `min_epochs: ${epochs[0]}`)
    .replace('max_epochs: 4000', `max_epochs: ${epochs[1]}`)
    .replace('  epochs: 4000\n', `  epochs: ${epochs[1]}\n`);
  for (const [from, to] of replacements) text = text.replace(from, to);
  const folder = await mkdtemp(join(tmpdir(), `partonfit-${name}-`));
  const runcard = join(folder, `${name}.yml`);
  await writeFile(runcard, text);
  return { folder, runcard, text };
}
