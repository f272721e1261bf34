import { parentPort, workerData } from 'node:worker_threads';
import { runOperatorPart, type OperatorPartJob } from './operator-parts.js';

const job = workerData as OperatorPartJob;
runOperatorPart(job, (step) => {
  const matrices = [step.singlet, step.valence, step.plus, step.minus];
  for (const heavy of step.heavy) matrices.push(heavy.plus, heavy.minus);
  parentPort?.postMessage(
    step,
    matrices.map((matrix) => matrix.buffer as ArrayBuffer),
  );
});
