import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The embedded closure runcard shipped in the repository's `examples/`. */
export const CLOSURE_RUNCARD = fileURLToPath(
  new URL('../../../examples/closure.yml', import.meta.url),
);

/** How a test changes the embedded closure runcard for a short fit. */
export interface ClosureRuncardChanges {
  /** Training epochs (the runcard has 8,000). */
  readonly epochs: number;
  /** Keep only the charged-lepton datasets (drop the ν and ν̄ ones): a smaller, faster fit. */
  readonly chargedLeptonsOnly?: boolean;
  /**
   * Thresholds every replica passes (`threshold_chi2` 1000, a positivity threshold of 1e6), so
   * that a short fit's replicas all reach postfit.
   */
  readonly passEveryReplica?: boolean;
  /** Further replacements of the runcard's text, in order. */
  readonly replacements?: readonly (readonly [string | RegExp, string])[];
}

/** The text of the embedded closure runcard with `changes`. */
export async function closureRuncardText(changes: ClosureRuncardChanges): Promise<string> {
  let text = (await readFile(CLOSURE_RUNCARD, 'utf8')).replace(
    'epochs: 8000',
    `epochs: ${changes.epochs}`,
  );
  if (changes.chargedLeptonsOnly === true) {
    text = text.replace(/ {2}- \{ dataset: CLOSURE_(NU|NUB)_\w+, frac: 0\.75 \}\n/g, '');
  }
  if (changes.passEveryReplica === true) {
    text = text
      .replace('threshold_chi2: 5.0', 'threshold_chi2: 1000')
      .replace('    initial: 10\n', '    initial: 10\n    threshold: 1.0e6\n');
  }
  for (const [from, to] of changes.replacements ?? []) text = text.replace(from, to);
  return text;
}

/**
 * The embedded closure runcard with `changes`, written as `<name>.yml` (so the fit is `<name>`)
 * into a new temporary folder.
 */
export async function writeClosureRuncard(
  name: string,
  changes: ClosureRuncardChanges,
): Promise<{ folder: string; runcard: string }> {
  const folder = await mkdtemp(join(tmpdir(), `partonfit-${name}-`));
  const runcard = join(folder, `${name}.yml`);
  await writeFile(runcard, await closureRuncardText(changes));
  return { folder, runcard };
}
