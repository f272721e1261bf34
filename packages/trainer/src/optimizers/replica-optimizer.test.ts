import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, ShapeError, type OptimizerName } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { describeOnBackends } from '@partonfit/testing';
import { expectClose, randomArray, replicaSlice, values } from './optimizers.fixture.js';
import { createReplicaOptimizer, type ReplicaOptimizer } from './replica-optimizer.js';

const REPLICAS = 3;
const SHAPES = [
  [REPLICAS, 2, 5],
  [REPLICAS, 1, 5],
] as const;
const ALL_NAMES: readonly OptimizerName[] = [
  'SGD',
  'RMSprop',
  'Adam',
  'Adamax',
  'Adagrad',
  'Adadelta',
  'Nadam',
  'Amsgrad',
];

function makeVariables(seed = 1): tf.Variable[] {
  return SHAPES.map((shape, index) =>
    tf.variable(
      tf.tensor(Float32Array.from(randomArray(shape[0] * shape[1] * shape[2], seed + index)), [
        ...shape,
      ]),
    ),
  );
}

/** Gradients of step `step`; with `nanReplica`, that replica's gradients are all NaN. */
function makeGradients(step: number, nanReplica?: number): tf.Tensor[] {
  return SHAPES.map((shape, index) => {
    const data = Float32Array.from(
      randomArray(shape[0] * shape[1] * shape[2], 100 * step + index, -3, 3),
    );
    if (nanReplica !== undefined) {
      const per = data.length / REPLICAS;
      data.fill(Number.NaN, nanReplica * per, (nanReplica + 1) * per);
    }
    return tf.tensor(data, [...shape]);
  });
}

/** Runs `steps` updates and returns the weights and the statistics at the end, as arrays. */
function run(
  optimizer: ReplicaOptimizer,
  variables: tf.Variable[],
  steps: number,
  options: { nanReplica?: number; active?: readonly number[] } = {},
): { weights: Float64Array[]; slots: Record<string, Float64Array[]> } {
  for (let step = 1; step <= steps; step++) {
    tf.tidy(() => {
      const active = options.active === undefined ? undefined : tf.tensor1d([...options.active]);
      optimizer.applyGradients(
        variables,
        makeGradients(step, options.nanReplica),
        active === undefined ? {} : { active },
      );
    });
  }
  const state = optimizer.state();
  const slots = Object.fromEntries(
    Object.entries(state.slots).map(([name, tensors]) => [name, tensors.map(values)]),
  );
  tf.dispose(Object.values(state.slots).flat());
  return { weights: variables.map(values), slots };
}

