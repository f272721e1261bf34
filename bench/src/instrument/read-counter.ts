import * as tf from '@tensorflow/tfjs-core';

/** Counts host read-backs (every `data()`, `dataSync()`, `array()`… of any tensor). */
export interface ReadCounter {
  /** Read-backs since the counter was installed. */
  readonly count: number;
  /** Removes the counter: the engine reads as before. */
  uninstall(): void;
}

type EngineRead = ReturnType<typeof tf.engine>['read'];
type EngineReadSync = ReturnType<typeof tf.engine>['readSync'];

/**
 * Installs a counter of host read-backs on the tfjs engine: every tensor read (`data`,
 * `dataSync`, `array`, `arraySync`, `bytes`, and the reads inside ops such as `whereAsync`)
 * goes through the engine's `read` or `readSync`, which the counter wraps. Reads a backend does
 * internally, inside its kernels, are not host syncs and are not counted. One counter at a time.
 */
export function installReadCounter(): ReadCounter {
  const engine = tf.engine();
  const read: EngineRead = engine.read.bind(engine);
  const readSync: EngineReadSync = engine.readSync.bind(engine);
  let count = 0;
  engine.read = (dataId) => {
    count += 1;
    return read(dataId);
  };
  engine.readSync = (dataId) => {
    count += 1;
    return readSync(dataId);
  };
  return {
    get count() {
      return count;
    },
    uninstall() {
      engine.read = read;
      engine.readSync = readSync;
    },
  };
}
