import { z } from 'zod';

/** Every key any runcard section accepts, used to suggest a key for a misspelt one. */
export const KNOWN_KEYS = new Set<string>();

/** A runcard section: a strict object (unknown keys are errors) whose keys are registered. */
export function section<Shape extends z.ZodRawShape>(shape: Shape) {
  for (const key of Object.keys(shape)) KNOWN_KEYS.add(key);
  return z.strictObject(shape, { error: 'expected a mapping of keys to values' });
}

export const positiveInteger = () =>
  z
    .int({ error: 'expected a positive integer' })
    .positive({ error: 'expected a positive integer' });

export const positiveNumber = () =>
  z
    .number({ error: 'expected a positive number' })
    .positive({ error: 'expected a positive number' });

export const nonNegativeNumber = () =>
  z.number({ error: 'expected a number ≥ 0' }).nonnegative({ error: 'expected a number ≥ 0' });

/** A number in [low, high]. */
export const numberBetween = (low: number, high: number) => {
  const error = `expected a number between ${low} and ${high}`;
  return z.number({ error }).min(low, { error }).max(high, { error });
};

/** An unsigned 32-bit seed. */
export const seed = () => {
  const error = 'expected an integer between 0 and 4294967295';
  return z.int({ error }).min(0, { error }).max(0xffffffff, { error });
};

export const text = () =>
  z.string({ error: 'expected a string' }).min(1, { error: 'expected a non-empty string' });

export const flag = () => z.boolean({ error: 'expected true or false' });

/** One of the given names. */
export const oneOf = <const Names extends readonly [string, ...string[]]>(names: Names) =>
  z.enum(names, { error: `expected one of ${names.join(', ')}` });

/** A range `[low, high]` with low ≤ high. */
export const range = () =>
  z
    .tuple([z.number(), z.number()], { error: 'expected a range [low, high] of two numbers' })
    .refine(([low, high]) => low <= high, {
      error: 'expected a range [low, high] with low ≤ high',
    });