describeOnBackends('createReplicaOptimizer: masks, NaN, checkpoints, memory', () => {
  for (const name of ALL_NAMES) {
    it(`should keep NaN gradients of one replica out of the others (${name})`, () => {
      const clean = makeVariables();
      const poisoned = makeVariables();
      const cleanRun = run(createReplicaOptimizer({ name, clipnorm: 1 }), clean, 4);
      const poisonedRun = run(createReplicaOptimizer({ name, clipnorm: 1 }), poisoned, 4, {
        nanReplica: 1,
      });
      for (const replica of [0, 2]) {
        poisonedRun.weights.forEach((weights, index) => {
          const expected = replicaSlice(
            cleanRun.weights[index] ?? new Float64Array(),
            REPLICAS,
            replica,
          );
          expectClose(replicaSlice(weights, REPLICAS, replica), expected, 0, `w${index}`);
        });
      }
      expect(
        Number.isNaN(replicaSlice(poisonedRun.weights[0] ?? new Float64Array(), REPLICAS, 1)[0]),
      ).toBe(true);
      tf.dispose([...clean, ...poisoned]);
    });

    it(`should leave inactive replicas' weights and statistics untouched (${name})`, () => {
      const reference = makeVariables();
      const masked = makeVariables();
      const initial = masked.map(values);
      const referenceOptimizer = createReplicaOptimizer({ name, clipnorm: 1 });
      const maskedOptimizer = createReplicaOptimizer({ name, clipnorm: 1 });
      const referenceRun = run(referenceOptimizer, reference, 4);
      const maskedRun = run(maskedOptimizer, masked, 4, { nanReplica: 1, active: [1, 0, 1] });
      maskedRun.weights.forEach((weights, index) => {
        expectClose(
          replicaSlice(weights, REPLICAS, 0),
          replicaSlice(referenceRun.weights[index] ?? new Float64Array(), REPLICAS, 0),
          0,
          'replica 0',
        );
        expectClose(
          replicaSlice(weights, REPLICAS, 1),
          replicaSlice(initial[index] ?? new Float64Array(), REPLICAS, 1),
          0,
          'replica 1',
        );
        expectClose(
          replicaSlice(weights, REPLICAS, 2),
          replicaSlice(referenceRun.weights[index] ?? new Float64Array(), REPLICAS, 2),
          0,
          'replica 2',
        );
      });
      const initialSlot = Math.fround(name === 'Adagrad' ? 0.1 : 0);
      for (const [slot, arrays] of Object.entries(maskedRun.slots)) {
        arrays.forEach((array, index) => {
          const frozen = replicaSlice(array, REPLICAS, 1);
          expect(Array.from(frozen)).toEqual(new Array<number>(frozen.length).fill(initialSlot));
          expectClose(
            replicaSlice(array, REPLICAS, 2),
            replicaSlice(referenceRun.slots[slot][index], REPLICAS, 2),
            0,
            slot,
          );
        });
      }
      expect(maskedOptimizer.step).toBe(4);
      referenceOptimizer.dispose();
      maskedOptimizer.dispose();
      tf.dispose([...reference, ...masked]);
    });

    it(`should continue from a checkpoint exactly as without one (${name})`, () => {
      const straight = makeVariables();
      const straightOptimizer = createReplicaOptimizer({ name, clipnorm: 1 });
      run(straightOptimizer, straight, 3);
      const checkpoint = straightOptimizer.state();
      const checkpointWeights = straight.map((variable) => tf.clone(variable));
      for (let step = 4; step <= 6; step++) {
        tf.tidy(() => {
          straightOptimizer.applyGradients(straight, makeGradients(step));
        });
      }

      const resumed = checkpointWeights.map((weights) => tf.variable(weights));
      const resumedOptimizer = createReplicaOptimizer({ name, clipnorm: 1 });
      resumedOptimizer.restore(checkpoint);
      tf.dispose([...Object.values(checkpoint.slots).flat(), ...checkpointWeights]);
      expect(resumedOptimizer.step).toBe(3);
      for (let step = 4; step <= 6; step++) {
        tf.tidy(() => {
          resumedOptimizer.applyGradients(resumed, makeGradients(step));
        });
      }
      resumed.forEach((variable, index) => {
        expectClose(values(variable), values(straight[index] ?? variable), 0, `w${index}`);
      });
      straightOptimizer.dispose();
      resumedOptimizer.dispose();
      tf.dispose([...straight, ...resumed]);
    });

    it(`should hold the number of tensors flat over 100 steps (${name})`, () => {
      const variables = makeVariables();
      const gradients = makeGradients(1);
      const active = tf.tensor1d([1, 0, 1]);
      const optimizer = createReplicaOptimizer({ name, clipnorm: 0.5 });
      optimizer.applyGradients(variables, gradients);
      const before = tf.memory().numTensors;
      for (let step = 0; step < 100; step++) {
        optimizer.applyGradients(variables, gradients, step % 2 === 0 ? {} : { active });
      }
      expect(tf.memory().numTensors).toBe(before);
      optimizer.dispose();
      expect(tf.memory().numTensors).toBe(before - 2 * optimizer.slotNames.length);
      tf.dispose([...variables, ...gradients, active]);
    });
  }

  it('should reject gradients that do not fit the variables', () => {
    const variables = makeVariables();
    const optimizer = createReplicaOptimizer({ name: 'Adam', clipnorm: 1 });
    const gradients = makeGradients(1);
    expect(() => {
      optimizer.applyGradients(variables, gradients.slice(0, 1));
    }).toThrow(InvalidArgumentError);
    expect(() => {
      optimizer.applyGradients([], []);
    }).toThrow(InvalidArgumentError);
    const wrong = tf.zeros([REPLICAS, 5, 2]);
    expect(() => {
      optimizer.applyGradients(variables, [wrong, gradients[1] ?? wrong]);
    }).toThrow(/gradients\[0\]: expected shape \[3, 2, 5\].*got \[3, 5, 2\]/);
    const integer = tf.zeros([REPLICAS, 2, 5], 'int32');
    expect(() => {
      optimizer.applyGradients(variables, [integer, gradients[1] ?? wrong]);
    }).toThrow(InvalidArgumentError);
    const fewerReplicas = tf.variable(tf.zeros([2, 1, 5]));
    expect(() => {
      optimizer.applyGradients(
        [variables[0] ?? fewerReplicas, fewerReplicas],
        [gradients[0] ?? wrong, tf.zeros([2, 1, 5])],
      );
    }).toThrow(ShapeError);
    const badMask = tf.ones([REPLICAS + 1]);
    expect(() => {
      optimizer.applyGradients(variables, gradients, { active: badMask });
    }).toThrow(ShapeError);
    expect(optimizer.step).toBe(0);
    optimizer.applyGradients(variables, gradients);
    const otherVariables = [tf.variable(tf.zeros([REPLICAS, 5, 2])), variables[1] ?? fewerReplicas];
    expect(() => {
      optimizer.applyGradients(otherVariables, [wrong, gradients[1] ?? wrong]);
    }).toThrow(/variables\[0\]: expected shape \[3, 2, 5\]/);
    expect(() => {
      optimizer.applyGradients(variables.slice(0, 1), gradients.slice(0, 1));
    }).toThrow(InvalidArgumentError);
    optimizer.dispose();
    expect(() => {
      optimizer.applyGradients(variables, gradients);
    }).toThrow(InvalidArgumentError);
    tf.dispose([
      ...variables,
      ...gradients,
      wrong,
      integer,
      fewerReplicas,
      badMask,
      ...otherVariables,
    ]);
  });

  it('should reject a checkpoint of another optimiser or of other variables', () => {
    const variables = makeVariables();
    const adam = createReplicaOptimizer({ name: 'Adam', clipnorm: 1 });
    run(adam, variables, 1);
    const adamState = adam.state();
    const nadam = createReplicaOptimizer({ name: 'Nadam', clipnorm: 1 });
    expect(() => {
      nadam.restore(adamState);
    }).toThrow(/state.optimizer: expected the state of a Nadam/);
    const amsgrad = createReplicaOptimizer({ name: 'Amsgrad', clipnorm: 1 });
    expect(() => {
      amsgrad.restore({ ...adamState, optimizer: 'Amsgrad' });
    }).toThrow(/state.slots: expected the statistics \[momentum, velocity, velocity_hat\]/);
    const fresh = createReplicaOptimizer({ name: 'Adam', clipnorm: 1 });
    expect(() => {
      fresh.restore({ ...adamState, step: -1 });
    }).toThrow(InvalidArgumentError);
    expect(() => {
      fresh.restore({ ...adamState, step: 1.5 });
    }).toThrow(InvalidArgumentError);
    const transposed = tf.zeros([REPLICAS, 5, 2]);
    expect(() => {
      adam.restore({
        ...adamState,
        slots: {
          ...adamState.slots,
          velocity: [transposed, adamState.slots.velocity[1]],
        },
      });
    }).toThrow(/state.slots.velocity\[0\]: expected shape \[3, 2, 5\]/);
    expect(() => {
      adam.restore({
        ...adamState,
        slots: { ...adamState.slots, velocity: adamState.slots.velocity.slice(0, 1) },
      });
    }).toThrow(InvalidArgumentError);
    expect(adam.step).toBe(1);
    tf.dispose([...variables, ...Object.values(adamState.slots).flat(), transposed]);
    for (const optimizer of [adam, nadam, amsgrad, fresh]) optimizer.dispose();
  });
});

