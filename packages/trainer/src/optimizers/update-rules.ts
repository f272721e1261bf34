import { adamaxRule, adamRule, nadamRule } from './adam-rules.js';
import type { ResolvedOptimizerSettings } from './optimizer-settings.js';
import { adadeltaRule, adagradRule, rmspropRule } from './rmsprop-rules.js';
import { sgdRule } from './sgd-rule.js';
import type { UpdateRule } from './update-rule.js';

/**
 * The update formula of the optimiser `settings` names, with each model row's learning rate.
 *
 * @param learningRates - `(replicas)`: every row's learning rate (rows of other optimisers may
 *   hold any value; their updates are not used)
 */
export function updateRuleFor(
  settings: ResolvedOptimizerSettings,
  learningRates: readonly number[],
): UpdateRule {
  switch (settings.name) {
    case 'SGD':
      return sgdRule(learningRates, settings.momentum, settings.nesterov);
    case 'RMSprop':
      return rmspropRule(learningRates, settings.momentum, settings.centered);
    case 'Adam':
      return adamRule(learningRates, false);
    case 'Amsgrad':
      return adamRule(learningRates, true);
    case 'Adamax':
      return adamaxRule(learningRates);
    case 'Adagrad':
      return adagradRule(learningRates);
    case 'Adadelta':
      return adadeltaRule(learningRates);
    case 'Nadam':
      return nadamRule(learningRates);
  }
}
