import { InvalidArgumentError } from '@partonfit/core';

/**
 * A search-space node, labelled as hyperopt labels it (the label is the key in a trial's
 * `vals`). Build them with {@link choice}, {@link uniform}, {@link logUniform} and
 * {@link quantizedUniform}; a plain object with a `kind` among these four and a string `label`
 * is read as a node wherever it appears in a space.
 *
 * - `choice`: hyperopt's `hp.choice(label, options)`; the point holds the option's index, and
 *   the labels inside the other options are inactive.
 * - `uniform`: `hp.uniform(label, low, high)`.
 * - `loguniform`: exp(U(ln low, ln high)). `low` and `high` are the values themselves (> 0), as
 *   n3fit's `hp_loguniform` takes them (it passes their logarithms to `hp.loguniform`).
 * - `quniform`: `hp.quniform(label, low, high, q)`, round(U(low, high)/q)·q (so the edge values
 *   can lie up to q/2 outside [low, high]); `integer` casts the value to an integer as
 *   `scope.int(hp.quniform(…))` does (truncated towards zero).
 */
export type SpaceNode =
  | { readonly kind: 'choice'; readonly label: string; readonly options: readonly SpaceValue[] }
  | {
      readonly kind: 'uniform';
      readonly label: string;
      readonly low: number;
      readonly high: number;
    }
  | {
      readonly kind: 'loguniform';
      readonly label: string;
      readonly low: number;
      readonly high: number;
    }
  | {
      readonly kind: 'quniform';
      readonly label: string;
      readonly low: number;
      readonly high: number;
      readonly q: number;
      readonly integer: boolean;
    };

/**
 * A search space: a {@link SpaceNode}, a constant, or arrays and objects of them, nested at any
 * depth (hyperopt's pyll expression of `hp.*` nodes inside lists and dicts).
 */
export type SpaceValue =
  | SpaceNode
  | number
  | string
  | boolean
  | null
  | readonly SpaceValue[]
  | { readonly [key: string]: SpaceValue };

/**
 * A trial's sampled values, hyperopt's `misc.vals` flattened: label → index (choice) or value;
 * only the labels active in the trial.
 */
export type SpacePoint = Readonly<Record<string, number>>;

const NODE_KINDS: ReadonlySet<unknown> = new Set(['choice', 'uniform', 'loguniform', 'quniform']);

/** Whether a space value is a node (rather than a constant, array or plain object). */
export function isSpaceNode(value: SpaceValue): value is SpaceNode {
  return (
    typeof value === 'object' &&
    value !== null &&
    !isSpaceArray(value) &&
    NODE_KINDS.has(value.kind) &&
    typeof value.label === 'string'
  );
}

function isSpaceArray(value: SpaceValue): value is readonly SpaceValue[] {
  return Array.isArray(value);
}

/** The values directly inside an array or plain object (none for a constant or a node). */
function children(value: SpaceValue): readonly SpaceValue[] {
  if (isSpaceArray(value)) return value;
  if (typeof value === 'object' && value !== null && !isSpaceNode(value)) {
    return Object.values(value);
  }
  return [];
}

/**
 * hyperopt's `hp.choice(label, options)`: one of `options`, each of which may hold further
 * nodes (active only when it is chosen). The point holds the chosen index.
 *
 * @throws InvalidArgumentError `<label>: …` when `options` is empty
 */
export function choice(label: string, options: readonly SpaceValue[]): SpaceNode {
  return checkedNode({ kind: 'choice', label, options: Object.freeze([...options]) });
}

/**
 * hyperopt's `hp.uniform(label, low, high)`: a value uniform in [low, high).
 *
 * @throws InvalidArgumentError `<label>: …` unless `low < high`, both finite
 */
export function uniform(label: string, low: number, high: number): SpaceNode {
  return checkedNode({ kind: 'uniform', label, low, high });
}

/**
 * A log-uniform value in [low, high]: exp(U(ln low, ln high)), as n3fit's `hp_loguniform(key,
 * low, high)` (which hands hyperopt `hp.loguniform(key, ln low, ln high)`).
 *
 * @param low - the smallest value (not its logarithm), > 0
 * @param high - the largest value, > low
 * @throws InvalidArgumentError `<label>: …` unless `0 < low < high`, both finite
 */
export function logUniform(label: string, low: number, high: number): SpaceNode {
  return checkedNode({ kind: 'loguniform', label, low, high });
}

