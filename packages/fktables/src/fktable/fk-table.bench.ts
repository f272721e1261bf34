import { bench, describe } from 'vitest';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import {
  ATLAS_TTBAR_FILE,
  ATLAS_TTBAR_TAR_FILE,
  POSXDQ_FILE,
  POSXDQ_TAR_FILE,
  readSharedText,
} from './legacy-fk-table.fixture.js';
import { loadFkTable } from './load-fk-table.js';
import { parseLegacyFkTable } from './parse-legacy-fk-table.js';

/**
 * Reading the real legacy tables: parsing text already in memory, and loading from disk plain
 * and as NNPDF ships them (gzip tar). The ATLAS table is 1.6 MB of text (754 rows of 199
 * numbers), POSXDQ 0.2 MB (878 rows of 16).
 */
const options = { iterations: 20, warmupIterations: 3, time: 0 };

describe.skipIf(!hasSharedData('theory_200', 'FK-table benchmarks'))('legacy FK tables', () => {
  const posxdq = readSharedText(POSXDQ_FILE);
  const atlas = readSharedText(ATLAS_TTBAR_FILE);
  bench(
    'parse FK_POSXDQ text',
    () => void parseLegacyFkTable(posxdq, { file: POSXDQ_FILE }),
    options,
  );
  bench(
    'parse FK_ATLASTTBARTOT13TEV text',
    () => void parseLegacyFkTable(atlas, { file: ATLAS_TTBAR_FILE }),
    options,
  );
  bench(
    'load FK_POSXDQ plain',
    async () => {
      await loadFkTable(POSXDQ_FILE);
    },
    options,
  );
  bench(
    'load FK_POSXDQ gzip tar',
    async () => {
      await loadFkTable(POSXDQ_TAR_FILE);
    },
    options,
  );
  bench(
    'load FK_ATLASTTBARTOT13TEV plain',
    async () => {
      await loadFkTable(ATLAS_TTBAR_FILE);
    },
    options,
  );
  bench(
    'load FK_ATLASTTBARTOT13TEV gzip tar',
    async () => {
      await loadFkTable(ATLAS_TTBAR_TAR_FILE);
    },
    options,
  );
});

/**
 * A table of the size of NNPDF's largest: the ATLAS rows repeated for
 * `PARTONFIT_BENCH_FK_POINTS` data points (60 points ≈ 97 MB of text). Off unless the variable
 * is set.
 */
const points = Number(process.env.PARTONFIT_BENCH_FK_POINTS ?? 0);

describe.skipIf(points === 0 || !hasSharedData('theory_200', 'large FK-table benchmark'))(
  `legacy FK table of ${points} points`,
  () => {
    const atlas = readSharedText(ATLAS_TTBAR_FILE);
    const start = atlas.indexOf('\n', atlas.indexOf('{FastKernel')) + 1;
    const rows = atlas.slice(start).trimEnd();
    const header = atlas.slice(0, start).replace('*NDATA: 1', `*NDATA: ${points}`);
    const body = Array.from({ length: points }, (_, n) => rows.replace(/^0\t/gm, `${n}\t`));
    const text = `${header}${body.join('\n')}\n`;
    bench(
      `parse ${(text.length / 1e6).toFixed(0)} MB of text`,
      () => void parseLegacyFkTable(text, { file: 'large' }),
      { iterations: 2, warmupIterations: 1, time: 0 },
    );
  },
);

/** Reading the theory-208 PineAPPL table: 75 kB of LZ4, 273 kB of bincode, 42 × 9 × 50 values. */
describe.skipIf(!hasSharedData('theory_208/fastkernel', 'PineAPPL benchmark'))(
  'PineAPPL FK tables',
  () => {
    const file = `${SHARED_DATA}theory_208/fastkernel/HERA_CC_318GEV_EM_SIGMARED.pineappl.lz4`;
    bench(
      'load HERA_CC_318GEV_EM_SIGMARED.pineappl.lz4',
      async () => {
        await loadFkTable(file);
      },
      options,
    );
  },
);
