import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { NativeAddon, NativeAddonInfo } from './native-addon.js';
import { chooseOpenblasCoretype, parseCpuFlags } from './openblas-coretype.js';
import type { OpenblasCoretypeChoice } from './openblas-coretype.js';

/** The native backend can run: the addon is loaded. */
export interface NativeBackendAvailable extends NativeAddonInfo {
  readonly available: true;
  /** The `OPENBLAS_CORETYPE` in effect when OpenBLAS loaded, and where it came from. */
  readonly openblasCoretype: OpenblasCoretypeChoice;
  /** One line for reports, e.g. `C++ addon over OpenBLAS (Cooperlake kernel, …), 2 threads`. */
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

function describe(info: NativeAddonInfo, coretype: OpenblasCoretypeChoice): string {
  const threads = `${info.threads} thread${info.threads === 1 ? '' : 's'}`;
  if (info.blas !== 'OpenBLAS') return `C++ addon over the system CBLAS, ${threads}`;
  const origin =
    coretype.source === 'cpu-flags'
      ? ', chosen from the CPU flags'
      : coretype.source === 'environment'
        ? ', from OPENBLAS_CORETYPE'
        : '';
  return `C++ addon over OpenBLAS (${info.blasCore} kernel${origin}), ${threads}`;
}

/**
 * Loads the compiled addon. `OPENBLAS_CORETYPE` is chosen from the CPU flags (unless the user
 * set it) and put in the environment first, because OpenBLAS reads it once, when the addon's
 * `libopenblas` is loaded. Never throws: a missing or broken build gives an unavailable status
 * with the reason.
 *
 * @param buildDir - the node-gyp build folder holding `status.json` (written by the install
 *   script) and `Release/partonfit_native.node`; default the package's `build/`
 */
export function loadNativeAddon(buildDir: string = BUILD_DIR): LoadedAddon {
  const failure = buildFailure(join(buildDir, 'status.json'));
  if (failure !== undefined) return unavailable(failure);
  const addonPath = join(buildDir, 'Release', 'partonfit_native.node');
  if (!existsSync(addonPath)) {
    return unavailable(`not built: the install script did not run (${REBUILD})`);
  }
  const openblasCoretype = chooseOpenblasCoretype(readCpuFlags(), process.env);
  if (openblasCoretype.source === 'cpu-flags' && openblasCoretype.coretype !== undefined) {
    process.env.OPENBLAS_CORETYPE = openblasCoretype.coretype;
  }
  try {
    const addon = createRequire(import.meta.url)(addonPath) as NativeAddon;
    const info = addon.info();
    const description = describe(info, openblasCoretype);
    return { addon, status: { available: true, ...info, openblasCoretype, description } };
  } catch (error) {
    const message = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
    return unavailable(`built but cannot load: ${message} (${REBUILD})`);
  }
}
