import { InvalidArgumentError, type Runcard } from '@partonfit/core';
import { describeOnBackends } from '@partonfit/testing';
import { expect, it } from 'vitest';
import { sliceReplicas } from '../export/extract-replica.js';
import { replicaTrainingOrder } from '../methodology/replica-methodology.js';
import {
  closureInputs,
  disposeResult,
  heterogeneousClosureRuncard,
  smallClosureRuncard,
  worstRelativeDifference,
} from './training.fixture.js';
import { trainReplicas } from './train-replicas.js';

/**
 * Every replica under Nadam, the three-layer ones ending at 120 epochs and the two-layer one at
 * 200: with one network per optimiser the last model is two layers deep. No replica reaches the
 * χ² threshold: none has a best epoch, each keeps its last weights.
 */
function deepestEndFirst(runcard: Runcard): Runcard {
  return {
    ...runcard,
    parameters: { ...runcard.parameters, threshold_chi2: 1e-3 },
    parameters_per_replica: (runcard.parameters_per_replica ?? []).map((entry, i) => ({
      ...entry,
      epochs: i === 3 ? 200 : 120,
      optimizer: { ...entry.optimizer, optimizer_name: 'Nadam' },
    })),
  };
}

/**
 * The last replica under RMSprop: its own kind of optimiser update (Adam and Nadam share one),
 * which leaves the model's optimiser with its network group.
 */
function rmspropLast(runcard: Runcard): Runcard {
  return {
    ...runcard,
    parameters_per_replica: (runcard.parameters_per_replica ?? []).map((entry, i) =>
      i === 3
        ? {
            ...entry,
            optimizer: { optimizer_name: 'RMSprop', learning_rate: 2e-3, clipnorm: 2e-3 },
          }
        : entry,
    ),
  };
}

