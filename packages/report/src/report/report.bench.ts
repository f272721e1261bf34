import { join } from 'node:path';
import { bench, describe } from 'vitest';
import { buildReport } from './build-report.js';
import { replicaShapedFit } from './report.fixture.js';
import { writeReport } from './write-report.js';

const REPLICAS = Number(process.env.PARTONFIT_BENCH_REPLICAS ?? '100');

/**
 * Building and writing the report of a 100-replica fit shaped like the embedded closure fit
 * (exportgrids on 196 x points, 8,000 epochs of logs) — every section but those that rebuild the
 * replicas from their weights (χ² and data–theory: `partonfit predict`'s cost).
 */
describe(`report of a ${REPLICAS}-replica fit`, async () => {
  const folder = await replicaShapedFit(REPLICAS, 8000);
  bench(
    'buildReport + writeReport (no predictions)',
    async () => {
      const start = performance.now();
      const report = await buildReport(folder, { predictions: false });
      const built = performance.now();
      await writeReport(report, join(folder, 'report'));
      const end = performance.now();
      console.log(
        `${REPLICAS} replicas: built in ${(built - start).toFixed(0)} ms, written in ${(end - built).toFixed(0)} ms`,
      );
    },
    { iterations: 3, warmupIterations: 1 },
  );
});
