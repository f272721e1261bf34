import type { Runcard } from '@partonfit/core';
import type { FitInputs } from '@partonfit/fktables';
import type { IntegrationGrid } from '@partonfit/layers';
import type { TrainingParts } from '@partonfit/trainer';
import type { RatioName } from '../report/result-schema.js';
import type { BenchStep } from '../steps/bench-step.js';
import { fitStyleStep } from '../steps/fit-style-step.js';
import { gatheredSplitStep } from '../steps/gathered-split-step.js';
import { perReplicaModelsStep } from '../steps/per-replica-models-step.js';
import { secondPassValidationStep } from '../steps/second-pass-validation-step.js';
import { seedStep } from '../steps/seed-step.js';

/** What a naive variant is built from: the seed step's own training parts and inputs. */
export interface VariantContext {
  readonly parts: TrainingParts;
  readonly runcard: Runcard;
  readonly inputs: FitInputs;
  readonly integration: IntegrationGrid;
  /** The seed step's read-back interval. */
  readonly logEvery: number;
}

/** A deliberately naive formulation of the step, compared with the seed step. */
export interface RatioVariant {
  readonly name: RatioName;
  /** What the naive variant does differently, for the report. */
  readonly description: string;
  /** Its read-back interval. */
  readonly logEvery: (context: VariantContext) => number;
  readonly build: (context: VariantContext) => BenchStep;
}

const seedInterval = (context: VariantContext) => context.logEvery;

/** The five naive variants of the seeds' lessons, in the order of the issue. */
export const RATIO_VARIANTS: readonly RatioVariant[] = [
  {
    name: 'perReplicaModels',
    description:
      'R single-replica PDF models (own network, preprocessing, sum rules, optimiser, stopping) run in a loop and stacked, vs one MultiDense model of all replicas; same observables and losses',
    logEvery: seedInterval,
    build: ({ parts, runcard, inputs, integration }) =>
      perReplicaModelsStep(parts, runcard, inputs, integration),
  },
  {
    name: 'gatheredSplit',
    description:
      'training/validation eigenmodes selected every step by index (indices uploaded each step, gather with a scatter gradient), vs multiplying by precomputed per-replica mode weights',
    logEvery: seedInterval,
    build: ({ parts, inputs }) => gatheredSplitStep(parts, inputs),
  },
  {
    name: 'secondPassValidation',
    description:
      'a second forward pass (PDF and every observable) each step for the validation losses, vs reading them off the training pass’s predictions',
    logEvery: seedInterval,
    build: ({ parts, inputs }) => secondPassValidationStep(parts, inputs),
  },
  {
    name: 'readBackEveryStep',
    description:
      'losses and stopping state read back to the host every step, vs every logEvery (100) steps',
    logEvery: () => 1,
    build: ({ parts, inputs }) => seedStep(parts, inputs, { logEvery: 1 }),
  },
  {
    name: 'fitStyleEpochs',
    description:
      'model.fit-style epochs: x-grid inputs uploaded and sum-rule layer rebuilt per call, the epoch loss read back, a yield to the event loop, vs the batched loop',
    logEvery: seedInterval,
    build: ({ parts, inputs }) => fitStyleStep(parts, inputs),
  },
];
