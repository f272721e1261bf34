import { copyFile, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EVOLUTION_TO_FLAVOUR, rotateFlavours } from '@partonfit/core';
import { toyPdfXf } from '@partonfit/fktables';
import {
  chi2ExpsLogText,
  EXPORT_X_GRID,
  fitFolderPaths,
  formatExportGrid,
  type Chi2ExpsEntry,
} from '@partonfit/fit-folder';
import { CLOSURE_RUNCARD } from '@partonfit/testing';

/**
 * A fit folder `<tmp>/closure/` of `replicas` replicas shaped like a real one without training
 * one: the closure runcard, exportgrids on n3fit's 196-point grid (the toy PDF scaled by
 * 1 ± 5 % per replica), n3fit's JSON and a `chi2exps.log` of `epochs / 100` entries each.
 */
export async function replicaShapedFit(replicas: number, epochs: number): Promise<string> {
  const output = await mkdtemp(join(tmpdir(), 'partonfit-report-'));
  const folder = join(output, 'closure');
  await mkdir(folder, { recursive: true });
  await copyFile(CLOSURE_RUNCARD, join(folder, 'runcard.yml'));
  const toy = rotateFlavours(EVOLUTION_TO_FLAVOUR, toyPdfXf(EXPORT_X_GRID));
  for (let replica = 1; replica <= replicas; replica++) {
    const paths = fitFolderPaths(output, 'closure', replica);
    await mkdir(paths.replicaFolder, { recursive: true });
    const scale = 1 + 0.05 * Math.sin(replica);
    await writeFile(
      paths.exportGrid,
      formatExportGrid({
        replica,
        q20: 2,
        xGrid: EXPORT_X_GRID,
        pdfGrid: toy.map((value) => value * scale),
      }),
    );
    await writeFile(
      paths.json,
      JSON.stringify({
        stop_epoch: epochs,
        best_epoch: epochs - 100,
        chi2: 1 + 0.1 * Math.cos(replica),
        pos_state: 'POS_PASS',
        arc_lengths: [1.1, 1.2, 1.3, 1.0, 1.1],
        integrability: [0.01, 0.01, 0.01, 0.01, 0.01],
      }),
    );
    const log = new Map<number, Chi2ExpsEntry>();
    for (let epoch = 100; epoch <= epochs; epoch += 100) {
      const chi2 = 1 + 100 / epoch;
      log.set(epoch, {
        trainingLoss: chi2,
        validationLoss: chi2 * 1.1,
        validationChi2s: { total: chi2 * 1.1 },
      });
    }
    await writeFile(paths.chi2ExpsLog, chi2ExpsLogText(log));
  }
  return folder;
}
