// Compiler and linker flags of the CBLAS the addon is built against, and of the vector paths it
// compiles, for binding.gyp and the install script. Chosen at build time:
//   PARTONFIT_CBLAS=none                           no CBLAS: the addon's own GEMM and GEMV
//                                                  kernels (native/own_blas.cc), or
//   PARTONFIT_CBLAS_CFLAGS / PARTONFIT_CBLAS_LIBS  explicit flags (any CBLAS), or
//   PARTONFIT_CBLAS=<pkg-config name>              a pkg-config package (default: openblas),
//   PARTONFIT_CBLAS_HEADER=<header>                the header declaring cblas_sgemm (default
//                                                  cblas.h), e.g. mkl_cblas.h;
//   PARTONFIT_NATIVE_ISA=avx512|avx2|baseline      the widest vector path compiled (default
//                                                  avx512: AVX-512, AVX2 and the baseline).
// Without pkg-config the default is the system OpenBLAS: -lopenblas.
import { execFileSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/** `PARTONFIT_CBLAS` value that builds the addon with its own kernels instead of a CBLAS. */
export const NO_CBLAS = 'none';

/** The compile definition of each `PARTONFIT_NATIVE_ISA` (see native/simd.h). */
export const NATIVE_ISAS = {
  avx512: '',
  avx2: '-DPARTONFIT_ISA_AVX2',
  baseline: '-DPARTONFIT_ISA_BASELINE',
};

function pkgConfig(name, what) {
  try {
    return execFileSync('pkg-config', [what, name], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return undefined;
  }
}

/**
 * The flags as `{ cflags, libs, source, own }`, `source` saying where they came from, `own` true
 * when the addon uses its own kernels (PARTONFIT_CBLAS=none).
 */
export function cblasFlags(env = process.env) {
  if (env.PARTONFIT_CBLAS === NO_CBLAS) {
    return { cflags: '-DPARTONFIT_NO_CBLAS', libs: '', source: 'PARTONFIT_CBLAS=none', own: true };
  }
  const header = env.PARTONFIT_CBLAS_HEADER
    ? ` -DPARTONFIT_CBLAS_HEADER=${env.PARTONFIT_CBLAS_HEADER}`
    : '';
  if (env.PARTONFIT_CBLAS_CFLAGS !== undefined || env.PARTONFIT_CBLAS_LIBS !== undefined) {
    return {
      cflags: `${env.PARTONFIT_CBLAS_CFLAGS ?? ''}${header}`.trim(),
      libs: (env.PARTONFIT_CBLAS_LIBS ?? '').trim(),
      source: 'PARTONFIT_CBLAS_CFLAGS/PARTONFIT_CBLAS_LIBS',
      own: false,
    };
  }
  const name = env.PARTONFIT_CBLAS || 'openblas';
  const libs = pkgConfig(name, '--libs');
  if (libs !== undefined) {
    return {
      cflags: `${pkgConfig(name, '--cflags') ?? ''}${header}`.trim(),
      libs,
      source: `pkg-config ${name}`,
      own: false,
    };
  }
  return { cflags: header.trim(), libs: '-lopenblas', source: 'default -lopenblas', own: false };
}

/**
 * The vector path limit `PARTONFIT_NATIVE_ISA` asks for (default `avx512`), or undefined when it
 * names none of {@link NATIVE_ISAS}.
 */
export function nativeIsa(env = process.env) {
  const isa = env.PARTONFIT_NATIVE_ISA || 'avx512';
  return Object.hasOwn(NATIVE_ISAS, isa) ? isa : undefined;
}

/** The script run directly (also through a symbolic link, as a staged build does). */
function isMain() {
  try {
    return import.meta.url === pathToFileURL(realpathSync(process.argv[1] ?? '')).href;
  } catch {
    return false;
  }
}

if (isMain()) {
  const flags = cblasFlags();
  const isa = NATIVE_ISAS[nativeIsa() ?? 'avx512'];
  const words = process.argv[2] === '--libs' ? flags.libs : `${flags.cflags} ${isa}`.trim();
  process.stdout.write(`${words}\n`);
}
