import {
  cachedEvolutionOperator,
  type EvolutionOperator,
  type EvolutionOptions,
  type TheoryCard,
} from '@partonfit/evolution';
import { showProgress, type Terminal } from './terminal.js';

/** The perturbative order and solution method of a card, as the commands say it: `LO (EXA)`. */
export function orderAndMethod(card: TheoryCard): string {
  return `${['LO', 'NLO', 'NNLO'][card.order]} (${card.evolutionMethod})`;
}

/** Scales between two plain progress lines when the output is not a terminal. */
const PLAIN_EVERY = 10;

/** How {@link evolutionOperatorWithProgress} reads the cache and names its command. */
export interface OperatorProgressOptions {
  /** Whether to read and write the operator cache (`--no-cache` turns it off). */
  readonly useCache: boolean;
  /** The command whose warnings these are (`evolve`, `report`). */
  readonly command: string;
}

/**
 * The evolution operator from the cache (`$XDG_CACHE_HOME/partonfit`) or built, with the build's
 * progress per scale on standard error, a damaged cache file reported and rebuilt, and a line
 * saying where the operator came from: what `partonfit evolve` and `partonfit report --q` use.
 */
export async function evolutionOperatorWithProgress(
  card: TheoryCard,
  options: EvolutionOptions,
  { useCache, command }: OperatorProgressOptions,
  terminal: Terminal,
): Promise<EvolutionOperator> {
  const start = performance.now();
  const { operator, fromCache, cacheFile } = await cachedEvolutionOperator(card, options, {
    ...(useCache ? {} : { cacheFolder: null }),
    onScale: (done, total) => {
      const plain = done % PLAIN_EVERY === 0 || done === total;
      showProgress(terminal, `building the evolution operator: scale ${done}/${total}`, plain);
    },
    onCacheProblem: (problem) => {
      terminal.status?.('');
      terminal.error(`partonfit ${command}: warning: ${problem.message}\n`);
    },
    onCacheTrimmed: (message) => {
      terminal.status?.('');
      terminal.out(`${message}\n`);
    },
  });
  terminal.status?.('');
  const seconds = ((performance.now() - start) / 1000).toFixed(1);
  terminal.out(
    fromCache
      ? `read the evolution operator from ${String(cacheFile)} (${seconds} s)\n`
      : `built the evolution operator in ${seconds} s${cacheFile === undefined ? '' : `, cached in ${cacheFile}`}\n`,
  );
  return operator;
}
