import { InvalidArgumentError, oneOf } from '@partonfit/core';
import { BACKEND_REQUESTS, type BackendRequest } from '@partonfit/backend';
import { UsageError } from './define-command.js';

/**
 * A positive number given on the command line, e.g. `--nrep 100`.
 *
 * @param option - the option, for the message, e.g. `--nrep`
 * @param text - what was typed
 * @param kind - `integer` (the default) or any positive `number`
 * @throws UsageError `<option>: expected a positive integer, got '<text>'`
 */
export function positiveOption(
  option: string,
  text: string,
  kind: 'integer' | 'number' = 'integer',
): number {
  const value = Number(text);
  const integer = kind === 'integer';
  if (
    text.trim() === '' ||
    !Number.isFinite(value) ||
    value <= 0 ||
    (integer && !Number.isInteger(value))
  ) {
    throw new UsageError(`${option}: expected a positive ${kind}, got '${text}'`);
  }
  return value;
}

/**
 * Scales Q in GeV given as a comma-separated list, e.g. `--q 1.65,100`.
 *
 * @param option - the option, for the message, e.g. `--q`
 * @param text - what was typed
 * @throws UsageError `<option>: expected scales Q in GeV separated by commas, e.g. 1.65,100; got '<text>'`
 *   for an empty list or an entry that is not a positive number
 */
export function scalesOption(option: string, text: string): number[] {
  const entries = text.split(',').map((entry) => entry.trim());
  const scales = entries.map(Number);
  if (entries.some((entry, i) => entry === '' || !Number.isFinite(scales[i]) || scales[i] <= 0)) {
    throw new UsageError(
      `${option}: expected scales Q in GeV separated by commas, e.g. 1.65,100; got '${text}'`,
    );
  }
  return scales;
}

/**
 * The `--backend` value, when given: `auto` or a backend's name.
 *
 * @throws UsageError `--backend: expected one of auto, tensorflow, native, wasm, cpu, got '<text>'`
 */
export function backendOption(text: string): BackendRequest;
export function backendOption(text: string | undefined): BackendRequest | undefined;
export function backendOption(text: string | undefined): BackendRequest | undefined {
  if (text === undefined) return undefined;
  try {
    return oneOf(text, BACKEND_REQUESTS, '--backend');
  } catch (error) {
    if (InvalidArgumentError.isInstance(error)) throw new UsageError(error.message);
    throw error;
  }
}
