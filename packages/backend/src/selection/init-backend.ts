import * as tf from '@tensorflow/tfjs-core';
import { BackendUnavailableError, oneOf } from '@partonfit/core';
import {
  BACKEND_CANDIDATES,
  BACKEND_REQUESTS,
  type BackendCandidate,
  type BackendName,
  type BackendRequest,
} from './backend-candidates.js';

/** A backend package that was tried and not used, with the reason. */
export interface SkippedBackend {
  readonly backend: BackendName;
  readonly packageName: string;
  readonly reason: string;
}

/** The backend chosen by {@link initBackend}, and why better ones were passed over. */
export interface BackendSelection {
  /** The backend now active in TensorFlow.js (`tf.getBackend()`). */
  readonly backend: BackendName;
  /** The package that provides it. */
  readonly packageName: string;
  /**
   * What it runs on, e.g. `WebAssembly (XNNPACK, SIMD), one thread in Node`, or the details the
   * package reports about itself (the native backend: BLAS, kernel, threads).
   */
  readonly runsOn: string;
  /** Preferred packages that were tried first and skipped, in order of preference. */
  readonly skipped: readonly SkippedBackend[];
}

/** Options of {@link initBackend}. */
export interface InitBackendOptions {
  /**
   * Imports a package by name; defaults to the platform's dynamic `import()`. Tests and
   * embedders can pass their own to control which packages appear installed.
   */
  readonly importModule?: (specifier: string) => Promise<unknown>;
}

const importPackage = (specifier: string): Promise<unknown> => import(specifier);

/**
 * Selects and initialises the TensorFlow.js backend.
 *
 * `auto` tries, in order, `@tensorflow/tfjs-node-gpu`, `@tensorflow/tfjs-node` (the
 * `tensorflow` backend; optional peer dependencies, loaded only if installed), then
 * `@partonfit/backend-native` (the `native` backend, used only if its addon was built at
 * install), then `wasm`, then `cpu`, and returns the first that initialises together with the
 * reasons the better ones were skipped. Naming a backend makes that one the only choice: if it cannot be used, a
 * {@link BackendUnavailableError} says how to install it (and, for the GPU package, what it
 * needs).
 *
 * Gradients are registered whatever the backend: `@tensorflow/tfjs-layers` is loaded first,
 * which registers them in tfjs-core.
 *
 * @example
 * ```ts
 * import { describeBackendSelection, initBackend } from '@partonfit/backend';
 *
 * const selection = await initBackend('auto');
 * console.log(describeBackendSelection(selection)); // backend: native (…), and why others were skipped
 * ```
 */
export async function initBackend(
  request: BackendRequest = 'auto',
  options: InitBackendOptions = {},
): Promise<BackendSelection> {
  oneOf(request, BACKEND_REQUESTS, 'backend');
  const importModule = options.importModule ?? importPackage;
  await registerGradients(importModule);

  const candidates = BACKEND_CANDIDATES.filter(
    (candidate) => request === 'auto' || candidate.backend === request,
  );
  const skipped: SkippedBackend[] = [];
  for (const candidate of candidates) {
    const outcome = await tryCandidate(candidate, importModule);
    if (outcome.reason === undefined) {
      return {
        backend: candidate.backend,
        packageName: candidate.packageName,
        runsOn: outcome.description ?? candidate.runsOn,
        skipped,
      };
    }
    skipped.push({
      backend: candidate.backend,
      packageName: candidate.packageName,
      reason: outcome.reason,
    });
  }
  throw unavailable(request, candidates, skipped);
}

/**
 * Whether a backend runs here, e.g. to skip tests or benchmarks on one that does not: makes it
 * the active backend and resolves to undefined, or resolves to why it cannot — its packages'
 * reasons, as `partonfit backend` prints them.
 *
 * @throws BackendUnavailableError when tfjs-layers itself is missing; InvalidArgumentError for
 *   an unknown name
 */
export async function backendUnavailableReason(
  backend: BackendName,
  options: InitBackendOptions = {},
): Promise<string | undefined> {
  try {
    await initBackend(backend, options);
    return undefined;
  } catch (error) {
    if (!BackendUnavailableError.isInstance(error) || error.skipped.length === 0) throw error;
    return error.skipped.map((skip) => `${skip.packageName}: ${skip.reason}`).join('; ');
  }
}

