import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { closureRuncardText } from '@partonfit/testing';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import { fitOnCpu, runCaptured as run } from './cli.fixture.js';

const FK_TABLE = 'theory_200/fastkernel/FK_POSXDQ.dat';
const hasInputs =
  hasSharedData(FK_TABLE, "theory 200's POSXDQ FK table") &&
  hasSharedData('theory_cards/200.yaml', 'theory card 200') &&
  hasSharedData('bundles/SLACP.npz', 'the SLACP bundle');

/**
 * How far `predict` on the evolved set may be from `predict` on the fit, relative to the largest
 * prediction: the set holds the exportgrid's x·f (8 significant digits) at Q0 and is interpolated
 * in x onto the FK table's nodes (cubic in log x), where predict on the fit evaluates the network
 * at the nodes themselves. Measured: 1.9·10⁻⁶ (replica 1) and 2.2·10⁻⁵ (replica 2).
 */
const AGREEMENT = 5e-5;

interface PredictJson {
  q0: number;
  predictions: number[];
}

async function predictJson(...args: string[]): Promise<PredictJson> {
  const { code, out, error } = await run('predict', '--json', ...args);
  if (code !== 0) throw new Error(`predict failed: ${error}`);
  return JSON.parse(out) as PredictJson;
}

/**
 * `predict --pdf <evolved set>` of theory 200's FK_POSXDQ equals `predict --pdf <fit>`: both
 * evaluate the fit at Q0 = 1.65 GeV, where the FK table starts, so the evolution there must be
 * the identity and the set must hold the fit's replicas as they are.
 */
describe.skipIf(!hasInputs)('partonfit predict on the set partonfit evolve wrote', () => {
  let folder: string;
  let fit: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'partonfit-evolve-predict-'));
    vi.stubEnv('XDG_CACHE_HOME', folder);
    // the embedded runcard's network on one real dataset of theory 200 (Q0 = 1.65 GeV), with
    // theory 200's card named by a path relative to the fit folder's runcard.yml
    const text = await closureRuncardText({
      epochs: 30,
      replacements: [
        [
          /dataset_inputs:\n(?: {2}- .*\n)+/,
          `dataset_inputs:\n  - { dataset: SLACP, bundle: ${SHARED_DATA}bundles/SLACP.npz, frac: 0.75 }\n`,
        ],
        [/closuretest:\n(?: {2}.*\n)+/, ''],
        [/positivity:\n {2}posdatasets:\n(?: {4}- .*\n)+/, ''],
        ['theory_card: toyLH-LO', `theory_card: ../theory_200.yaml`],
      ],
    });
    await writeFile(join(folder, 'slac.yml'), text);
    await copyFile(`${SHARED_DATA}theory_cards/200.yaml`, join(folder, 'theory_200.yaml'));
    const fitted = await fitOnCpu(join(folder, 'slac.yml'), '1-2', folder);
    if (fitted.code !== 0) throw new Error(`the fit failed: ${fitted.error}`);
    fit = join(folder, 'slac');
    await writeFile(join(folder, 'q-grid.yaml'), '[1.65, 2.0, 3.0]\n');
    const evolved = await run('evolve', fit, '--q-grid', join(folder, 'q-grid.yaml'));
    if (evolved.code !== 0) throw new Error(`evolve failed: ${evolved.error}`);
  }, 600_000);

  afterAll(async () => {
    vi.unstubAllEnvs();
    await rm(folder, { recursive: true, force: true });
  });

  it('should give the predictions of the fit itself at Q0, replica by replica', async () => {
    const fkTable = `${SHARED_DATA}${FK_TABLE}`;
    for (const replica of ['1', '2']) {
      const direct = await predictJson('--pdf', fit, '--member', replica, '--fktable', fkTable);
      const set = join(fit, 'slac');
      const evolved = await predictJson('--pdf', set, '--member', replica, '--fktable', fkTable);
      expect(evolved.q0).toBe(1.65);
      expect(evolved.predictions).toHaveLength(20);
      const largest = Math.max(...direct.predictions.map(Math.abs));
      const worst = Math.max(
        ...direct.predictions.map((value, n) => Math.abs(evolved.predictions[n] - value)),
      );
      expect(worst).toBeLessThanOrEqual(AGREEMENT * largest);
    }
  });
});
