/**
 * How a hadronic table's luminosity channels merge: each channel `(j, i)` whose mirror `(i, j)`
 * comes before it is added to that channel with x1 and x2 swapped, which is exact,
 *
 *   Σ_ab f_i(x_a) f_j(x_b) T[a, b] + Σ_ab f_j(x_a) f_i(x_b) T'[a, b]
 *     = Σ_ab f_i(x_a) f_j(x_b) (T[a, b] + T'[b, a]),
 *
 * because both protons read the same x-grid and the same PDF. The step then reads half the
 * table for every mirrored pair: NNPDF's hadronic tables usually hold both orders (the
 * ATLAS tt̄ table of theory 200 has all 81 pairs of its 9 flavours, 45 once merged).
 */
export interface MergedChannels {
  /** The channels that stay, in the table's order. */
  readonly channels: readonly (readonly [number, number])[];
  /** For each channel that stays, its index in the table. */
  readonly sources: readonly number[];
  /** For each channel that stays, the index in the table of its mirror, -1 for none. */
  readonly mirrors: readonly number[];
}

/**
 * Merges mirrored channel pairs (see {@link MergedChannels}). A diagonal channel `(i, i)` and a
 * channel without its mirror stay as they are; a channel listed twice stays twice, and its
 * mirror merges into the later of the two.
 */
export function mergeMirroredChannels(
  channels: readonly (readonly [number, number])[],
): MergedChannels {
  const kept: [number, number][] = [];
  const sources: number[] = [];
  const mirrors: number[] = [];
  const open = new Map<string, number>();
  channels.forEach(([first, second], c) => {
    const waiting = open.get(`${second},${first}`);
    if (first !== second && waiting !== undefined) {
      mirrors[waiting] = c;
      open.delete(`${second},${first}`);
      return;
    }
    open.set(`${first},${second}`, kept.length);
    kept.push([first, second]);
    sources.push(c);
    mirrors.push(-1);
  });
  return { channels: kept, sources, mirrors };
}
