import { cp, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createMatrix,
  InputFileError,
  invertSymmetricPositiveDefinite,
  parseDatasetInput,
  parseRuncard,
  RuncardError,
  type CovarianceChi2,
} from '@partonfit/core';
import {
  closureDatasetsAtScale,
  scaleVariedClosureKinematics,
} from '../closure/scale-varied-closure.js';
import { toyPdfXf } from '../closure/toy-pdf.js';
import { covarianceMatrix } from '../covariance/covariance-matrix.js';
import { formatCovarianceTable } from '../theory-covariance/covariance-table.js';
import { scaleCombinationsOf, scaleLabel } from '../theory-covariance/point-prescriptions.js';
import { resolveRuncardDatasets } from './build-fit-inputs.js';
import { writeTemporaryRuncard } from './fit-inputs.fixture.js';
import { fitTheoryCovariance, theoryCovarianceNeeds } from './fit-theory-covariance.js';
import { inputPaths } from './input-paths.js';
import { prepareFitInputs } from './prepare-fit-inputs.js';
import { embeddedObservableAtScale, resolveDataset } from './resolve-dataset.js';
import {
  centralTableValue,
  SCALE_VARIED_SETS,
  scaleFactor,
  writeScaleVariedTheories,
  type ScaleVariedTheories,
} from '@partonfit/testing/scale-varied-theories';

let theories: ScaleVariedTheories;
beforeAll(async () => {
  theories = await writeScaleVariedTheories(scaleCombinationsOf(['7 point']));
});
afterAll(async () => theories.remove());

/** The theorycovmatconfig block with the fixture's theories and `extra` keys. */
function config(extra: string, ids: readonly number[] = theories.theoryIds): string {
  return `theorycovmatconfig:
  point_prescriptions: ['7 point']
  theoryids: [${ids.join(', ')}]
  pdf: toyLH
${extra}`;
}

async function prepare(theorycovmatconfig: string) {
  const text = theories.runcard(theorycovmatconfig);
  const file = await writeTemporaryRuncard(text);
  const { runcard } = parseRuncard(text, { file });
  return {
    ...(await prepareFitInputs(runcard, {
      runcardFile: file,
      replicas: [1, 2],
      cacheFolder: null,
    })),
    runcard,
    file,
  };
}

async function rejection(theorycovmatconfig: string): Promise<Error> {
  return prepare(theorycovmatconfig).then(
    () => new Error('expected a rejection'),
    (error: unknown) => error as Error,
  );
}

/**
 * The toy PDF's central prediction of each point of a set, from the table's formula: a legacy
 * table multiplies x·f, a PineAPPL one f = x·f / x.
 */
function centralPredictions(set: (typeof SCALE_VARIED_SETS)[number]): number[] {
  const xGrid = Float64Array.of(0.01, 0.05, 0.1, 0.3, 0.6);
  const xf = toyPdfXf(xGrid);
  const perX = (a: number) => (set.format === 'pineappl' ? 1 / xGrid[a] : 1);
  return set.points.map((_, n) =>
    [...xGrid.keys()].reduce(
      (sum, a) =>
        sum +
        perX(a) *
          (centralTableValue(n, a, 0) * xf[a * 14 + 1] +
            centralTableValue(n, a, 1) * xf[a * 14 + 2]),
      0,
    ),
  );
}