describe('createReplicaOptimizer: settings', () => {
  it("should fill in n3fit's default learning rates and Keras's options", () => {
    expect(createReplicaOptimizer({ name: 'Nadam', clipnorm: 1 }).settings).toEqual({
      name: 'Nadam',
      learningRate: 0.001,
      clipnorm: 1,
      momentum: 0,
      nesterov: false,
      centered: false,
    });
    expect(
      createReplicaOptimizer({ name: 'Adadelta', clipnorm: undefined }).settings.learningRate,
    ).toBe(1);
    expect(
      createReplicaOptimizer({ name: 'Adam', learningRate: 2e-3, clipnorm: undefined }).settings
        .learningRate,
    ).toBe(2e-3);
  });

  it('should reject bad settings with the setting named', () => {
    expect(() =>
      createReplicaOptimizer({ name: 'Adam', learningRate: -0.01, clipnorm: 1 }),
    ).toThrow(/settings.learningRate: expected a positive finite number, got -0.01/);
    expect(() =>
      createReplicaOptimizer({ name: 'Adam', learningRate: Number.NaN, clipnorm: 1 }),
    ).toThrow(InvalidArgumentError);
    expect(() => createReplicaOptimizer({ name: 'Adam', clipnorm: 0 })).toThrow(
      /settings.clipnorm/,
    );
    expect(() => createReplicaOptimizer({ name: 'Adagard' as OptimizerName, clipnorm: 1 })).toThrow(
      /settings.name: expected one of SGD, RMSprop, .*got 'Adagard'/,
    );
    expect(() => createReplicaOptimizer({ name: 'Adam', clipnorm: 1, momentum: 0.9 })).toThrow(
      /settings.momentum: only SGD and RMSprop/,
    );
    expect(() => createReplicaOptimizer({ name: 'SGD', clipnorm: 1, momentum: 1.5 })).toThrow(
      /settings.momentum: expected a number in \[0, 1\]/,
    );
    expect(() => createReplicaOptimizer({ name: 'RMSprop', clipnorm: 1, nesterov: true })).toThrow(
      /settings.nesterov: only SGD/,
    );
    expect(() => createReplicaOptimizer({ name: 'SGD', clipnorm: 1, centered: true })).toThrow(
      /settings.centered: only RMSprop/,
    );
  });
});