/**
 * A few lines for a person: which backend runs and why the preferred ones were skipped.
 */
export function describeBackendSelection(selection: BackendSelection): string {
  const lines = [
    `backend: ${selection.backend} (${selection.packageName}; ${selection.runsOn})`,
    ...selection.skipped.map(
      (skip) => `  skipped ${skip.backend} (${skip.packageName}): ${skip.reason}`,
    ),
  ];
  return lines.join('\n');
}

async function registerGradients(importModule: (specifier: string) => Promise<unknown>) {
  try {
    await importModule('@tensorflow/tfjs-layers');
  } catch (cause) {
    throw new BackendUnavailableError({
      message:
        'Cannot load @tensorflow/tfjs-layers, which registers the gradients of every ' +
        `operation; install it beside @tensorflow/tfjs-core: npm install @tensorflow/tfjs-layers@${tf.version_core}`,
      backend: 'any',
      installCommand: `npm install @tensorflow/tfjs-layers@${tf.version_core}`,
      cause,
    });
  }
}

/**
 * What a backend package may export to say whether it can run (the native backend does: it
 * installs even when its addon could not be compiled).
 */
interface BackendStatusReport {
  readonly available: boolean;
  /** Why not, in one line, when not available. */
  readonly reason?: string;
  /** What it runs on, when available. */
  readonly description?: string;
}

/** The package's own report, if it exports `backendStatus()`. */
function statusReport(module: unknown): BackendStatusReport | undefined {
  const backendStatus = (module as { backendStatus?: unknown } | null)?.backendStatus;
  return typeof backendStatus === 'function'
    ? (backendStatus as () => BackendStatusReport)()
    : undefined;
}

/** Imports and activates one candidate: why it cannot be used, or what it runs on. */
async function tryCandidate(
  candidate: BackendCandidate,
  importModule: (specifier: string) => Promise<unknown>,
): Promise<{ reason?: string; description?: string }> {
  let report: BackendStatusReport | undefined;
  try {
    report = statusReport(await importModule(candidate.packageName));
  } catch (error) {
    return {
      reason: isMissingPackage(error, candidate.packageName)
        ? `not installed (${candidate.installCommand})`
        : `installed but failed to load: ${messageOf(error)}`,
    };
  }
  if (report?.available === false) return { reason: report.reason ?? 'reports it cannot run' };
  try {
    if (await tf.setBackend(candidate.backend)) {
      await tf.ready();
      return report?.description === undefined ? {} : { description: report.description };
    }
    return { reason: `loaded but the '${candidate.backend}' backend failed to initialise` };
  } catch (error) {
    return {
      reason: `loaded but the '${candidate.backend}' backend failed to initialise: ${messageOf(error)}`,
    };
  }
}

function isMissingPackage(error: unknown, packageName: string): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  const message = messageOf(error);
  const notFound =
    code === 'ERR_MODULE_NOT_FOUND' ||
    code === 'MODULE_NOT_FOUND' ||
    /cannot find (package|module)|failed to (load|resolve)/i.test(message);
  return notFound && message.includes(packageName);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
}

function unavailable(
  request: BackendRequest,
  candidates: readonly BackendCandidate[],
  skipped: readonly SkippedBackend[],
): BackendUnavailableError {
  const lines = [`The '${request}' backend cannot be used here:`];
  for (const [i, candidate] of candidates.entries()) {
    lines.push(`  ${candidate.packageName}: ${skipped[i]?.reason ?? 'not tried'}`);
    if (candidate.requirements !== undefined)
      lines.push(`    requirements: ${candidate.requirements}`);
  }
  const install = candidates.map((candidate) => candidate.installCommand).join(' or ');
  lines.push(
    request === 'tensorflow'
      ? "Install one of the packages above, or run on 'wasm' (the default when they are absent) or 'cpu'."
      : request === 'native'
        ? `Install it with: ${install} (it compiles at install, with what the requirements name), or run on 'wasm' or 'cpu'.`
        : `Install it with: ${install}`,
  );
  return new BackendUnavailableError({
    message: lines.join('\n'),
    backend: request,
    installCommand: install,
    skipped,
  });
}
