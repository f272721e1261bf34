/** One formulation of the training step, set up and ready to run repeatedly. */
export interface BenchStep {
  /** Runs training step `epoch` (0-based): forward, backward, update, stopping. */
  run(epoch: number): void | Promise<void>;
  /**
   * The read-back the production loop does every `logEvery` steps (losses and stopping state,
   * a host sync); the loop calls it after the steps that end such an interval.
   */
  readBack(): Promise<void>;
  /** Frees what this step created (not the training parts it was given). */
  dispose(): void;
}
