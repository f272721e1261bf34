/** What a test trial differs in. */
export interface TrialSketch {
  readonly tid: number;
  readonly loss: number;
  readonly status?: 'ok' | 'fail';
  /** hyperopt's state; default 2 (done). */
  readonly state?: number;
  readonly nodes?: readonly number[];
  readonly activation?: string;
  readonly optimizer?: string;
  readonly learningRate?: number;
  readonly clipnorm?: number;
  readonly epochs?: number;
  readonly patience?: number;
  readonly initial?: number;
}

/**
 * A trial document as n3fit 4.1.5's `FileTrials` writes it to `tries.json` (hyperopt's fields,
 * `misc.space_vals` with the scan runcard's whole `parameters` section, numbers as floats where
 * the scan samples them).
 */
export function trialDocument(sketch: TrialSketch): Record<string, unknown> {
  const optimizer = sketch.optimizer ?? 'Nadam';
  return {
    state: sketch.state ?? 2,
    tid: sketch.tid,
    spec: null,
    result: {
      status: sketch.status ?? 'ok',
      loss: sketch.loss,
      validation_loss: sketch.loss,
      kfold_meta: { hyper_losses_chi2: [sketch.loss] },
    },
    misc: {
      tid: sketch.tid,
      cmd: ['domain_attachment', 'FMinIter_Domain'],
      workdir: null,
      idxs: { optimizer: [sketch.tid] },
      vals: { optimizer: [0] },
      space_vals: {
        activation_per_layer: sketch.activation ?? 'tanh',
        dropout: 0.0,
        epochs: sketch.epochs ?? 1000.0,
        initializer: 'glorot_normal',
        integrability: { initial: 10, multiplier: null },
        layer_type: 'dense',
        nodes_per_layer: sketch.nodes ?? [25.0, 20.0, 8],
        optimizer: {
          clipnorm: sketch.clipnorm ?? 1e-5,
          learning_rate: sketch.learningRate ?? 1e-3,
          optimizer_name: optimizer,
        },
        positivity: { initial: sketch.initial ?? 10.0, multiplier: null },
        stopping_patience: sketch.patience ?? 0.1,
        threshold_chi2: 3.5,
      },
    },
    exp_key: null,
    owner: null,
    version: 0,
    book_time: '2026-11-28 10:00:00.000000',
    refresh_time: '2026-11-28 10:05:00.000000',
  };
}

/** A `tries.json` text of the given trials, as Python's `json.dumps` writes it (bare `NaN`). */
export function triesText(sketches: readonly TrialSketch[]): string {
  return JSON.stringify(sketches.map(trialDocument), null, 1).replace(
    /"loss": null/g,
    '"loss": NaN',
  );
}
