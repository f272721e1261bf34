import { PartonfitError, SeededRandom } from '@partonfit/core';

/** How many damaged copies of an input a fuzz test tries: enough to reach every branch, seconds to run. */
export const FUZZ_MUTATIONS = 2000;

/**
 * `bytes` with one damage drawn from `random`: a bit flipped, eight bytes overwritten, sixteen
 * bytes zeroed or set, or the end cut off.
 */
export function damageBytes(bytes: Uint8Array, random: SeededRandom): Uint8Array {
  const copy = Uint8Array.from(bytes);
  const at = () => random.nextUint32() % copy.length;
  switch (random.nextUint32() % 4) {
    case 0:
      copy[at()] ^= 1 << (random.nextUint32() % 8);
      return copy;
    case 1:
      for (let k = 0; k < 8; k++) copy[at()] = random.nextUint32() % 256;
      return copy;
    case 2: {
      const start = at();
      copy.fill(random.nextUint32() % 2 === 0 ? 0 : 255, start, start + 16);
      return copy;
    }
    default:
      return copy.slice(0, at());
  }
}

/** What a hostile or careless edit puts into a text file. */
const HOSTILE_TOKENS = [
  'nan',
  'NaN',
  '.nan',
  'inf',
  '-inf',
  '.inf',
  'Infinity',
  '1e999',
  '-1e999',
  '1e308',
  '1e-320',
  '0',
  '-0',
  '-1',
  '5000000',
  '1e9',
  '20.0',
  '0x14',
  '',
  '\t',
  '\0',
  '-',
  '.',
  'e',
  '[',
  ']',
  '{',
  '}',
  ':',
  '- ',
  '"',
  '#',
  '&anchor',
  '*anchor',
  '!!binary',
  '~',
  'null',
  'true',
  '\uFFFD',
];

function pick<T>(values: readonly T[], random: SeededRandom): T {
  return values[random.nextUint32() % values.length];
}

/**
 * `text` with one damage drawn from `random`: a word replaced by a hostile token (`nan`, `1e999`,
 * `0x14`, a YAML indicator, a NUL, …) or one inserted, a line deleted, repeated or swapped with
 * another, or the end cut off.
 */
export function damageText(text: string, random: SeededRandom): string {
  const lines = text.split('\n');
  const line = () => random.nextUint32() % lines.length;
  switch (random.nextUint32() % 6) {
    case 0: {
      const words = [...text.matchAll(/[^\s:,[\]{}]+/g)];
      if (words.length === 0) return text;
      const word = pick(words, random);
      const start = word.index;
      return `${text.slice(0, start)}${pick(HOSTILE_TOKENS, random)}${text.slice(start + word[0].length)}`;
    }
    case 1: {
      const at = random.nextUint32() % (text.length + 1);
      return `${text.slice(0, at)}${pick(HOSTILE_TOKENS, random)}${text.slice(at)}`;
    }
    case 2:
      lines.splice(line(), 1);
      return lines.join('\n');
    case 3: {
      const at = line();
      lines.splice(at, 0, lines[at] ?? '');
      return lines.join('\n');
    }
    case 4: {
      const [a, b] = [line(), line()];
      [lines[a], lines[b]] = [lines[b] ?? '', lines[a] ?? ''];
      return lines.join('\n');
    }
    default:
      return text.slice(0, random.nextUint32() % (text.length + 1));
  }
}

/** The path of the first NaN or infinite number in `value` (numbers, arrays, typed arrays, maps, objects). */
export function nonFiniteNumberPath(
  value: unknown,
  path = '',
  seen = new WeakSet(),
): string | undefined {
  if (typeof value === 'number')
    return Number.isFinite(value) ? undefined : `${path || '.'} = ${value}`;
  if (value === null || typeof value !== 'object' || seen.has(value)) return undefined;
  seen.add(value);
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    const numbers = value as unknown as ArrayLike<number | bigint>;
    for (let i = 0; i < numbers.length; i++) {
      const entry = numbers[i];
      if (typeof entry === 'number' && !Number.isFinite(entry)) return `${path}[${i}] = ${entry}`;
    }
    return undefined;
  }
  const entries: [string, unknown][] =
    value instanceof Map
      ? [...value.entries()].map(([key, entry]) => [`.get(${String(key)})`, entry])
      : Array.isArray(value)
        ? value.map((entry, i) => [`[${i}]`, entry])
        : Object.entries(value).map(([key, entry]) => [`.${key}`, entry]);
  for (const [key, entry] of entries) {
    const found = nonFiniteNumberPath(entry, `${path}${key}`, seen);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** What {@link fuzzParser} tries. */
export interface FuzzRequest<Input> {
  /** The intact input, which `parse` must accept. */
  readonly original: Input;
  /** Makes one damaged copy, e.g. {@link damageText} or {@link damageBytes}. */
  readonly damage: (original: Input, random: SeededRandom) => Input;
  /** Reads an input; returns what it read or throws. */
  readonly parse: (input: Input) => unknown;
  /** The seed of the damage, fixed so that a failure reproduces. */
  readonly seed: number;
  /** How many damaged copies (default {@link FUZZ_MUTATIONS}). */
  readonly mutations?: number;
}

/** How a parser took its damaged inputs. */
export interface FuzzOutcome {
  /** Copies read without error (damage that changed nothing, or a still-valid input). */
  readonly accepted: number;
  /** Copies refused with a partonfit error. */
  readonly refused: number;
}

/**
 * Feeds `parse` damaged copies of `original` and checks that each is either refused with a
 * partonfit typed error or read without any NaN or infinite number in the result. Throws, naming
 * the mutation and showing the input's start, at the first copy that escapes with another
 * exception or gives a non-finite number.
 */
export async function fuzzParser<Input>(request: FuzzRequest<Input>): Promise<FuzzOutcome> {
  await request.parse(request.original);
  const random = new SeededRandom(request.seed);
  let refused = 0;
  const mutations = request.mutations ?? FUZZ_MUTATIONS;
  for (let mutation = 0; mutation < mutations; mutation++) {
    const input = request.damage(request.original, random);
    const describe = () =>
      `mutation ${mutation} (seed ${request.seed}) of input starting ${JSON.stringify(String(input).slice(0, 80))}`;
    let result: unknown;
    try {
      result = await request.parse(input);
    } catch (error) {
      if (!PartonfitError.isInstance(error)) {
        throw new Error(`${describe()}: not a partonfit error: ${String(error)}`, { cause: error });
      }
      refused++;
      continue;
    }
    const nonFinite = nonFiniteNumberPath(result);
    if (nonFinite !== undefined)
      throw new Error(`${describe()}: read a non-finite number at ${nonFinite}`);
  }
  return { accepted: mutations - refused, refused };
}