/**
 * hyperopt's `hp.quniform(label, low, high, q)`: round(U(low, high)/q)·q, rounding half to even
 * as numpy does. With `integer`, the evaluated value is cast to an integer as
 * `scope.int(hp.quniform(…))` does (the point keeps the quantised number).
 *
 * @throws InvalidArgumentError `<label>: …` unless `low < high` and `q > 0`, all finite
 */
export function quantizedUniform(
  label: string,
  low: number,
  high: number,
  q: number,
  options: { readonly integer?: boolean } = {},
): SpaceNode {
  return checkedNode({ kind: 'quniform', label, low, high, q, integer: options.integer ?? false });
}

function checkedNode(node: SpaceNode): SpaceNode {
  checkNode(node);
  return Object.freeze(node);
}

function invalid(label: string, problem: string): InvalidArgumentError {
  return new InvalidArgumentError({ argument: label, problem });
}

function checkNode(node: SpaceNode): void {
  if (node.label === '') {
    throw new InvalidArgumentError({
      argument: 'label',
      problem: `a ${node.kind} node needs a non-empty label`,
    });
  }
  const { label } = node;
  if (node.kind === 'choice') {
    if (!isSpaceArray(node.options) || node.options.length === 0) {
      throw invalid(label, 'a choice needs at least one option');
    }
    return;
  }
  if (!Number.isFinite(node.low) || !Number.isFinite(node.high)) {
    throw invalid(label, `expected finite bounds, got low ${node.low} and high ${node.high}`);
  }
  if (!(node.low < node.high)) {
    throw invalid(label, `expected low < high, got low ${node.low} and high ${node.high}`);
  }
  if (node.kind === 'loguniform' && !(node.low > 0)) {
    throw invalid(label, `a loguniform needs low > 0, got ${node.low}`);
  }
  if (node.kind === 'quniform') {
    if (!Number.isFinite(node.q) || !(node.q > 0)) {
      throw invalid(label, `expected a finite q > 0, got ${node.q}`);
    }
    if (typeof (node.integer as unknown) !== 'boolean') {
      throw invalid(label, `expected integer to be true or false, got ${String(node.integer)}`);
    }
  }
}

/** Whether two nodes define the same random variable (their options compared deeply). */
function sameDefinition(a: SpaceValue, b: SpaceValue): boolean {
  if (a === b) return true;
  if (isSpaceArray(a) || isSpaceArray(b)) {
    return (
      isSpaceArray(a) &&
      isSpaceArray(b) &&
      a.length === b.length &&
      a.every((value, i) => sameDefinition(value, b[i]))
    );
  }
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const entriesA = Object.entries(a);
  const entriesB = Object.entries(b);
  return (
    entriesA.length === entriesB.length &&
    entriesA.every(([key, value], i) => {
      const [otherKey, otherValue] = entriesB[i];
      return key === otherKey && sameDefinition(value, otherValue);
    })
  );
}

/**
 * The nodes of a space by label, in depth-first order (inactive branches included); a label
 * used twice must define the same node. With `check`, every node is checked as
 * {@link validateSpace} describes.
 */
function collectNodes(space: SpaceValue, check: boolean): Map<string, SpaceNode> {
  const nodes = new Map<string, SpaceNode>();
  const visit = (value: SpaceValue): void => {
    if (isSpaceNode(value)) {
      const known = nodes.get(value.label);
      if (known !== undefined) {
        if (!sameDefinition(known, value)) {
          throw invalid(
            value.label,
            `the label is used by two different nodes (${known.kind} and ${value.kind}); hyperopt requires one node per label`,
          );
        }
        return;
      }
      if (check) checkNode(value);
      nodes.set(value.label, value);
      if (value.kind === 'choice') value.options.forEach(visit);
      return;
    }
    children(value).forEach(visit);
  };
  visit(space);
  return nodes;
}

/**
 * Every node of a valid search space by label, in depth-first order.
 *
 * @throws InvalidArgumentError as {@link validateSpace}
 */
export function labelDefinitions(space: SpaceValue): Map<string, SpaceNode> {
  return collectNodes(space, true);
}

