import { BACKEND_REQUESTS, initBackend } from '@partonfit/backend';

/** A backend that could not be loaded, and why. */
export interface UnavailableBackend {
  readonly backend: string;
  readonly reason: string;
}

/** The backends that load, in order of preference, and those that do not. */
export interface BackendAvailability {
  readonly available: readonly string[];
  readonly unavailable: readonly UnavailableBackend[];
}

/**
 * Which backends `initBackend` can load here, tried in its order of preference (every name it
 * accepts except `auto`, or only `requested`), e.g. `wasm`, `cpu`, and the tensorflow or native
 * backends when their packages are installed. Leaves the last one loaded active.
 */
export async function availableBackends(
  requested?: readonly string[],
): Promise<BackendAvailability> {
  const names = BACKEND_REQUESTS.filter(
    (name) => name !== 'auto' && (requested === undefined || requested.includes(name)),
  );
  const unknown = (requested ?? []).filter(
    (name) => !(BACKEND_REQUESTS as readonly string[]).includes(name) || name === 'auto',
  );
  const available: string[] = [];
  const unavailable: UnavailableBackend[] = unknown.map((backend) => ({
    backend,
    reason: `not a backend initBackend knows (${BACKEND_REQUESTS.filter((name) => name !== 'auto').join(', ')})`,
  }));
  for (const name of names) {
    try {
      await initBackend(name);
      available.push(name);
    } catch (error) {
      unavailable.push({ backend: name, reason: String(error).split('\n')[0] });
    }
  }
  return { available, unavailable };
}
