import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PartonfitError } from '@partonfit/core';

/**
 * The command that runs this partonfit on a cluster's nodes: this Node.js and the built command
 * line, `packages/cli/dist/main.js` (found from the sources too, so that tests submit the build).
 *
 * @throws PartonfitError when the command line has not been built
 */
export function partonfitCommand(): string[] {
  const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));
  if (!existsSync(main)) {
    throw new PartonfitError({
      message: `${main} does not exist: build partonfit first (npm run build) so that the cluster's nodes can run it`,
    });
  }
  return [process.execPath, main];
}
