/**
 * SIGTERM (a batch scheduler's preemption or time limit) and SIGINT (Ctrl-C) as an abort signal,
 * for a command whose training stops after the step in progress when it is aborted.
 */
export interface StopSignals {
  /** Aborted, with the signal's name as reason, at the first SIGTERM or SIGINT. */
  readonly signal: AbortSignal;
  /**
   * Stops listening, once the work is over — unless a signal came: the process is then on its
   * way out with its own exit code, and a signal that follows (a scheduler signals the batch
   * shell and its processes alike, so a second SIGTERM can follow the first) must not kill it
   * with the default action first. Aborting twice is harmless.
   */
  readonly release: () => void;
}

/** Listens for SIGTERM and SIGINT until {@link StopSignals.release}. */
export function listenForStopSignals(): StopSignals {
  const interruption = new AbortController();
  const interrupt = (signal: NodeJS.Signals) => {
    interruption.abort(signal);
  };
  process.on('SIGTERM', interrupt);
  process.on('SIGINT', interrupt);
  return {
    signal: interruption.signal,
    release: () => {
      if (interruption.signal.aborted) return;
      process.off('SIGTERM', interrupt);
      process.off('SIGINT', interrupt);
    },
  };
}
