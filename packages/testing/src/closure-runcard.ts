import { fileURLToPath } from 'node:url';

/** The embedded closure runcard shipped in the repository's `examples/`. */
export const CLOSURE_RUNCARD = fileURLToPath(
  new URL('../../../examples/closure.yml', import.meta.url),
);
