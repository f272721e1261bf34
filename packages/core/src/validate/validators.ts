import { InvalidArgumentError } from '../errors/invalid-argument-error.js';

/** Options of {@link positiveInteger}. */
export interface PositiveIntegerOptions {
  /** Said after "a positive integer" in the message, e.g. `replicas are numbered from 1`. */
  readonly note?: string;
}

/**
 * `value` if it is a positive integer (1, 2, …).
 *
 * @param value - the number to check
 * @param argument - what it is, named in the error: an option, a key path or a field
 * @throws InvalidArgumentError `<argument>: expected a positive integer, got <value>`
 *
 * @example
 * ```ts
 * import { positiveInteger } from '@partonfit/core';
 *
 * positiveInteger(100, 'logEvery'); // 100
 * try {
 *   positiveInteger(0, 'logEvery');
 * } catch (error) {
 *   console.log(String(error)); // InvalidArgumentError: logEvery: expected a positive integer, got 0
 * }
 * ```
 */
export function positiveInteger(
  value: number,
  argument: string,
  options: PositiveIntegerOptions = {},
): number {
  if (!Number.isInteger(value) || value < 1) {
    const note = options.note === undefined ? '' : ` (${options.note})`;
    throw new InvalidArgumentError({
      argument,
      problem: `expected a positive integer${note}, got ${value}`,
    });
  }
  return value;
}

/** Options of {@link oneOf}. */
export interface OneOfOptions {
  /**
   * Match ignoring case, `_` and `-` and return the spelling of `allowed`. For options read back
   * from a saved tfjs-layers config: tfjs-layers rewrites every string of a layer config when a
   * model is saved (`toSnakeCase`) and loaded (`toCamelCase`), so `glorot_normal` comes back as
   * `glorotNormal` and `ALL` as `all`.
   */
  readonly loose?: boolean;
}

/**
 * `value` if it is one of `allowed` (the one it names, with `loose`).
 *
 * @param value - the value to check
 * @param allowed - the accepted values
 * @param argument - what it is, named in the error
 * @throws InvalidArgumentError `<argument>: expected one of a, b, c, got '<value>'`
 *
 * @example
 * ```ts
 * import { oneOf } from '@partonfit/core';
 *
 * const initializer = oneOf('glorotNormal', ['glorot_normal', 'glorot_uniform'], 'initializer', {
 *   loose: true,
 * });
 * console.log(initializer); // glorot_normal
 * ```
 */
export function oneOf<T extends string>(
  value: string,
  allowed: readonly T[],
  argument: string,
  options: OneOfOptions = {},
): T {
  const key = (name: string) =>
    options.loose === true ? name.replace(/[_-]/g, '').toLowerCase() : name;
  const match = allowed.find((choice) => key(choice) === key(value));
  if (match === undefined) {
    throw new InvalidArgumentError({
      argument,
      problem: `expected one of ${allowed.join(', ')}, got '${value}'`,
    });
  }
  return match;
}
