import { inputFileError } from '@partonfit/testing';
import { ByteWriter } from '@partonfit/testing/pineappl-bytes';
import { describe, expect, it } from 'vitest';
import { BincodeReader } from './bincode-reader.js';
import { readScales, scaleOf } from './scale-func-form.js';

const KINEMATICS = [
  { kind: 'Scale', index: 0 },
  { kind: 'Scale', index: 1 },
  { kind: 'X', index: 0 },
] as const;

describe('readScales and scaleOf', () => {
  it('should read the three forms and compute each from the scale nodes', () => {
    // ren QuadraticMean(0, 1) (variant 3), fac Scale(1) (variant 1), frg ExpProd2(0, 1) (variant 14)
    const bytes = new ByteWriter().u32(3).u64(0).u64(1).u32(1).u64(1).u32(14).u64(0).u64(1);
    const scales = readScales(new BincodeReader(bytes.bytes(), 'scales.bin'), KINEMATICS);
    const nodes = new Map([
      [0, 100],
      [1, 4],
    ]);
    expect(scaleOf(scales.ren, nodes)).toBe(52);
    expect(scaleOf(scales.fac, nodes)).toBe(4);
    // (√100 · e^(0.3 · √4))² = 100 · e^1.2
    expect(scaleOf(scales.frg, nodes)).toBeCloseTo(100 * Math.exp(1.2), 10);
    expect(scaleOf({ kind: 'NoScale' }, nodes)).toBeUndefined();
  });

  it('should name a scale the kinematics lack and an unknown form', () => {
    const missing = new ByteWriter().u32(1).u64(2).u32(0).u32(0).bytes();
    const error = inputFileError(() =>
      readScales(new BincodeReader(missing, 'scales.bin'), KINEMATICS),
    );
    expect(error.message).toBe(
      'scales.bin: scales.ren: refers to Scale(2), which the kinematics do not have (byte 12)',
    );
    const unknown = new ByteWriter().u32(15).bytes();
    expect(
      inputFileError(() => readScales(new BincodeReader(unknown, 'scales.bin'), KINEMATICS))
        .message,
    ).toBe('scales.bin: scales.ren: unknown variant 15 (expected 0 to 14) (byte 0)');
  });
});