/**
 * Every label of a search space, each once, in depth-first order (the labels inside every
 * option of a choice included).
 *
 * @throws InvalidArgumentError naming the label when two different nodes share it (the same
 *   definition used in several places is one hyperparameter, as in hyperopt)
 *
 * @example
 * ```ts
 * import { choice, logUniform, spaceLabels } from '@partonfit/hyperopt';
 *
 * const space = {
 *   optimizer: choice('optimizer', [
 *     { optimizer_name: 'Adam', learning_rate: logUniform('Adam_learning_rate', 1e-4, 1e-2) },
 *     { optimizer_name: 'Nadam', learning_rate: logUniform('Nadam_learning_rate', 1e-4, 1e-2) },
 *   ]),
 * };
 * console.log(spaceLabels(space)); // [ 'optimizer', 'Adam_learning_rate', 'Nadam_learning_rate' ]
 * ```
 */
export function spaceLabels(space: SpaceValue): string[] {
  return [...collectNodes(space, false).keys()];
}

/**
 * Checks every node of a search space (inactive branches included): finite bounds with
 * low < high, q > 0 for a quniform, low > 0 for a loguniform, at least one option for a choice,
 * a non-empty label, and one definition per label.
 *
 * @throws InvalidArgumentError whose `argument` is the offending node's label
 */
export function validateSpace(space: SpaceValue): void {
  labelDefinitions(space);
}

/**
 * The concrete value of a search space at a point (hyperopt's `space_eval`): every node replaced
 * by its value (a choice by its chosen option, evaluated in turn; an integer quniform truncated
 * to an integer), arrays and objects rebuilt around them. Labels of the point that are not
 * active are ignored.
 *
 * @throws InvalidArgumentError naming the label when the point has no value for an active label
 *   or a choice index is not an integer in range
 *
 * @example
 * ```ts
 * import { choice, evaluateSpace, quantizedUniform } from '@partonfit/hyperopt';
 *
 * const space = {
 *   nodes_per_layer: choice('nodes_per_layer', [
 *     [quantizedUniform('nl2:-0/2', 10, 40, 5, { integer: true }), 8],
 *     [quantizedUniform('nl3:-0/3', 10, 40, 5, { integer: true }), 20, 8],
 *   ]),
 * };
 * const value = evaluateSpace(space, { nodes_per_layer: 0, 'nl2:-0/2': 25 });
 * console.log(value); // { nodes_per_layer: [ 25, 8 ] }
 * ```
 */
export function evaluateSpace(space: SpaceValue, point: SpacePoint): unknown {
  const evaluate = (value: SpaceValue): unknown => {
    if (isSpaceNode(value)) {
      const sampled = pointValue(point, value.label);
      switch (value.kind) {
        case 'choice':
          return evaluate(value.options[checkedIndex(value, sampled)]);
        case 'quniform':
          return value.integer ? Math.trunc(sampled) : sampled;
        default:
          return sampled;
      }
    }
    if (isSpaceArray(value)) return value.map(evaluate);
    if (typeof value === 'object' && value !== null) {
      return Object.fromEntries(
        Object.entries(value).map(([key, entry]) => [key, evaluate(entry)]),
      );
    }
    return value;
  };
  return evaluate(space);
}

function pointValue(point: SpacePoint, label: string): number {
  const value = Object.hasOwn(point, label) ? point[label] : undefined;
  if (typeof value !== 'number') {
    throw invalid(label, 'the point has no value for this active label');
  }
  return value;
}

/** The option index a point gives a choice, checked. */
export function checkedIndex(node: SpaceNode & { kind: 'choice' }, index: number): number {
  if (!Number.isInteger(index) || index < 0 || index >= node.options.length) {
    throw invalid(
      node.label,
      `expected a choice index between 0 and ${node.options.length - 1}, got ${index}`,
    );
  }
  return index;
}

/**
 * A point built by walking the space from its root: `draw` gives the value of each label the
 * first time an active node carries it, and only the chosen option of a choice is walked (so
 * the point holds exactly the active labels). Arrays in order, objects in key order.
 */
export function buildPoint(space: SpaceValue, draw: (node: SpaceNode) => number): SpacePoint {
  const point = new Map<string, number>();
  const visit = (value: SpaceValue): void => {
    if (isSpaceNode(value)) {
      let sampled = point.get(value.label);
      if (sampled === undefined) {
        sampled = draw(value);
        point.set(value.label, sampled);
      }
      if (value.kind === 'choice') visit(value.options[sampled]);
      return;
    }
    children(value).forEach(visit);
  };
  visit(space);
  return Object.fromEntries(point);
}
