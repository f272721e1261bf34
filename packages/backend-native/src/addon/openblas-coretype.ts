/** The OpenBLAS kernel the backend asks for, and why. */
export interface OpenblasCoretypeChoice {
  /** The value for `OPENBLAS_CORETYPE`, or undefined to leave OpenBLAS's own detection. */
  readonly coretype: string | undefined;
  /** Where it came from: the user's environment, the CPU flags, or nowhere. */
  readonly source: 'environment' | 'cpu-flags' | 'none';
}

/** The CPU flags each OpenBLAS kernel family needs, best first. */
const KERNELS: readonly { readonly coretype: string; readonly flags: readonly string[] }[] = [
  {
    coretype: 'Cooperlake',
    flags: ['avx512f', 'avx512bw', 'avx512vl', 'avx512dq', 'avx512_bf16'],
  },
  { coretype: 'SkylakeX', flags: ['avx512f', 'avx512bw', 'avx512vl', 'avx512dq'] },
  { coretype: 'Haswell', flags: ['avx2', 'fma'] },
];

/**
 * Chooses `OPENBLAS_CORETYPE` for this CPU. OpenBLAS 0.3.21 can misdetect newer CPUs under a
 * hypervisor and fall back to its slowest x86-64 kernel ("Prescott", measured ~4× below the
 * AVX-512 kernel on the 2-core VM of `reference/tfjs-measurements.md`); naming the kernel that
 * the CPU flags allow avoids that. A value the user set is kept; CPUs without AVX2 keep
 * OpenBLAS's own choice.
 *
 * @param cpuFlags - the `flags` of `/proc/cpuinfo` (e.g. `avx2`, `avx512f`, `avx512_bf16`)
 * @param environment - the process environment (only `OPENBLAS_CORETYPE` is read)
 */
export function chooseOpenblasCoretype(
  cpuFlags: ReadonlySet<string>,
  environment: Readonly<Record<string, string | undefined>>,
): OpenblasCoretypeChoice {
  const requested = environment.OPENBLAS_CORETYPE;
  if (requested !== undefined && requested !== '') {
    return { coretype: requested, source: 'environment' };
  }
  const kernel = KERNELS.find(({ flags }) => flags.every((flag) => cpuFlags.has(flag)));
  return kernel === undefined
    ? { coretype: undefined, source: 'none' }
    : { coretype: kernel.coretype, source: 'cpu-flags' };
}

/**
 * The flags of the first processor in a `/proc/cpuinfo` text (empty when there is none, e.g.
 * on a CPU that is not x86).
 */
export function parseCpuFlags(cpuinfo: string): ReadonlySet<string> {
  const line = /^flags\s*:(.*)$/m.exec(cpuinfo);
  return new Set((line?.[1] ?? '').split(/\s+/).filter((flag) => flag.length > 0));
}
