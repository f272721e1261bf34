import { InvalidArgumentError } from '@partonfit/core';

/**
 * The member of `choices` that `value` names, ignoring case, `_` and `-`.
 *
 * Why: tfjs-layers rewrites every string in a layer config when a model is saved
 * (`toSnakeCase`) and loaded (`toCamelCase`), so `glorot_normal` comes back as `glorotNormal`
 * and `ALL` as `all`; a layer rebuilt from a saved config must still recognise its options.
 *
 * @throws InvalidArgumentError naming `argument` and the choices
 */
export function configChoice<T extends string>(
  value: string,
  choices: readonly T[],
  argument: string,
): T {
  const key = (name: string) => name.replace(/[_-]/g, '').toLowerCase();
  const match = choices.find((choice) => key(choice) === key(value));
  if (match === undefined) {
    throw new InvalidArgumentError({
      argument,
      problem: `expected one of ${choices.join(', ')}, got '${value}'`,
    });
  }
  return match;
}
