import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, bench, describe } from 'vitest';
import { loadLhapdfMember, loadLhapdfSet } from '@partonfit/io';
import { SHARED_DATA } from '@partonfit/testing/shared-data';
import { applyEvolutionOperator } from './apply-operator.js';
import { buildEvolutionOperator, type EvolutionOperator } from './evolution-operator.js';
import type { buildEvolutionOperatorInParallel } from './operator-in-parallel.js';
import { evolvePdfs } from './evolve-pdfs.js';
import { cachedEvolutionOperator } from './operator-cache.js';
import { lhapdfQGrid } from './q-grid.js';
import { readTheoryCard, type PerturbativeOrder } from './theory-card.js';
import { toyPdfs, X_GRID } from './toy-proton.fixture.js';

/**
 * Building the evolution operator of theory 200 (NNPDF4.0's 196 x knots and 50 Q knots, from
 * `../shared/data`) cold on one thread and on two (the compiled package's worker threads),
 * applying it to 100 replicas, and evolving 100 replicas directly; then building it into an
 * empty HDF5 cache (from the sources: the build on one thread, and the write) and reading it from
 * there.
 *
 * Run: `npx vitest bench --run --project evolution evolution.bench` (repository root).
 * `PARTONFIT_BENCH_PTO` (default 2) sets the order; `PARTONFIT_BENCH_TOY=1` uses the toy 100-knot
 * x-grid instead of NNPDF's.
 */
const order = Number(process.env.PARTONFIT_BENCH_PTO ?? 2) as PerturbativeOrder;
const replicas = 100;
const card = { ...(await readTheoryCard(`${SHARED_DATA}theory_cards/200.yaml`)), order };
const xGrid =
  process.env.PARTONFIT_BENCH_TOY === '1'
    ? X_GRID
    : (await loadLhapdfMember(await loadLhapdfSet(`${SHARED_DATA}lhapdf/NNPDF40_nnlo_as_01180`), 0))
        .xKnots;
const qGrid = lhapdfQGrid(card);
const n = xGrid.length;
const xf = new Float64Array(replicas * n * 14);
const toy = toyPdfs(1);
if (n === X_GRID.length) for (let r = 0; r < replicas; r++) xf.set(toy, r * n * 14);
const options = { iterations: 1, time: 0, warmupIterations: 0, warmupTime: 0 };
let operator: EvolutionOperator | undefined;
// Worker threads run the compiled package: build it first (npm run build).
const builtPackage = new URL('../dist/index.js', import.meta.url).href;
const built = (await import(builtPackage)) as {
  buildEvolutionOperatorInParallel: typeof buildEvolutionOperatorInParallel;
};

describe(`evolution of theory 200 at PTO ${order}: ${n} x knots, ${qGrid.length} Q knots`, () => {
  bench(
    'build the operator (cold)',
    () => {
      operator = buildEvolutionOperator(card, { xGrid, qGrid });
    },
    options,
  );
  bench(
    'build the operator (cold) in two worker threads',
    async () => {
      await built.buildEvolutionOperatorInParallel(card, { xGrid, qGrid });
    },
    options,
  );
  bench(
    `apply it to ${replicas} replicas`,
    () => {
      if (operator !== undefined) applyEvolutionOperator(operator, xf, replicas);
    },
    { ...options, iterations: 3 },
  );
  bench(
    `evolve ${replicas} replicas directly`,
    () => {
      evolvePdfs(card, { xGrid, qGrid }, xf, replicas);
    },
    options,
  );
});

const cacheFolder = await mkdtemp(join(tmpdir(), 'partonfit-operator-bench-'));
afterAll(() => rm(cacheFolder, { recursive: true, force: true }));

describe(`the operator cache of theory 200 at PTO ${order}: ${n} x knots, ${qGrid.length} Q knots`, () => {
  bench(
    'build the operator and write it to the cache (cold)',
    async () => {
      await rm(cacheFolder, { recursive: true, force: true });
      await cachedEvolutionOperator(card, { xGrid, qGrid }, { cacheFolder });
    },
    options,
  );
  bench(
    'build the operator from the cache',
    async () => {
      const { fromCache } = await cachedEvolutionOperator(
        card,
        { xGrid, qGrid },
        {
          cacheFolder,
        },
      );
      if (!fromCache) throw new Error('expected the operator in the cache');
    },
    { ...options, iterations: 3 },
  );
});
