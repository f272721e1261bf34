import { InvalidArgumentError } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { N3FIT_SPACE } from './n3fit-space.fixture.js';
import {
  choice,
  evaluateSpace,
  logUniform,
  quantizedUniform,
  spaceLabels,
  uniform,
  validateSpace,
  type SpaceValue,
} from './space.js';

/** The error thrown by `action`, checked to be an InvalidArgumentError naming `label`. */
function expectLabelError(action: () => unknown, label: string): InvalidArgumentError {
  let caught: unknown;
  try {
    action();
  } catch (error) {
    caught = error;
  }
  expect(InvalidArgumentError.isInstance(caught)).toBe(true);
  const error = caught as InvalidArgumentError;
  expect(error.argument).toBe(label);
  expect(error.message).toContain(label);
  return error;
}

describe('search-space nodes', () => {
  it('should build nodes with the fields hyperopt labels them by', () => {
    expect(uniform('x', -1, 2)).toEqual({ kind: 'uniform', label: 'x', low: -1, high: 2 });
    expect(logUniform('lr', 1e-4, 1e-2)).toEqual({
      kind: 'loguniform',
      label: 'lr',
      low: 1e-4,
      high: 1e-2,
    });
    expect(quantizedUniform('epochs', 5000, 30000, 5000)).toEqual({
      kind: 'quniform',
      label: 'epochs',
      low: 5000,
      high: 30000,
      q: 5000,
      integer: false,
    });
    expect(quantizedUniform('units', 10, 45, 7, { integer: true }).kind).toBe('quniform');
    expect(choice('activation', ['tanh', 'sigmoid'])).toEqual({
      kind: 'choice',
      label: 'activation',
      options: ['tanh', 'sigmoid'],
    });
  });

  it('should refuse invalid nodes naming their label', () => {
    expect(expectLabelError(() => uniform('x', 1, 1), 'x').message).toBe(
      'x: expected low < high, got low 1 and high 1',
    );
    expectLabelError(() => uniform('x', 0, Number.POSITIVE_INFINITY), 'x');
    expectLabelError(() => uniform('x', Number.NaN, 1), 'x');
    expect(expectLabelError(() => logUniform('lr', 0, 1), 'lr').message).toContain('low > 0');
    expect(expectLabelError(() => quantizedUniform('q', 0, 1, 0), 'q').message).toContain('q > 0');
    expectLabelError(() => quantizedUniform('q', 0, 1, Number.NaN), 'q');
    expect(expectLabelError(() => choice('c', []), 'c').message).toContain('at least one option');
    expectLabelError(() => uniform('', 0, 1), 'label');
  });

  it('should validate hand-written nodes anywhere in a space, inactive branches included', () => {
    const space: SpaceValue = {
      optimizer: choice('optimizer', [
        { learning_rate: { kind: 'loguniform', label: 'Adam_lr', low: 1e-4, high: 1e-2 } },
        { learning_rate: { kind: 'uniform', label: 'SGD_lr', low: 0.1, high: 0.01 } },
      ]),
    };
    expectLabelError(() => {
      validateSpace(space);
    }, 'SGD_lr');
    expect(() => {
      validateSpace(N3FIT_SPACE);
    }).not.toThrow();
  });
});

describe('spaceLabels', () => {
  it('should list every label once, depth first, inactive options included', () => {
    expect(spaceLabels(N3FIT_SPACE)).toEqual([
      'optimizer',
      'Adam_learning_rate',
      'Adam_clipnorm',
      'Nadam_learning_rate',
      'epochs',
      'stopping_patience',
      'nodes_per_layer',
      'nl2:-0/2',
      'nl2:-1/2',
      'nl3:-0/3',
      'nl3:-1/3',
      'nl3:-2/3',
      'activation_per_layer',
      'initializer',
      'pos_initial',
    ]);
  });

  it('should accept a label defined the same way twice and refuse two definitions', () => {
    const rate = logUniform('lr', 1e-4, 1e-2);
    expect(spaceLabels([rate, { again: logUniform('lr', 1e-4, 1e-2) }, rate])).toEqual(['lr']);
    const error = expectLabelError(
      () => spaceLabels({ a: logUniform('lr', 1e-4, 1e-2), b: logUniform('lr', 1e-4, 1e-1) }),
      'lr',
    );
    expect(error.message).toContain('two different nodes');
    expectLabelError(() => spaceLabels([choice('c', [1, 2]), choice('c', [1, 3])]), 'c');
  });
});

describe('evaluateSpace', () => {
  it("should give hyperopt's space_eval value of an n3fit-like space", () => {
    const point = {
      optimizer: 1,
      Nadam_learning_rate: 0.001,
      Adam_learning_rate: 0.5, // inactive: ignored
      epochs: 20000,
      stopping_patience: 0.18,
      nodes_per_layer: 1,
      'nl3:-0/3': 31,
      'nl3:-1/3': 24,
      'nl3:-2/3': 17,
      activation_per_layer: 0,
      initializer: 1,
      pos_initial: 3.5,
    };
    expect(evaluateSpace(N3FIT_SPACE, point)).toEqual({
      optimizer: { optimizer_name: 'Nadam', learning_rate: 0.001 },
      epochs: 20000,
      stopping_patience: 0.18,
      nodes_per_layer: [31, 24, 17, 8],
      activation_per_layer: 'tanh',
      initializer: 'glorot_uniform',
      positivity: { initial: 3.5, threshold: 1e-6 },
    });
  });

  it('should cast an integer quniform towards zero as Python int() does', () => {
    const space = {
      half: quantizedUniform('half', 0, 10, 0.5, { integer: true }),
      negative: quantizedUniform('negative', -5, 5, 0.5, { integer: true }),
      float: quantizedUniform('float', 0, 10, 0.5),
    };
    expect(evaluateSpace(space, { half: 2.5, negative: -2.5, float: 2.5 })).toEqual({
      half: 2,
      negative: -2,
      float: 2.5,
    });
  });

  it('should keep constants, nested arrays and nulls', () => {
    const space = [1, 'two', null, true, [choice('c', [[3, { d: 4 }], 'x'])]];
    expect(evaluateSpace(space, { c: 0 })).toEqual([1, 'two', null, true, [[3, { d: 4 }]]]);
  });

  it('should name the label an active value is missing for', () => {
    const point = { optimizer: 1, Adam_learning_rate: 0.001 };
    const error = expectLabelError(() => evaluateSpace(N3FIT_SPACE, point), 'Nadam_learning_rate');
    expect(error.message).toBe('Nadam_learning_rate: the point has no value for this active label');
    // A label named like an Object.prototype property is not found through the prototype.
    expectLabelError(() => evaluateSpace(uniform('constructor', 0, 1), {}), 'constructor');
  });

  it('should name the choice whose index is out of range or not an integer', () => {
    const error = expectLabelError(() => evaluateSpace(N3FIT_SPACE, { optimizer: 2 }), 'optimizer');
    expect(error.message).toBe('optimizer: expected a choice index between 0 and 1, got 2');
    expectLabelError(() => evaluateSpace(N3FIT_SPACE, { optimizer: 0.5 }), 'optimizer');
    expectLabelError(() => evaluateSpace(N3FIT_SPACE, { optimizer: -1 }), 'optimizer');
  });
});
