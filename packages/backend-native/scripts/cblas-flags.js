// Compiler and linker flags of the CBLAS the addon is built against, for binding.gyp and the
// install script. Chosen at build time:
//   PARTONFIT_CBLAS_CFLAGS / PARTONFIT_CBLAS_LIBS  explicit flags (any CBLAS), or
//   PARTONFIT_CBLAS=<pkg-config name>              a pkg-config package (default: openblas),
//   PARTONFIT_CBLAS_HEADER=<header>                the header declaring cblas_sgemm (default
//                                                  cblas.h), e.g. mkl_cblas.h.
// Without pkg-config the default is the system OpenBLAS: -lopenblas.
import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';

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

/** The flags as `{ cflags, libs, source }`, `source` saying where they came from. */
export function cblasFlags(env = process.env) {
  const header = env.PARTONFIT_CBLAS_HEADER
    ? ` -DPARTONFIT_CBLAS_HEADER=${env.PARTONFIT_CBLAS_HEADER}`
    : '';
  if (env.PARTONFIT_CBLAS_CFLAGS !== undefined || env.PARTONFIT_CBLAS_LIBS !== undefined) {
    return {
      cflags: `${env.PARTONFIT_CBLAS_CFLAGS ?? ''}${header}`.trim(),
      libs: (env.PARTONFIT_CBLAS_LIBS ?? '').trim(),
      source: 'PARTONFIT_CBLAS_CFLAGS/PARTONFIT_CBLAS_LIBS',
    };
  }
  const name = env.PARTONFIT_CBLAS || 'openblas';
  const libs = pkgConfig(name, '--libs');
  if (libs !== undefined) {
    return {
      cflags: `${pkgConfig(name, '--cflags') ?? ''}${header}`.trim(),
      libs,
      source: `pkg-config ${name}`,
    };
  }
  return { cflags: header.trim(), libs: '-lopenblas', source: 'default -lopenblas' };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const flags = cblasFlags();
  process.stdout.write(`${process.argv[2] === '--libs' ? flags.libs : flags.cflags}\n`);
}
