import { initBackend } from '@partonfit/backend';
import { bench, describe } from 'vitest';
import { closureInputs, smallClosureRuncard } from './training.fixture.js';
import { trainReplicas } from './train-replicas.js';

const BACKENDS = (process.env.PARTONFIT_BENCH_BACKENDS ?? 'wasm,cpu').split(',');
const REPLICAS = (process.env.PARTONFIT_BENCH_REPLICAS ?? '1,10,100').split(',').map(Number);
const EPOCHS = 200;

/**
 * ms per training step of the embedded closure fit (174 points, 50 x nodes, NNPDF4.0 network,
 * four positivity sets, 100-point sum-rule grid), whole steps: forward, three losses, backward,
 * update, stopping. Printed per backend and replica count; the bench's own time is per fit of
 * 200 steps.
 */
describe('training step, embedded closure fit', async () => {
  const runcard = await smallClosureRuncard({ epochs: EPOCHS });
  for (const backend of BACKENDS) {
    for (const replicas of REPLICAS) {
      const inputs = await closureInputs(
        runcard,
        Array.from({ length: replicas }, (_, i) => i + 1),
      );
      bench(
        `${backend}, R = ${replicas}`,
        async () => {
          await initBackend(backend as 'wasm' | 'cpu');
          const result = await trainReplicas(runcard, inputs);
          const perStep = (1000 * result.seconds) / result.epochsRun;
          console.log(
            `${backend} R=${replicas}: ${perStep.toFixed(2)} ms/step, ${((1000 * perStep) / replicas).toFixed(0)} µs per replica-step`,
          );
          result.objective.dispose();
          result.model.dispose();
        },
        { iterations: 1, warmupIterations: 0 },
      );
    }
  }
});
