import { adamaxRule, adamFamilyRule, amsgradRule } from './adam-rules.js';
import type { ResolvedOptimizerSettings } from './optimizer-settings.js';
import { adadeltaRule, adagradRule, rmspropRule } from './rmsprop-rules.js';
import { sgdRule } from './sgd-rule.js';
import type { UpdateRule } from './update-rule.js';

/** Optimisers whose rows share one formula, each row by its own factors (see `adamFamilyRule`). */
const ADAM_FAMILY: ReadonlySet<string> = new Set(['Adam', 'Nadam']);

/**
 * The formula an optimiser's rows update by: its name, or the family it shares one update with.
 */
export function optimizerFormula(name: string): string {
  return ADAM_FAMILY.has(name) ? 'Adam|Nadam' : name;
}

/**
 * The update formula of one kind of optimiser (see {@link optimizerFormula}), with each model
 * row's own settings.
 *
 * @param rows - `(replicas)`: every row's settings, all of one formula (rows of other kinds
 *   repeat one of the kind's; their updates are not used)
 */
export function updateRuleFor(rows: readonly ResolvedOptimizerSettings[]): UpdateRule {
  const [settings] = rows as [ResolvedOptimizerSettings];
  const learningRates = rows.map((row) => row.learningRate);
  switch (settings.name) {
    case 'SGD':
      return sgdRule(learningRates, settings.momentum, settings.nesterov);
    case 'RMSprop':
      return rmspropRule(learningRates, settings.momentum, settings.centered);
    case 'Adam':
    case 'Nadam':
      return adamFamilyRule(
        rows.map((row) => row.name === 'Nadam'),
        learningRates,
      );
    case 'Amsgrad':
      return amsgradRule(learningRates);
    case 'Adamax':
      return adamaxRule(learningRates);
    case 'Adagrad':
      return adagradRule(learningRates);
    case 'Adadelta':
      return adadeltaRule(learningRates);
  }
}
