import type { RuncardIssue } from '../errors/runcard-error.js';
import { findFitBasis } from '../flavours/fit-basis.js';
import type { FitParameters, Runcard } from './runcard.js';
import { checkScan } from './scan-consistency.js';

/**
 * Checks between keys that the schema cannot express alone: layers against activations, the
 * output layer against the fitted flavours, the fitted flavours against the fit basis, the
 * preprocessing ranges against feature scaling, repeated datasets.
 */
export function checkConsistency(runcard: Runcard): RuncardIssue[] {
  const sections: [string, FitParameters][] = [
    ['parameters', runcard.parameters],
    ...(runcard.parameters_per_replica ?? []).map((parameters, i): [string, FitParameters] => [
      `parameters_per_replica[${i}]`,
      parameters,
    ]),
  ];
  return [
    ...sections.flatMap(([at, parameters]) => [
      ...checkLayers(parameters, runcard.fitting, at),
      ...checkUnsupportedSettings(parameters, at),
    ]),
    ...checkBasis(runcard),
    ...checkDatasets(runcard),
    ...checkClosureTest(runcard),
    ...checkScan(runcard),
  ];
}

function checkLayers(
  parameters: FitParameters,
  fitting: Runcard['fitting'],
  at: string,
): RuncardIssue[] {
  const issues: RuncardIssue[] = [];
  const layers = parameters.nodes_per_layer;
  const activations = parameters.activation_per_layer;
  if (activations.length !== layers.length) {
    issues.push({
      keyPath: `${at}.activation_per_layer`,
      problem: `expected ${layers.length} activations, one per layer of nodes_per_layer [${layers.join(', ')}], got ${activations.length}`,
    });
  }
  const last = layers.length - 1;
  if (layers[last] !== fitting.basis.length) {
    issues.push({
      keyPath: `${at}.nodes_per_layer[${last}]`,
      problem: `expected ${fitting.basis.length}, the number of fitted flavours in fitting.basis, got ${layers[last]}`,
    });
  }
  return issues;
}

/**
 * Settings the schema accepts (upstream runcards carry them) that partonfit cannot honour:
 * refused rather than ignored, so no fit silently differs from what its runcard says.
 */
function checkUnsupportedSettings(parameters: FitParameters, at: string): RuncardIssue[] {
  const issues: RuncardIssue[] = [];
  if (parameters.dropout > 0) {
    issues.push({
      keyPath: `${at}.dropout`,
      problem: `dropout is not supported yet, got ${parameters.dropout}: set it to 0`,
    });
  }
  if (parameters.regularizer !== undefined) {
    issues.push({
      keyPath: `${at}.regularizer`,
      problem: 'weight regularisers are not supported yet: remove it',
    });
  }
  return issues;
}

function checkBasis({ fitting, parameters }: Runcard): RuncardIssue[] {
  const basis = findFitBasis(fitting.fitbasis);
  if (basis === undefined) return [];
  const issues: RuncardIssue[] = [];
  const names = fitting.basis.map((entry) => entry.fl);
  const scaled = parameters.feature_scaling_points !== undefined;
  fitting.basis.forEach((entry, i) => {
    const at = `fitting.basis[${i}]`;
    if (!basis.flavours.includes(entry.fl)) {
      issues.push({
        keyPath: `${at}.fl`,
        problem: `expected one of ${basis.flavours.join(', ')} (the flavours of ${basis.name}), got '${entry.fl}'`,
      });
    } else if (names.indexOf(entry.fl) !== i) {
      issues.push({
        keyPath: `${at}.fl`,
        problem: `repeats flavour '${entry.fl}' of fitting.basis[${names.indexOf(entry.fl)}]`,
      });
    }
    const largex = entry.largex;
    if (scaled && largex !== undefined && (largex[0] !== 0 || largex[1] !== 0)) {
      issues.push({
        keyPath: `${at}.largex`,
        problem:
          'expected no largex range (or [0, 0]) when parameters.feature_scaling_points is set',
      });
    } else if (!scaled && largex === undefined) {
      issues.push({
        keyPath: `${at}.largex`,
        problem:
          'missing; expected a range [low, high] (required unless parameters.feature_scaling_points is set)',
      });
    }
  });
  const missing = basis.flavours.filter((flavour) => !names.includes(flavour));
  if (missing.length > 0) {
    issues.push({
      keyPath: 'fitting.basis',
      problem: `missing flavour(s) ${missing.join(', ')}: ${basis.name} fits ${basis.flavours.join(', ')}`,
    });
  }
  return issues;
}

/** Problems of the `dataset_inputs` entries: repeated datasets, keys that clash. */
export function checkDatasets({
  dataset_inputs: datasets,
}: Pick<Runcard, 'dataset_inputs'>): RuncardIssue[] {
  const names = datasets.map((input) => input.dataset);
  return datasets.flatMap((input, i) => {
    const issues: RuncardIssue[] = [];
    const first = names.indexOf(input.dataset);
    if (first !== i) {
      issues.push({
        keyPath: `dataset_inputs[${i}].dataset`,
        problem: `repeats dataset '${input.dataset}' of dataset_inputs[${first}]`,
      });
    }
    if (input.bundle !== undefined) {
      const clashing: string[] = (
        ['fktables', 'operation', 'commondata', 'variant'] as const
      ).filter((key) => input[key] !== undefined);
      if (input.cfac.length > 0) clashing.push('cfac');
      for (const key of clashing) {
        issues.push({
          keyPath: `dataset_inputs[${i}].${key}`,
          problem: 'cannot be combined with bundle, which holds the FK table, data and covariance',
        });
      }
    }
    if (input.operation !== undefined && input.fktables === undefined) {
      issues.push({
        keyPath: `dataset_inputs[${i}].operation`,
        problem: 'needs fktables: it says how their operands combine',
      });
    }
    return issues;
  });
}

/** A closure test with fake data needs the PDF that makes them. */
function checkClosureTest({ closuretest }: Runcard): RuncardIssue[] {
  if (closuretest?.fakedata !== true || closuretest.fakepdf !== undefined) return [];
  return [
    {
      keyPath: 'closuretest.fakepdf',
      problem: 'missing; fakedata needs the PDF that makes the data',
    },
  ];
}
