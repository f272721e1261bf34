import { describe, expect, it } from 'vitest';
import { chooseOpenblasCoretype, parseCpuFlags } from './openblas-coretype.js';

const SAPPHIRE_RAPIDS_FLAGS =
  'fpu vme sse sse2 ssse3 fma sse4_1 sse4_2 avx f16c avx2 avx512f avx512dq avx512cd avx512bw ' +
  'avx512vl avx512_bf16 amx_tile';

describe('chooseOpenblasCoretype', () => {
  it('should choose Cooperlake for an AVX-512 CPU with bfloat16 (this VM: OpenBLAS saw Prescott)', () => {
    const flags = parseCpuFlags(`processor\t: 0\nflags\t\t: ${SAPPHIRE_RAPIDS_FLAGS}\n`);
    expect(chooseOpenblasCoretype(flags, {})).toEqual({
      coretype: 'Cooperlake',
      source: 'cpu-flags',
    });
  });

  it('should choose SkylakeX for AVX-512 without bfloat16', () => {
    const flags = new Set(['avx2', 'fma', 'avx512f', 'avx512dq', 'avx512bw', 'avx512vl']);
    expect(chooseOpenblasCoretype(flags, {}).coretype).toBe('SkylakeX');
  });

  it('should choose Haswell for AVX2 with FMA, and not SkylakeX for AVX-512 foundation alone', () => {
    expect(chooseOpenblasCoretype(new Set(['avx2', 'fma']), {}).coretype).toBe('Haswell');
    expect(chooseOpenblasCoretype(new Set(['avx2', 'fma', 'avx512f']), {}).coretype).toBe(
      'Haswell',
    );
  });

  it("should leave OpenBLAS's own detection on CPUs without AVX2 and on other architectures", () => {
    expect(chooseOpenblasCoretype(new Set(['sse4_2', 'avx']), {})).toEqual({
      coretype: undefined,
      source: 'none',
    });
    expect(
      chooseOpenblasCoretype(parseCpuFlags('processor : 0\nFeatures : fp asimd\n'), {}),
    ).toEqual({
      coretype: undefined,
      source: 'none',
    });
  });

  it('should keep a value the user set, whatever the CPU', () => {
    const flags = new Set(SAPPHIRE_RAPIDS_FLAGS.split(' '));
    expect(chooseOpenblasCoretype(flags, { OPENBLAS_CORETYPE: 'Haswell' })).toEqual({
      coretype: 'Haswell',
      source: 'environment',
    });
  });
});
