import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OWN_KERNELS_BLAS } from './native-addon.js';
import type { NativeAddon, NativeAddonInfo } from './native-addon.js';
import { chooseOpenblasCoretype, parseCpuFlags } from './openblas-coretype.js';
import type { OpenblasCoretypeChoice } from './openblas-coretype.js';

/** The native backend can run: the addon is loaded. */
export interface NativeBackendAvailable extends NativeAddonInfo {
  readonly available: true;
  /** The `OPENBLAS_CORETYPE` in effect when OpenBLAS loaded, and where it came from. */
  readonly openblasCoretype: OpenblasCoretypeChoice;
  /** The compiled addon that was loaded. */
  readonly addonPath: string;
  /**
   * One line for reports: the BLAS (if any), the vector path and the threads, e.g. `C++ addon
   * over OpenBLAS (Cooperlake kernel, …), AVX-512 kernels, 2 threads`, or `C++ addon without a
   * BLAS (own GEMM), AVX2 kernels, 2 threads`.
   */
  readonly description: string;
}

/** The native backend cannot run, with a one-line reason that says what to do. */
export interface NativeBackendUnavailable {
  readonly available: false;
  /** E.g. `not built: no CBLAS found (apt-get install libopenblas-dev, …)`. */
  readonly reason: string;
}

/** Whether the native backend can run here, and what it runs on. */
export type NativeBackendStatus = NativeBackendAvailable | NativeBackendUnavailable;

/** The addon together with its status, or only the status when it cannot load. */
export type LoadedAddon =
  | { readonly addon: NativeAddon; readonly status: NativeBackendAvailable }
  | { readonly addon: undefined; readonly status: NativeBackendUnavailable };

/**
 * The environment variable naming a compiled addon to load instead of the package's own build,
 * e.g. a variant built by `scripts/build-addon.js --out <folder>`.
 */
export const NATIVE_ADDON_VARIABLE = 'PARTONFIT_NATIVE_ADDON';

/** Where the install script builds the addon: `build/` in the package. */
const BUILD_DIR = fileURLToPath(new URL('../../build/', import.meta.url));
const REBUILD = 'npm rebuild @partonfit/backend-native';

function unavailable(reason: string): LoadedAddon {
  return { addon: undefined, status: { available: false, reason } };
}

/** The reason the install script recorded for not building the addon, if it did not. */
function buildFailure(statusPath: string): string | undefined {
  if (!existsSync(statusPath)) return undefined;
  try {
    const status = JSON.parse(readFileSync(statusPath, 'utf8')) as {
      built?: unknown;
      reason?: unknown;
    };
    if (status.built !== false) return undefined;
    return typeof status.reason === 'string' ? status.reason : 'not built';
  } catch {
    return undefined;
  }
}

function readCpuFlags(): ReadonlySet<string> {
  try {
    return parseCpuFlags(readFileSync('/proc/cpuinfo', 'utf8'));
  } catch {
    return new Set();
  }
}

function describe(
  info: NativeAddonInfo,
  coretype: OpenblasCoretypeChoice,
  addonPath: string | undefined,
): string {
  const rest = `${info.vectorPath} kernels, ${info.threads} thread${info.threads === 1 ? '' : 's'}${
    addonPath === undefined ? '' : `, ${NATIVE_ADDON_VARIABLE}=${addonPath}`
  }`;
  if (info.blas === OWN_KERNELS_BLAS) return `C++ addon without a BLAS (own GEMM), ${rest}`;
  if (info.blas !== 'OpenBLAS') return `C++ addon over the system CBLAS, ${rest}`;
  const origin =
    coretype.source === 'cpu-flags'
      ? ', chosen from the CPU flags'
      : coretype.source === 'environment'
        ? ', from OPENBLAS_CORETYPE'
        : '';
  return `C++ addon over OpenBLAS (${info.blasCore} kernel${origin}), ${rest}`;
}

/**
 * Loads the compiled addon: the file {@link NATIVE_ADDON_VARIABLE} names when it is set, else the
 * package's build. `OPENBLAS_CORETYPE` is chosen from the CPU flags (unless the user set it) and
 * put in the environment first, because OpenBLAS reads it once, when the addon's `libopenblas` is
 * loaded. Never throws: a missing or broken build gives an unavailable status with the reason.
 *
 * @param buildDir - the node-gyp build folder holding `status.json` (written by the install
 *   script) and `Release/partonfit_native.node`; default the package's `build/`
 * @param env - the environment that may hold {@link NATIVE_ADDON_VARIABLE}
 */
export function loadNativeAddon(
  buildDir: string = BUILD_DIR,
  env: NodeJS.ProcessEnv = process.env,
): LoadedAddon {
  const chosen = env[NATIVE_ADDON_VARIABLE];
  if (chosen !== undefined && chosen !== '') {
    const addonPath = resolve(chosen);
    if (!existsSync(addonPath)) {
      return unavailable(`${NATIVE_ADDON_VARIABLE}=${chosen}: no such file`);
    }
    return loadFrom(addonPath, addonPath, `${NATIVE_ADDON_VARIABLE}=${chosen}`);
  }
  const failure = buildFailure(join(buildDir, 'status.json'));
  if (failure !== undefined) return unavailable(failure);
  const addonPath = join(buildDir, 'Release', 'partonfit_native.node');
  if (!existsSync(addonPath)) {
    return unavailable(`not built: the install script did not run (${REBUILD})`);
  }
  return loadFrom(addonPath, undefined, REBUILD);
}

/**
 * Requires the addon at `addonPath`; `chosenPath` is set when the user named it, and `remedy`
 * ends the reason when it cannot load.
 */
function loadFrom(addonPath: string, chosenPath: string | undefined, remedy: string): LoadedAddon {
  const openblasCoretype = chooseOpenblasCoretype(readCpuFlags(), process.env);
  if (openblasCoretype.source === 'cpu-flags' && openblasCoretype.coretype !== undefined) {
    process.env.OPENBLAS_CORETYPE = openblasCoretype.coretype;
  }
  try {
    const addon = createRequire(import.meta.url)(addonPath) as NativeAddon;
    const info = addon.info();
    const description = describe(info, openblasCoretype, chosenPath);
    return {
      addon,
      status: { available: true, ...info, openblasCoretype, addonPath, description },
    };
  } catch (error) {
    const message = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
    return unavailable(`built but cannot load: ${message} (${remedy})`);
  }
}
