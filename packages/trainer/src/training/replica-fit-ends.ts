/**
 * The epoch at which each replica's own fit would end, as a fit of that replica alone runs its
 * loop: at its last epoch, or at the first read-back (every `logEvery` epochs) after it stopped
 * — early stopping or divergence. A replica keeps training between its stop and that read-back,
 * as alone; its results are its best weights either way.
 *
 * @param stopEpoch - each replica's stop epoch (0-based), −1 while it trains, `(replicas)`
 * @param epochs - each replica's `epochs`, `(replicas)`
 * @param logEvery - epochs between two read-backs
 * @returns `(replicas)`, each at most the replica's epochs
 */
export function replicaFitEnds(
  stopEpoch: ArrayLike<number>,
  epochs: readonly number[],
  logEvery: number,
): Int32Array {
  return Int32Array.from(epochs, (last, r) => {
    const stop = stopEpoch[r] ?? -1;
    if (stop < 0) return last;
    return Math.min(last, Math.ceil((stop + 1) / logEvery) * logEvery);
  });
}

/** How a replica's own fit read back: its last epoch, when its fit ended, the read-back step. */
export interface ReplicaReadBacks {
  /** The replica's `epochs` (its fit reads back at its last epoch too). */
  readonly epochs: number;
  /** The epoch its own fit ended at ({@link replicaFitEnds}). */
  readonly end: number;
  /** Epochs between two read-backs. */
  readonly logEvery: number;
}

/**
 * The read-backs a replica's own fit would have made, from those of a fit of many replicas: the
 * entries at multiples of `logEvery` and at its last epoch, up to the end of its own fit (the
 * model reads back at every replica's last epoch, and runs until the last replica ends).
 *
 * @param history - every read-back of the fit, in epoch order
 */
export function replicaReadBacks<Entry extends { readonly epoch: number }>(
  history: readonly Entry[],
  own: ReplicaReadBacks,
): Entry[] {
  return history.filter(
    ({ epoch }) => epoch <= own.end && (epoch % own.logEvery === 0 || epoch === own.epochs),
  );
}
