import { adamaxRule, adamRule, nadamRule } from './adam-rules.js';
import type { ResolvedOptimizerSettings } from './optimizer-settings.js';
import { adadeltaRule, adagradRule, rmspropRule } from './rmsprop-rules.js';
import { sgdRule } from './sgd-rule.js';
import type { UpdateRule } from './update-rule.js';

/** The update formula of the optimiser `settings` names. */
export function updateRuleFor(settings: ResolvedOptimizerSettings): UpdateRule {
  const { learningRate } = settings;
  switch (settings.name) {
    case 'SGD':
      return sgdRule(learningRate, settings.momentum, settings.nesterov);
    case 'RMSprop':
      return rmspropRule(learningRate, settings.momentum, settings.centered);
    case 'Adam':
      return adamRule(learningRate, false);
    case 'Amsgrad':
      return adamRule(learningRate, true);
    case 'Adamax':
      return adamaxRule(learningRate);
    case 'Adagrad':
      return adagradRule(learningRate);
    case 'Adadelta':
      return adadeltaRule(learningRate);
    case 'Nadam':
      return nadamRule(learningRate);
  }
}
