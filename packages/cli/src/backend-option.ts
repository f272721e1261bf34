import { BACKEND_REQUESTS, type BackendRequest } from '@partonfit/backend';
import type { Terminal } from './terminal.js';

/**
 * Whether a `--backend` value (absent, or given) names a backend request; when it does not, says
 * so on the terminal, listing the accepted ones.
 */
export function validBackendOption<T extends string | undefined>(
  value: T,
  terminal: Terminal,
): value is Extract<T, undefined> | (T & BackendRequest) {
  if (value === undefined || (BACKEND_REQUESTS as readonly string[]).includes(value)) return true;
  terminal.error(`--backend: expected one of ${BACKEND_REQUESTS.join(', ')}, got '${value}'\n`);
  return false;
}
