import { readFile } from 'node:fs/promises';
import { SHARED_DATA } from '@partonfit/testing/shared-data';
import { bench, describe } from 'vitest';
import { applyEvolutionOperator } from '../apply-operator.js';
import { ekoEvolutionOperator } from './eko-evolution-operator.js';
import { parseEkoOperator } from './eko-operator.js';

/**
 * Reading NNPDF's LHCb Drell–Yan EKO (`../shared/data`, 50 x knots, one scale: 8 MB of float64
 * operators in LZ4), turning it into an evolution operator, and applying it to 100 replicas.
 *
 * Run: `npx vitest bench --run --project evolution eko.bench` (repository root).
 */
const file = `${SHARED_DATA}eko/LHCB_DY_13TEV_DIMUON.eko.tar`;
const bytes = new Uint8Array(await readFile(file));
const eko = parseEkoOperator(bytes, file);
const input = { xGrid: eko.inputXGrid, q0: eko.q0, source: 'the benchmark' };
const operator = ekoEvolutionOperator(eko, input);
const replicas = 100;
// the product's cost does not depend on the values
const xf = new Float64Array(replicas * eko.inputXGrid.length * 14).fill(0.1);

describe('the LHCb Drell–Yan EKO: 50 x knots, 1 target scale', () => {
  bench('read the tar (LZ4, npy, metadata)', () => {
    parseEkoOperator(bytes, file);
  });
  bench('turn it into an evolution operator', () => {
    ekoEvolutionOperator(eko, input);
  });
  bench(`apply it to ${replicas} replicas`, () => {
    applyEvolutionOperator(operator, xf, replicas);
  });
});