describeOnBackends('trainReplicas retiring the replicas whose fit ended', () => {
  it.each(['architecture', 'optimizer'] as const)(
    'should give every replica the results it has in the whole model (%s networks)',
    async (networkGroups) => {
      const base = await heterogeneousClosureRuncard();
      const runcard = networkGroups === 'optimizer' ? deepestEndFirst(base) : rmspropLast(base);
      const order = replicaTrainingOrder(runcard, [1, 2, 3, 4]);
      const inputs = await closureInputs(runcard, order);
      const whole = await trainReplicas(runcard, inputs, { model: { networkGroups } });
      // with one network per optimiser, no replica has a best epoch
      expect(networkGroups === 'architecture' || Math.max(...whole.stopping.bestEpoch) < 0).toBe(
        true,
      );
      const rowsTraining: number[] = [];
      const retiring = await trainReplicas(runcard, inputs, {
        model: { networkGroups },
        retireEndedReplicas: true,
        onProgress: (progress) => {
          // reported for every replica; a retired one's χ² is NaN
          expect(progress.validationChi2PerPoint).toHaveLength(4);
          expect(progress.stopping.stopEpoch).toHaveLength(4);
          rowsTraining.push(
            progress.validationChi2PerPoint.filter((chi2) => !Number.isNaN(chi2)).length,
          );
        },
      });
      // the model shrank as replicas ended
      expect(Math.min(...rowsTraining)).toBeLessThan(4);
      expect(retiring.epochsRun).toBe(whole.epochsRun);
      expect(retiring.stopping).toEqual(whole.stopping);
      expect(retiring.replicaEpochs).toEqual(whole.replicaEpochs);
      for (const key of ['training', 'validation', 'experimental'] as const) {
        expect(
          worstRelativeDifference(retiring.chi2PerPoint[key], whole.chi2PerPoint[key], 1e-6),
        ).toBeLessThan(1e-5);
      }
      const [mine, theirs] = await Promise.all([
        sliceReplicas(retiring.model),
        sliceReplicas(whole.model),
      ]);
      for (const row of order.keys()) {
        for (const [name, weight] of theirs[row].weights) {
          const own = mine[row].weights.get(name)?.data ?? new Float32Array();
          expect(worstRelativeDifference(own, weight.data, 1e-6)).toBeLessThan(1e-5);
        }
      }
      expect(retiring.history.map(({ epoch }) => epoch)).toEqual(
        whole.history.map(({ epoch }) => epoch),
      );
      // a replica's read-backs are the whole model's until its fit ended, NaN after
      const ended = retiring.history.map(({ epoch }) =>
        order.map((_, row) => epoch > whole.replicaEpochs[row]),
      );
      expect(
        retiring.history.map(({ validation }) =>
          Array.from(validation, (chi2) => Number.isNaN(chi2)),
        ),
      ).toEqual(ended);
      const own = (history: typeof whole.history) =>
        history.flatMap(({ validation }, i) =>
          Array.from(validation).filter((_, row) => !ended[i][row]),
        );
      expect(worstRelativeDifference(own(retiring.history), own(whole.history), 1e-6)).toBeLessThan(
        1e-5,
      );
      disposeResult(retiring);
      disposeResult(whole);
    },
  );

  it('should stop the replicas it is asked to alongside the ended ones, and leave the rest as in the whole model', async () => {
    // replicas 1 and 2 end at 120 epochs, 3 at 160, 4 at 200; 3 is stopped alongside 1 and 2
    const base = deepestEndFirst(await heterogeneousClosureRuncard());
    const runcard: Runcard = {
      ...base,
      parameters_per_replica: (base.parameters_per_replica ?? []).map((entry, i) =>
        i === 2 ? { ...entry, epochs: 160 } : entry,
      ),
    };
    const order = replicaTrainingOrder(runcard, [1, 2, 3, 4]);
    const [first, second, third, fourth] = [1, 2, 3, 4].map((replica) => order.indexOf(replica));
    const inputs = await closureInputs(runcard, order);
    const model = { networkGroups: 'optimizer' } as const;
    const whole = await trainReplicas(runcard, inputs, { model });
    const asked: { rows: number[]; training: number[]; epoch: number }[] = [];
    let endedChi2: Float64Array | undefined;
    const stopping = await trainReplicas(runcard, inputs, {
      model,
      retireEndedReplicas: true,
      stopAlongside: async (ended) => {
        const { rows, training, epoch } = ended;
        asked.push({ rows: [...rows], training: [...training], epoch });
        endedChi2 ??= await ended.inspect((alone) => {
          expect(alone.model.replicas).toBe(rows.length);
          return Promise.resolve(alone.chi2PerPoint.validation);
        });
        return training.filter((row) => row === third);
      },
    });
    const sorted = (rows: number[]) => [...rows].sort((a, b) => a - b);
    expect(asked).toEqual([
      { rows: sorted([first, second]), training: sorted([third, fourth]), epoch: 120 },
    ]);
    // the ended replicas alone hold their best (here: last) weights, as in the whole model
    expect(
      worstRelativeDifference(
        endedChi2 ?? new Float64Array(),
        Float64Array.from(sorted([first, second]), (row) => whole.chi2PerPoint.validation[row]),
        1e-6,
      ),
    ).toBeLessThan(1e-5);
    expect(stopping.stopping.stopEpoch[third]).toBe(119);
    expect(whole.stopping.stopEpoch[third]).toBe(-1);
    expect(Array.from(stopping.replicaEpochs)).toEqual(Array.from(whole.replicaEpochs));
    const others = (values: Float64Array) => values.filter((_, row) => row !== third);
    for (const key of ['training', 'validation', 'experimental'] as const) {
      expect(
        worstRelativeDifference(
          others(stopping.chi2PerPoint[key]),
          others(whole.chi2PerPoint[key]),
          1e-6,
        ),
      ).toBeLessThan(1e-5);
    }
    // the stopped replica's χ² is that of its weights at epoch 120, not at 160
    expect(stopping.chi2PerPoint.validation[third]).not.toBe(whole.chi2PerPoint.validation[third]);
    disposeResult(stopping);
    disposeResult(whole);
  });

  it('should refuse to stop replicas alongside others when none retire', async () => {
    const runcard = await smallClosureRuncard({ datasets: ['CLOSURE_F2P'], epochs: 10 });
    const inputs = await closureInputs(runcard, [1]);
    await expect(
      trainReplicas(runcard, inputs, { stopAlongside: () => Promise.resolve([]) }),
    ).rejects.toThrow(/stopAlongside.*retireEndedReplicas/);
  });

  it('should refuse to retire replicas from a checkpointed fit', async () => {
    const runcard = await smallClosureRuncard({ datasets: ['CLOSURE_F2P'], epochs: 10 });
    const inputs = await closureInputs(runcard, [1]);
    await expect(
      trainReplicas(runcard, inputs, {
        retireEndedReplicas: true,
        checkpoint: { file: '/nonexistent/checkpoint.h5' },
      }),
    ).rejects.toThrow(InvalidArgumentError);
  });
});
