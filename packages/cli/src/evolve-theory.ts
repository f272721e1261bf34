import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadFitFolderRuncard } from '@partonfit/fit-folder';
import {
  embeddedTheoryCard,
  loadTheoryCard,
  readTheoryCard,
  type TheoryCard,
} from '@partonfit/evolution';
import { UsageError } from './define-command.js';

/**
 * The theory card `partonfit evolve` evolves a fit with: `--theory` (a card's path or an
 * embedded card's name) when given, else the fit's runcard's `evolution.theory_card` (an
 * embedded name, or a path relative to `<fit>/runcard.yml`).
 *
 * @param fitFolder - the fit folder
 * @param theory - the `--theory` option
 * @throws UsageError when neither names a card
 * @throws InputFileError for a card or runcard that cannot be read or is invalid
 */
export async function evolveTheoryCard(
  fitFolder: string,
  theory: string | undefined,
): Promise<TheoryCard> {
  if (theory !== undefined) return loadTheoryCard(theory);
  const runcardFile = join(fitFolder, 'runcard.yml');
  if (!existsSync(runcardFile)) {
    throw new UsageError(
      `no theory card: pass --theory <theory card> (${fitFolder} has no runcard.yml to name one)`,
    );
  }
  const card = await runcardTheoryCard(fitFolder);
  if (card === undefined) {
    throw new UsageError(
      `no theory card: pass --theory <theory card> or set evolution.theory_card in ${runcardFile}`,
    );
  }
  return card;
}

/**
 * The theory card a fit's runcard names in `evolution.theory_card` (an embedded name, or a path
 * relative to `<fit>/runcard.yml`), or undefined when it names none.
 *
 * @param fitFolder - the fit folder
 * @throws RuncardError for a missing or invalid runcard; InputFileError for a card that cannot
 *   be read or is invalid
 */
export async function runcardTheoryCard(fitFolder: string): Promise<TheoryCard | undefined> {
  const { runcard } = await loadFitFolderRuncard(fitFolder);
  const named = runcard.evolution?.theory_card;
  if (named === undefined) return undefined;
  return embeddedTheoryCard(named) ?? readTheoryCard(resolve(fitFolder, named));
}
