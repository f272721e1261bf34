import type { serialization } from '@tensorflow/tfjs-core';
import {
  InvalidArgumentError,
  OBSERVABLE_OPERATIONS,
  type ObservableOperation,
} from '@partonfit/core';
import { validateObservable, type FkLayout, type ObservableLayout } from './observable-layout.js';

/**
 * The layout as a tfjs-layers config. tfjs-layers snake-cases keys and string values when it
 * saves a model and camel-cases them back on load (only values under a `name` key are kept
 * verbatim), so the operation is stored in lower case and upper-cased when read.
 */
export function layoutToConfig(layout: ObservableLayout): serialization.ConfigDict {
  return {
    name: layout.name,
    ndata: layout.ndata,
    operation: layout.operation.toLowerCase(),
    operands: layout.operands.map((operand) => operand.map(tableToConfig)),
  };
}

function tableToConfig(table: FkLayout): serialization.ConfigDict {
  return {
    kind: table.kind,
    name: table.name,
    ndata: table.ndata,
    nx: table.nx,
    xOffset: table.xOffset,
    channels: table.kind === 'dis' ? [...table.channels] : table.channels.map((pair) => [...pair]),
  };
}

/**
 * Reads a layout back from a config written by {@link layoutToConfig} (possibly after a save and
 * load), and validates it.
 *
 * @throws InvalidArgumentError naming the key that is missing or malformed
 */
export function layoutFromConfig(config: unknown): ObservableLayout {
  const root = asRecord(config, 'observable');
  const operation = asString(root.operation, 'observable.operation').toUpperCase();
  if (!(OBSERVABLE_OPERATIONS as readonly string[]).includes(operation)) {
    throw new InvalidArgumentError({
      argument: 'observable.operation',
      problem: `unknown operation '${operation}'`,
    });
  }
  const operands = asArray(root.operands, 'observable.operands').map((operand, i) =>
    asArray(operand, `observable.operands[${i}]`).map((table, j) =>
      tableFromConfig(table, `observable.operands[${i}][${j}]`),
    ),
  );
  const layout: ObservableLayout = {
    name: asString(root.name, 'observable.name'),
    ndata: asNumber(root.ndata, 'observable.ndata'),
    operation: operation as ObservableOperation,
    operands,
  };
  validateObservable(layout);
  return layout;
}

function tableFromConfig(config: unknown, key: string): FkLayout {
  const table = asRecord(config, key);
  const kind = asString(table.kind, `${key}.kind`);
  const common = {
    name: asString(table.name, `${key}.name`),
    ndata: asNumber(table.ndata, `${key}.ndata`),
    nx: asNumber(table.nx, `${key}.nx`),
    xOffset: asNumber(table.xOffset, `${key}.xOffset`),
  };
  const channels = asArray(table.channels, `${key}.channels`);
  if (kind === 'dis') {
    return {
      kind,
      ...common,
      channels: channels.map((flavour, c) => asNumber(flavour, `${key}.channels[${c}]`)),
    };
  }
  if (kind === 'hadronic') {
    return {
      kind,
      ...common,
      channels: channels.map((pair, c) => {
        const [first, second, ...rest] = asArray(pair, `${key}.channels[${c}]`);
        if (rest.length > 0) {
          throw new InvalidArgumentError({
            argument: `${key}.channels[${c}]`,
            problem: 'expected a pair of flavour indices',
          });
        }
        return [
          asNumber(first, `${key}.channels[${c}][0]`),
          asNumber(second, `${key}.channels[${c}][1]`),
        ] as const;
      }),
    };
  }
  throw new InvalidArgumentError({
    argument: `${key}.kind`,
    problem: `expected 'dis' or 'hadronic', got '${kind}'`,
  });
}

function asRecord(value: unknown, key: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidArgumentError({ argument: key, problem: 'expected an object' });
  }
  return value as Record<string, unknown>;
}

function asArray(value: unknown, key: string): unknown[] {
  if (!Array.isArray(value)) {
    throw new InvalidArgumentError({ argument: key, problem: 'expected an array' });
  }
  return value;
}

function asString(value: unknown, key: string): string {
  if (typeof value !== 'string') {
    throw new InvalidArgumentError({ argument: key, problem: 'expected a string' });
  }
  return value;
}

function asNumber(value: unknown, key: string): number {
  if (typeof value !== 'number') {
    throw new InvalidArgumentError({ argument: key, problem: 'expected a number' });
  }
  return value;
}