describe('the theory covariance of a fit (theorycovmatconfig)', () => {
  it('is the 7-point matrix of the shifts of each theory folder, legacy and PineAPPL', async () => {
    const { inputs } = await prepare(config('  use_thcovmat_in_fitting: true'));
    const theory = inputs.theoryCovariance;
    expect(theory?.theories).toEqual(
      theories.combinations.map((scales, c) => ({
        scales: scaleLabel(scales),
        theoryId: 9000 + c,
      })),
    );
    expect(theory?.points.map((point) => point.group)).toEqual([
      ...Array<string>(4).fill('DIS NC'),
      ...Array<string>(3).fill('DIS CC'),
    ]);
    const [nc, cc] = SCALE_VARIED_SETS;
    const predictions = [centralPredictions(nc), centralPredictions(cc)];
    // Δ_v = (factor_v − 1) · T: varied combinations in the 7 point's order
    const varied = theories.combinations.slice(1);
    const epsilon = (set: (typeof SCALE_VARIED_SETS)[number]) =>
      varied.map((scales) => scaleFactor(set, scales) - 1);
    const [e1, e2] = [epsilon(nc), epsilon(cc)];
    const same = (1 / 3) * e1.reduce((sum, e) => sum + e * e, 0);
    const cross =
      (1 / 6) *
      (2 * (e1[0] * e2[0] + e1[1] * e2[1]) +
        (e1[2] + e1[3]) * (e2[2] + e2[3]) +
        (e1[4] + e1[5]) * (e2[4] + e2[5]));
    const s = theory?.covariance ?? new Float64Array();
    expect(s[1 * 7 + 3] / (same * predictions[0][1] * predictions[0][3])).toBeCloseTo(1, 10);
    expect(s[2 * 7 + 5] / (cross * predictions[0][2] * predictions[1][1])).toBeCloseTo(1, 10);
    expect(s[5 * 7 + 2]).toBe(s[2 * 7 + 5]);

    // the χ² of the fit takes C + S as one block
    const { measured } = await resolveRuncardDatasets(
      parseRuncard(theories.runcard('')).runcard,
      inputPaths(parseRuncard(theories.runcard('')).runcard, join(theories.folder, 'r.yml')),
    );
    const total = covarianceMatrix(measured.map((dataset) => dataset.commonData));
    total.data.forEach((_, k) => (total.data[k] += s[k]));
    const experimental = inputs.experimental as CovarianceChi2;
    expect(experimental.blocks.map((block) => block.size)).toEqual([7]);
    const inverse = invertSymmetricPositiveDefinite(total).data;
    const largest = Math.max(...inverse.map(Math.abs));
    experimental.blocks[0].weights.forEach((weight, k) => {
      expect(Math.abs(weight - inverse[k]) / largest).toBeLessThan(1e-6);
    });
  });

  it('enters the pseudodata only with use_thcovmat_in_sampling, the χ² only with use_thcovmat_in_fitting', async () => {
    const neither = await prepare(config(''));
    const sampling = await prepare(config('  use_thcovmat_in_sampling: true'));
    const fitting = await prepare(config('  use_thcovmat_in_fitting: true'));
    expect(fitting.inputs.pseudodata).toEqual(neither.inputs.pseudodata);
    expect(sampling.inputs.pseudodata).not.toEqual(neither.inputs.pseudodata);
    expect((sampling.inputs.experimental as CovarianceChi2).blocks.map((b) => b.size)).toEqual([
      4, 3,
    ]);
    expect(sampling.inputs.theoryCovariance).toMatchObject({ inFitting: false, inSampling: true });
  });

  it('gives each dataset its own block of C + S, (C_dd + S_dd)⁻¹, kept through the cache', async () => {
    const text = theories.runcard(config('  use_thcovmat_in_fitting: true'));
    const file = await writeTemporaryRuncard(text);
    const { runcard } = parseRuncard(text, { file });
    const cacheFolder = join(theories.folder, 'cache-with-s-in-fitting');
    const options = { runcardFile: file, replicas: [1, 2], cacheFolder };
    const built = await prepareFitInputs(runcard, options);
    await built.cacheWritten;
    const { inputs } = built;
    const s = inputs.theoryCovariance?.covariance ?? new Float64Array();
    // C of the fixture: stat 5 % uncorrelated, sys_norm 2 % correlated within each dataset
    const central = inputs.centralData;
    const covariance = (i: number, j: number) =>
      (i === j ? (0.05 * central[i]) ** 2 : 0) + 0.02 * central[i] * 0.02 * central[j];
    expect(inputs.experimentalByDataset.blocks.map(({ offset, size }) => [offset, size])).toEqual([
      [0, 4],
      [4, 3],
    ]);
    for (const { offset, size, weights } of inputs.experimentalByDataset.blocks) {
      const points = Array.from({ length: size }, (_, i) => offset + i);
      const block = points.flatMap((i) => points.map((j) => covariance(i, j) + s[i * 7 + j]));
      const inverse = invertSymmetricPositiveDefinite(
        createMatrix(size, size, Float64Array.from(block)),
      ).data;
      const largest = Math.max(...inverse.map(Math.abs));
      weights.forEach((weight, k) => {
        expect(Math.abs(weight - inverse[k]) / largest).toBeLessThan(1e-6);
      });
    }
    const cached = await prepareFitInputs(runcard, options);
    expect(cached.cached).toBe(true);
    expect(cached.inputs.experimentalByDataset).toEqual(inputs.experimentalByDataset);
  });

  it('shares the inverses of datasets that are blocks of their own, also from the cache', async () => {
    const text = theories.runcard(config('  use_thcovmat_in_sampling: true'));
    const file = await writeTemporaryRuncard(text);
    const { runcard } = parseRuncard(text, { file });
    const cacheFolder = join(theories.folder, 'cache-with-s-in-sampling');
    const options = { runcardFile: file, replicas: [1], cacheFolder };
    await (
      await prepareFitInputs(runcard, options)
    ).cacheWritten;
    const cached = await prepareFitInputs(runcard, options);
    expect(cached.cached).toBe(true);
    const { experimental, experimentalByDataset } = cached.inputs;
    experimentalByDataset.blocks.forEach((block, d) => {
      expect(block.weights).toBe(experimental.blocks[d].weights);
    });
  });

  it('reads a user covariance in validphys’s layout, alone or added to the scale variations', async () => {
    const { inputs } = await prepare(config(''));
    const theory = inputs.theoryCovariance;
    if (theory === undefined) throw new Error('no theory covariance');
    const file = join(theories.folder, 'user_covmat.csv');
    await writeFile(
      file,
      formatCovarianceTable({
        points: theory.points,
        covariance: createMatrix(7, 7, theory.covariance),
      }),
    );
    expect(theory.uncheckedTheories).toEqual([]);
    const user = await prepare(`theorycovmatconfig:\n  user_covmat_path: ${file}\n`);
    user.inputs.theoryCovariance?.covariance.forEach((value, k) => {
      expect(value).toBeCloseTo(theory.covariance[k], 14);
    });
    const both = await prepare(config(`  user_covmat_path: ${file}`));
    both.inputs.theoryCovariance?.covariance.forEach((value, k) => {
      expect(value).toBeCloseTo(2 * theory.covariance[k], 14);
    });
    const scaled = await prepare(config(`  user_covmat_path: ${file}\n  mult_factor: 2.5`));
    expect(scaled.inputs.theoryCovariance?.userCovarianceFactor).toBe(2.5);
    scaled.inputs.theoryCovariance?.covariance.forEach((value, k) => {
      expect(value / 3.5).toBeCloseTo(theory.covariance[k], 12);
    });
    const switchedOff = await prepare(
      config(`  user_covmat_path: ${file}\n  use_user_uncertainties: false`),
    );
    expect(switchedOff.inputs.theoryCovariance?.userCovariance).toBeUndefined();
    expect(switchedOff.inputs.theoryCovariance?.covariance).toEqual(theory.covariance);
  });

  it('refuses mult_factor and validphys 4.0’s switches where they contradict the other keys', async () => {
    const messages = await Promise.all(
      [
        config('  mult_factor: 2'),
        config('  use_user_uncertainties: true'),
        config('  use_scalevar_uncertainties: false'),
        `theorycovmatconfig:\n  user_covmat_path: user.csv\n  use_scalevar_uncertainties: true\n`,
        `theorycovmatconfig:\n  user_covmat_path: user.csv\n  use_user_uncertainties: false\n`,
        config(`  point_prescription: '3 point'\n  user_covmat_path: user.csv`).replace(
          "  point_prescriptions: ['7 point']\n",
          '',
        ),
      ].map(async (text) => (await rejection(text)).message),
    );
    expect(messages).toEqual([
      expect.stringMatching(/mult_factor: multiplies the user covariance: give user_covmat_path/),
      expect.stringMatching(/use_user_uncertainties: is true but no user_covmat_path/),
      expect.stringMatching(/use_scalevar_uncertainties: is false but point prescriptions/),
      expect.stringMatching(/use_scalevar_uncertainties: is true but no point_prescriptions/),
      expect.stringMatching(/use_user_uncertainties: is false, which leaves user_covmat_path out/),
      expect.stringMatching(
        /use_user_uncertainties: is needed beside user_covmat_path in a validphys 4\.0 runcard/,
      ),
    ]);
  });

  it('refuses a wrong number of theories, a central theory other than the fit’s, a missing pdf', async () => {
    const few = await rejection(config('', theories.theoryIds.slice(0, 5)));
    expect(RuncardError.isInstance(few)).toBe(true);
    expect(few.message).toMatch(
      /theorycovmatconfig\.theoryids.*7 point needs 7 theories.*\(1, 1\) \(2, 1\) \(0\.5, 1\).*got 5/s,
    );
    const central = await rejection(config('', [9001, 9000, ...theories.theoryIds.slice(2)]));
    expect(central.message).toMatch(/theoryids\[0\].*theory\.theoryid: 9000.*got 9001/s);
    const noPdf = await rejection(
      `theorycovmatconfig:\n  point_prescriptions: ['7 point']\n  theoryids: [${theories.theoryIds.join(', ')}]\n`,
    );
    expect(noPdf.message).toMatch(/theorycovmatconfig\.pdf.*is needed/s);
  });

  it('refuses theoryids whose tables are at other scales than their position: two swapped', async () => {
    // 9001 is (2, 1) and 9002 (½, 1): swapped, position 1 gets a theory at k_F = ½
    const [central, up, down, ...rest] = theories.theoryIds;
    const swapped = await rejection(config('', [central, down, up, ...rest]));
    expect(RuncardError.isInstance(swapped)).toBe(true);
    expect(swapped.message).toMatch(
      /theorycovmatconfig\.theoryids\[1\]: theory 9002 has the scales \(k_F, k_R\) = \(0\.5, 1\) \(XIF, XIR of .*theory_9002.*\), but position 1 needs \(2, 1\)/s,
    );
    // the renormalisation scale too: 9003 (1, 2) and 9004 (1, ½) swapped
    const ids = [...theories.theoryIds];
    [ids[3], ids[4]] = [ids[4], ids[3]];
    const renormalisation = await rejection(config('', ids));
    expect(renormalisation.message).toMatch(
      /theoryids\[3\]: theory 9004 has the scales \(k_F, k_R\) = \(1, 0\.5\).*position 3 needs \(1, 2\)/s,
    );
  });

  it.each(['none', 'central'] as const)(
    'cannot check tables that do not say their own theory’s scales (%s): takes their theories as listed',
    async (tableCards) => {
      const silent = await writeScaleVariedTheories(scaleCombinationsOf(['3f point']), {
        tableCards,
      });
      try {
        const covariance = async (ids: readonly number[]) => {
          const text = silent.runcard(
            `theorycovmatconfig:\n  point_prescriptions: ['3f point']\n  theoryids: [${ids.join(', ')}]\n  pdf: toyLH\n`,
          );
          const file = await writeTemporaryRuncard(text);
          const { inputs } = await prepareFitInputs(parseRuncard(text, { file }).runcard, {
            runcardFile: file,
            replicas: [1],
            cacheFolder: null,
          });
          return inputs.theoryCovariance;
        };
        // (2, 1) and (½, 1) swapped: not refused; the 3f point's S, ½ Σ± Δ±Δ±ᵀ, does not see it
        const ordered = await covariance([9000, 9001, 9002]);
        const swapped = await covariance([9000, 9002, 9001]);
        expect(ordered?.covariance[0]).toBeGreaterThan(0);
        expect(swapped?.covariance).toEqual(ordered?.covariance);
        // copied with the central card, 9001 and 9002 say 9000's scales, not theirs
        expect(ordered?.uncheckedTheories).toEqual(
          tableCards === 'central' ? [9001, 9002] : [9000, 9001, 9002],
        );
      } finally {
        await silent.remove();
      }
    },
  );

  it('refuses a theory listed twice in theoryids', async () => {
    const ids = [...theories.theoryIds];
    ids[2] = ids[1];
    const twice = await rejection(config('', ids));
    expect(RuncardError.isInstance(twice)).toBe(true);
    expect(twice.message).toMatch(
      /theorycovmatconfig\.theoryids\[2\]: theory 9001 is also theoryids\[1\]; each scale combination .* needs a theory of its own/s,
    );
  });

  it('refuses a dataset without nnpdf31_process, and labels its points UNKNOWN with a user covariance only', async () => {
    // a copy of the commondata whose TOY_CC set has no process: its type DIS_CC must not stand in
    const commondata = join(theories.folder, 'commondata-without-process');
    await cp(theories.commondata, commondata, { recursive: true });
    const metadata = join(commondata, 'TOY_CC', 'metadata.yaml');
    await writeFile(
      metadata,
      (await readFile(metadata, 'utf8')).replace('  nnpdf31_process: DIS CC\n', ''),
    );
    const runcard = (theorycovmatconfig: string) =>
      theories.runcard(theorycovmatconfig).replace(theories.commondata, commondata);
    const text = runcard(config(''));
    const file = await writeTemporaryRuncard(text);
    const { runcard: parsed } = parseRuncard(text, { file });
    const error = await prepareFitInputs(parsed, {
      runcardFile: file,
      replicas: [1],
      cacheFolder: null,
    }).then(
      () => new Error('expected a rejection'),
      (reason: unknown) => reason as Error,
    );
    expect(RuncardError.isInstance(error)).toBe(true);
    expect(error.message).toMatch(
      /dataset_inputs\[1\]\.dataset: TOY_CC_F2 has no nnpdf31_process.*looked for nnpdf_metadata\.nnpdf31_process in .*TOY_CC\/metadata\.yaml/s,
    );
    expect(error.message).not.toContain('dataset_inputs[0]');

    const { inputs } = await prepare(config(''));
    const s = inputs.theoryCovariance;
    if (s === undefined) throw new Error('no theory covariance');
    const table = join(theories.folder, 'user_for_unknown.csv');
    await writeFile(
      table,
      formatCovarianceTable({ points: s.points, covariance: createMatrix(7, 7, s.covariance) }),
    );
    const userText = runcard(`theorycovmatconfig:\n  user_covmat_path: ${table}\n`);
    const userFile = await writeTemporaryRuncard(userText);
    const user = await prepareFitInputs(parseRuncard(userText, { file: userFile }).runcard, {
      runcardFile: userFile,
      replicas: [1],
      cacheFolder: null,
    });
    expect(user.inputs.theoryCovariance?.points.map((point) => point.group)).toEqual([
      ...Array<string>(4).fill('DIS NC'),
      ...Array<string>(3).fill('UNKNOWN'),
    ]);
  });

  it('names the folder of a theory that is not there, with the command that gets it', async () => {
    const error = await rejection(config('', [...theories.theoryIds.slice(0, 6), 9099]));
    expect(InputFileError.isInstance(error)).toBe(true);
    expect(error.message).toContain(join(theories.theories, 'theory_9099'));
    expect(error.message).toContain('partonfit get theory 9099');
  });

  it('refuses a user covariance whose points are not the fitted ones, or that is not positive semi-definite', async () => {
    const { inputs } = await prepare(config(''));
    const theory = inputs.theoryCovariance;
    if (theory === undefined) throw new Error('no theory covariance');
    const shortFile = join(theories.folder, 'short.csv');
    await writeFile(
      shortFile,
      formatCovarianceTable({
        points: theory.points.slice(0, 3),
        covariance: createMatrix(3, 3, Float64Array.of(1, 0, 0, 0, 1, 0, 0, 0, 1)),
      }),
    );
    const short = await rejection(`theorycovmatconfig:\n  user_covmat_path: ${shortFile}\n`);
    expect(InputFileError.isInstance(short)).toBe(true);
    expect(short.message).toMatch(/short\.csv.*TOY_NC_F2.*no row for fitted point 3/s);
    const negative = createMatrix(7, 7);
    for (let i = 0; i < 7; i++) negative.data[i * 8] = i === 4 ? -1 : 1;
    const negativeFile = join(theories.folder, 'negative.csv');
    await writeFile(
      negativeFile,
      formatCovarianceTable({ points: theory.points, covariance: negative }),
    );
    const error = await rejection(`theorycovmatconfig:\n  user_covmat_path: ${negativeFile}\n`);
    expect(error.message).toMatch(
      /negative\.csv.*not positive semi-definite.*lowest eigenvalue is -1\.000e\+0/s,
    );
  });
});

