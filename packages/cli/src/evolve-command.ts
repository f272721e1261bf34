import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { InputFileError } from '@partonfit/core';
import {
  applyEvolutionOperator,
  lhapdfQGrid,
  writeEvolvedLhapdfSet,
  type TheoryCard,
  type ThresholdKnots,
} from '@partonfit/evolution';
import { readFitReplicasAtQ0, type FitReplicasAtQ0 } from '@partonfit/fit-folder';
import { parse } from 'yaml';
import { defineCommand, UsageError } from './define-command.js';
import { evolutionOperatorWithProgress, orderAndMethod } from './evolution-operator.js';
import { evolveTheoryCard } from './evolve-theory.js';
import { evolveWithEko } from './evolve-with-eko.js';

const USAGE =
  'partonfit evolve <fit folder> [--theory <theory card>] [--q-grid <file> [--threshold-knots nnpdf|matched] | --eko <EKO tar> [--interpolate-x]] [--output <folder>] [--no-cache]';

/**
 * `--threshold-knots`: what the two copies of a heavy-quark threshold scale hold. `nnpdf` (the
 * default): both the nf-flavour PDFs, the heavy quark 0, as NNPDF's sets have them (evolven3fit
 * with APFEL); `matched`: the lower copy the nf-flavour PDFs, the upper one the (nf + 1)-flavour
 * PDFs after the matching.
 */
const THRESHOLD_KNOTS = { nnpdf: 'evolven3fit', matched: 'consistent' } as const satisfies Record<
  string,
  ThresholdKnots
>;

/**
 * What a threshold scale holds without `--threshold-knots`: NNPDF's knots, as NNPDF's sets have
 * them; `partonfit report --q` evolves alike.
 */
export const DEFAULT_THRESHOLD_KNOTS: ThresholdKnots = THRESHOLD_KNOTS.nnpdf;

/** The scales of a `--q-grid` file: a YAML list of Q values in GeV. */
async function qGridOf(file: string): Promise<number[]> {
  const values: unknown = parse(await readFile(file, 'utf8'));
  if (!Array.isArray(values) || !values.every((q) => typeof q === 'number' && q > 0)) {
    throw new InputFileError({ file, problem: 'expected a YAML list of scales Q in GeV' });
  }
  return values as number[];
}

/**
 * Refuses a theory card whose Q0 is not the fit's (its exportgrids' `q20`): the operator evolves
 * from the card's Q0.
 */
function checkCardQ0(fitAtQ0: FitReplicasAtQ0, card: TheoryCard): void {
  if (Math.abs(fitAtQ0.q0 / card.q0 - 1) > 1e-6) {
    throw new InputFileError({
      file: fitAtQ0.gridFile,
      key: 'q20',
      problem: `Q0 = ${fitAtQ0.q0} GeV, but the theory card ${card.file} has Q0 = ${card.q0} GeV`,
    });
  }
}

/**
 * `partonfit evolve <fit folder> [--theory <card>]`: evolves every replica of a fit from Q0
 * (postfit's replicas when present, else nnfit's, as evolven3fit) with the theory card — the
 * `--theory` option, else the one the fit's runcard names (`evolution.theory_card`) — and writes
 * an LHAPDF 6 set `<output>/<fit>` (by default inside the fit folder): member 0 the replica
 * average, NNPDF's Q grid (`lhapdfQGrid`) unless `--q-grid` gives a YAML list of scales, its
 * heavy-quark threshold knots as NNPDF's sets hold them unless `--threshold-knots matched`. The
 * operator is built once (or read from the cache; `--no-cache` neither reads nor writes it) and
 * applied to all replicas in one product. With `--eko <file>` a precomputed EKO evolves them
 * instead, to its own scales ({@link evolveWithEko}).
 */
export const evolveCommand = defineCommand({
  name: 'evolve',
  summary: "evolve a fit's replicas from Q0 and write them as an LHAPDF set",
  usage: USAGE,
  options: {
    theory: { type: 'string' },
    'q-grid': { type: 'string' },
    eko: { type: 'string' },
    'interpolate-x': { type: 'boolean' },
    output: { type: 'string' },
    'no-cache': { type: 'boolean' },
    'threshold-knots': { type: 'string' },
  },
  positionals: 1,
  run: async ({ values, positionals: [folder] }, terminal) => {
    if (values['interpolate-x'] === true && values.eko === undefined) {
      throw new UsageError(
        "--interpolate-x needs --eko <EKO tar>: it puts a fit on the EKO's x-grid",
      );
    }
    const knots = values['threshold-knots'];
    if (knots !== undefined && !Object.hasOwn(THRESHOLD_KNOTS, knots)) {
      throw new UsageError(`--threshold-knots: expected nnpdf or matched, got '${knots}'`);
    }
    if (knots !== undefined && values.eko !== undefined) {
      throw new UsageError(
        "--threshold-knots applies to partonfit's own evolution: an EKO holds its own operators",
      );
    }
    const thresholdKnots =
      knots === undefined
        ? DEFAULT_THRESHOLD_KNOTS
        : THRESHOLD_KNOTS[knots as keyof typeof THRESHOLD_KNOTS];
    const fitFolder = resolve(folder);
    const fit = basename(fitFolder);
    const card = await evolveTheoryCard(fitFolder, values.theory);
    const fitAtQ0 = await readFitReplicasAtQ0(fitFolder);
    checkCardQ0(fitAtQ0, card);
    for (const note of fitAtQ0.notes) terminal.out(`note: ${note}\n`);
    const { source, xGrid, xf, replicas } = fitAtQ0;
    if (values.eko !== undefined) {
      await evolveWithEko(
        card,
        fitAtQ0,
        {
          ekoFile: values.eko,
          interpolateX: values['interpolate-x'] === true,
          qGridFile: values['q-grid'],
          output: resolve(values.output ?? fitFolder),
        },
        terminal,
      );
      return;
    }
    const qGrid =
      values['q-grid'] === undefined ? lhapdfQGrid(card) : await qGridOf(values['q-grid']);
    terminal.out(
      `evolving ${replicas} replica(s) of ${fit} (${source}) from Q0 = ${card.q0} GeV to ` +
        `${qGrid[qGrid.length - 1]} GeV at ${orderAndMethod(card)}, ${qGrid.length} scales\n`,
    );
    const operator = await evolutionOperatorWithProgress(
      card,
      { xGrid, qGrid, thresholdKnots },
      { useCache: values['no-cache'] !== true, command: 'evolve' },
      terminal,
    );
    const evolved = applyEvolutionOperator(operator, xf, replicas);
    const setFolder = await writeEvolvedLhapdfSet(resolve(values.output ?? fitFolder), {
      name: fit,
      description: `partonfit fit ${fit} evolved with ${card.file}`,
      card,
      xGrid,
      qGrid,
      values: evolved,
      replicas,
    });
    terminal.out(`wrote the LHAPDF set ${setFolder} (${replicas + 1} members)\n`);
  },
});
