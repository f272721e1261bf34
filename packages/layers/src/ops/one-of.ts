import { InvalidArgumentError } from '@partonfit/core';

/**
 * `value` if it is one of `allowed`, for options read from code or from a saved config.
 *
 * @throws InvalidArgumentError naming `argument` and the allowed values
 */
export function oneOf<T extends string>(value: string, allowed: readonly T[], argument: string): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new InvalidArgumentError({
      argument,
      problem: `expected one of ${allowed.join(', ')}, got '${value}'`,
    });
  }
  return value as T;
}