describe('the theory covariance of the embedded closure data (examples/closure-mhou.yml)', () => {
  it('is the 7-point matrix of the toy PDF’s shifts at μF = Q/2 and 2Q, zero at Q0', async () => {
    const file = fileURLToPath(new URL('../../../../examples/closure-mhou.yml', import.meta.url));
    const { runcard } = parseRuncard(await readFile(file, 'utf8'), { file });
    const { inputs } = await prepareFitInputs(runcard, {
      runcardFile: file,
      replicas: [1],
      cacheFolder: null,
    });
    const theory = inputs.theoryCovariance;
    if (theory === undefined) throw new Error('no theory covariance');
    const n = inputs.ndata;
    expect(n).toBe(250);
    const atQ0 = 174;
    // the datasets at Q0 have no shift: their rows are zero
    expect(theory.covariance.subarray(0, atQ0 * n).every((value) => value === 0)).toBe(true);
    // Δ± = T(k_F = 2 or ½) − T(1) of the toy PDF; at LO the renormalisation scale does not enter,
    // so Δ(2, 2) = Δ(2, 1) and Δ(1, k_R) = 0
    const central = closureDatasetsAtScale({ factorisationScaleRatio: 1 }).map(
      (dataset) => dataset.toyPredictionsAtScale,
    );
    const shifts = (ratio: number) =>
      closureDatasetsAtScale({ factorisationScaleRatio: ratio }).flatMap((dataset, d) =>
        Array.from(dataset.toyPredictionsAtScale, (value, i) => ({
          value: value - (central[d]?.[i] ?? Number.NaN),
          process: dataset.process,
        })),
      );
    const up = shifts(2);
    const down = shifts(0.5);
    const entry = (i: number, j: number) => {
      const [a, b] = [i - atQ0, j - atQ0];
      if (up[a].process === up[b].process) {
        return (2 / 3) * (up[a].value * up[b].value + down[a].value * down[b].value);
      }
      return (
        (2 * (up[a].value * up[b].value + down[a].value * down[b].value) +
          (up[a].value + down[a].value) * (up[b].value + down[b].value)) /
        6
      );
    };
    // F2ᵖ point 0 with itself, with F2ᵈ point 3 (both DIS NC), with ν F2 point 5 (DIS CC)
    for (const [i, j] of [
      [atQ0, atQ0],
      [atQ0, atQ0 + 24 + 3],
      [atQ0, atQ0 + 44 + 5],
      [n - 1, atQ0 + 2],
    ]) {
      expect(theory.covariance[i * n + j] / entry(i, j)).toBeCloseTo(1, 10);
    }
    expect(theory.points[atQ0]).toEqual({ group: 'DIS NC', dataset: 'CLOSURE_F2P_Q', id: 0 });
    expect(theory.points[n - 1]).toMatchObject({ group: 'DIS CC', dataset: 'CLOSURE_NU_XF3_Q' });
  });
});

