import { describe, expect, it } from 'vitest';
import { mergeMirroredChannels } from './mirrored-channels.js';

describe('mergeMirroredChannels', () => {
  it('should merge each channel into its mirror listed before it, keeping the order', () => {
    const merged = mergeMirroredChannels([
      [1, 2],
      [2, 2],
      [3, 1],
      [2, 1],
      [1, 3],
      [4, 5],
    ]);
    expect(merged.channels).toEqual([
      [1, 2],
      [2, 2],
      [3, 1],
      [4, 5],
    ]);
    expect(merged.sources).toEqual([0, 1, 2, 5]);
    expect(merged.mirrors).toEqual([3, -1, 4, -1]);
  });

  it('should merge a pair once when a channel or its mirror is listed twice', () => {
    const merged = mergeMirroredChannels([
      [1, 2],
      [2, 1],
      [2, 1],
    ]);
    expect(merged.channels).toEqual([
      [1, 2],
      [2, 1],
    ]);
    expect(merged.mirrors).toEqual([1, -1]);
    // a channel listed twice: its mirror merges into the later of the two
    expect(
      mergeMirroredChannels([
        [1, 2],
        [1, 2],
        [2, 1],
      ]).mirrors,
    ).toEqual([-1, 2]);
  });

  it('should merge all 81 pairs of 9 flavours into 45 channels', () => {
    const flavours = [1, 2, 3, 4, 5, 6, 9, 10, 11];
    const all = flavours.flatMap((i) => flavours.map((j) => [i, j] as const));
    const merged = mergeMirroredChannels(all);
    expect(merged.channels).toHaveLength(45);
    expect(merged.channels.every(([i, j]) => flavours.indexOf(i) <= flavours.indexOf(j))).toBe(
      true,
    );
  });
});
