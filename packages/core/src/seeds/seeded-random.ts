import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import { GOLDEN_GAMMA, mix32 } from './mix.js';

const TWO_POW_26 = 67108864;
const TWO_POW_53 = 9007199254740992;

/**
 * A deterministic pseudo-random generator (xoshiro128**, period 2¹²⁸ − 1) with uniform and
 * normal draws. The same seed gives the same sequence on every platform: it uses only 32-bit
 * integer arithmetic and IEEE double operations.
 *
 * The 128-bit state is filled from the 32-bit seed by a SplitMix32-style sequence
 * (state_k = mix32(seed + (k+1)·0x9E3779B9)).
 *
 * @example
 * ```ts
 * import { deriveReplicaSeed, SeededRandom } from '@partonfit/core';
 *
 * const mcseed = 1;
 * const random = new SeededRandom(deriveReplicaSeed(mcseed, 'mcseed', 7));
 * const z = random.normal(); // the same number for replica 7 in every run
 * ```
 */
export class SeededRandom {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;

  /** @param seed - an integer in [0, 2³²) */
  constructor(seed: number) {
    if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
      throw new InvalidArgumentError({
        argument: 'seed',
        problem: `expected an integer between 0 and 4294967295, got ${seed}`,
      });
    }
    const stateWord = (k: number) => mix32(seed + Math.imul(k + 1, GOLDEN_GAMMA));
    this.s0 = stateWord(0);
    this.s1 = stateWord(1);
    this.s2 = stateWord(2);
    this.s3 = stateWord(3);
  }

  /**
   * A generator continuing from a saved {@link SeededRandom.state} (for checkpoints), or from any
   * four 32-bit words that are not all zero.
   */
  static fromState(state: readonly [number, number, number, number]): SeededRandom {
    if (state.every((word) => word >>> 0 === 0)) {
      throw new InvalidArgumentError({ argument: 'state', problem: 'must not be all zeros' });
    }
    const random = new SeededRandom(0);
    [random.s0, random.s1, random.s2, random.s3] = state.map((word) => word >>> 0) as [
      number,
      number,
      number,
      number,
    ];
    return random;
  }

  /** The generator's 128-bit state as four unsigned 32-bit words, to save in a checkpoint. */
  state(): [number, number, number, number] {
    return [this.s0 >>> 0, this.s1 >>> 0, this.s2 >>> 0, this.s3 >>> 0];
  }

  /** The next unsigned 32-bit integer. */
  nextUint32(): number {
    const result = Math.imul(rotateLeft(Math.imul(this.s1, 5), 7), 9) >>> 0;
    const shifted = this.s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= this.s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= shifted;
    this.s3 = rotateLeft(this.s3, 11);
    return result;
  }

  /** A uniform draw in [0, 1) with 53 random bits. */
  uniform(): number {
    const high = this.nextUint32() >>> 5;
    const low = this.nextUint32() >>> 6;
    return (high * TWO_POW_26 + low) / TWO_POW_53;
  }

  /** A uniform draw in [low, high). */
  uniformBetween(low: number, high: number): number {
    return low + (high - low) * this.uniform();
  }

  /**
   * A standard normal draw (mean 0, variance 1) by the Box–Muller transform, using two uniform
   * draws and keeping the cosine branch only, so that {@link SeededRandom.state} is the whole
   * state of the generator.
   */
  normal(): number {
    const radius = Math.sqrt(-2 * Math.log(1 - this.uniform()));
    const angle = 2 * Math.PI * this.uniform();
    return radius * Math.cos(angle);
  }

  /** `count` standard normal draws. */
  normals(count: number): Float64Array {
    const draws = new Float64Array(count);
    for (let i = 0; i < count; i++) draws[i] = this.normal();
    return draws;
  }
}

function rotateLeft(value: number, bits: number): number {
  return ((value << bits) | (value >>> (32 - bits))) >>> 0;
}