describe('what a theory covariance needs (theoryCovarianceNeeds)', () => {
  it('lists no missing theory for a user covariance alone, whatever theoryids says', async () => {
    const text = theories.runcard(
      `theorycovmatconfig:\n  user_covmat_path: user.csv\n  theoryids: [9000, 9099]\n`,
    );
    const file = await writeTemporaryRuncard(text);
    const { runcard } = parseRuncard(text, { file });
    expect(theoryCovarianceNeeds(runcard, inputPaths(runcard, file))).toMatchObject({
      prescriptions: [],
      missingTheories: [],
      unvariedDatasets: [],
    });
    const varied = theories.runcard(config('', [...theories.theoryIds.slice(0, 6), 9099]));
    const variedFile = await writeTemporaryRuncard(varied);
    const variedRuncard = parseRuncard(varied, { file: variedFile }).runcard;
    expect(
      theoryCovarianceNeeds(variedRuncard, inputPaths(variedRuncard, variedFile))?.missingTheories,
    ).toEqual([9099]);
  });
});

describe('the theory covariance of the embedded closure data with cuts', () => {
  const text = `
dataset_inputs:
  - { dataset: CLOSURE_F2P, frac: 0.75 }
  - { dataset: CLOSURE_F2P_Q, frac: 0.75 }
  - { dataset: CLOSURE_NU_F2_Q, frac: 0.75 }
datacuts: { q2min: 100 }
theorycovmatconfig:
  point_prescriptions: ['3f point']
  pdf: toyLH
trvlseed: 3
nnseed: 2
mcseed: 1
parameters:
  nodes_per_layer: [8, 8, 8]
  activation_per_layer: [tanh, tanh, linear]
  optimizer: { optimizer_name: Nadam }
  epochs: 20
  stopping_patience: 0.1
fitting:
  fitbasis: EVOL
  basis:
${['sng', 'g', 'v', 'v3', 'v8', 't3', 't8', 't15'].map((fl) => `    - { fl: ${fl}, smallx: [1.0, 1.1], largex: [1.5, 3.0] }`).join('\n')}
`;

  it('keeps the points q2min keeps, at every scale, with the shifts of those points', async () => {
    const file = await writeTemporaryRuncard(text);
    const { runcard } = parseRuncard(text, { file });
    const paths = inputPaths(runcard, file);
    const { measured } = await resolveRuncardDatasets(runcard, paths);
    const kept = [24, 16].map((points) =>
      Array.from(scaleVariedClosureKinematics(points).q2.entries())
        .filter(([, q2]) => q2 > 100)
        .map(([n]) => n),
    );
    expect(kept.map((points) => points.length)).toEqual([11, 7]);
    expect(measured.map((dataset) => Array.from(dataset.commonData.pointIndices))).toEqual([
      [...Array(30).keys()],
      ...kept,
    ]);
    const computed = await fitTheoryCovariance(runcard, paths, measured, () => undefined);
    const theory = computed?.theory;
    if (theory === undefined) throw new Error('no theory covariance');
    const n = 30 + 11 + 7;
    expect(theory.points.map((point) => point.id).slice(30)).toEqual(kept.flat());
    // Δ± = T(k_F = 2 or ½) − T(1) of the toy PDF at the points before cuts; the 3f point's S is
    // ½ (Δ+_i Δ+_j + Δ−_i Δ−_j) within and across processes
    const [f2p, nuF2] = [0, 2];
    const at = (ratio: number, d: number) =>
      closureDatasetsAtScale({ factorisationScaleRatio: ratio })[d].toyPredictionsAtScale;
    const shift = (ratio: number, d: number, point: number) =>
      at(ratio, d)[point] - at(1, d)[point];
    const entry = (d1: number, p1: number, d2: number, p2: number) =>
      0.5 * (shift(2, d1, p1) * shift(2, d2, p2) + shift(0.5, d1, p1) * shift(0.5, d2, p2));
    // the first kept F2ᵖ point with itself and with the last kept ν F2 point
    const [i, j] = [30, n - 1];
    const [p, q] = [kept[0][0], kept[1].at(-1) ?? -1];
    expect(theory.covariance[i * n + i] / entry(f2p, p, f2p, p)).toBeCloseTo(1, 10);
    expect(theory.covariance[i * n + j] / entry(f2p, p, nuF2, q)).toBeCloseTo(1, 10);
    // the closure data at Q0 have no shift
    expect(theory.covariance.subarray(0, 30 * n).every((value) => value === 0)).toBe(true);
    expect(theory.points[0]).toEqual({ group: 'DIS NC', dataset: 'CLOSURE_F2P', id: 0 });
  });

  it('takes a dataset at Q0 as it is, and refuses a name that is not embedded', async () => {
    const paths = inputPaths(parseRuncard(text).runcard, '/tmp/runcard.yml');
    const cuts = { q2min: 100, w2min: 12.5 };
    const atQ0 = await resolveDataset(parseDatasetInput('CLOSURE_XG'), paths, cuts);
    expect(embeddedObservableAtScale(atQ0, 2)).toBe(atQ0.observable);
    expect(atQ0.commonData.nnpdf31Process).toBe('PDF');
    expect(() => embeddedObservableAtScale({ ...atQ0, name: 'CLOSURE_NOPE' }, 2)).toThrow(
      /CLOSURE_NOPE: no such embedded dataset; there are CLOSURE_F2P, /,
    );
  });
});
