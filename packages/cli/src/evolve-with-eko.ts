import { FLAVOUR_BASIS, InputFileError } from '@partonfit/core';
import {
  applyEvolutionOperator,
  ekoEvolutionOperator,
  interpolateReplicas,
  readEkoOperator,
  strongCouplingOfTheory,
  writeEvolvedLhapdfSet,
  type EkoOperator,
  type TheoryCard,
} from '@partonfit/evolution';
import type { FitReplicasAtQ0 } from '@partonfit/fit-folder';
import { UsageError } from './define-command.js';
import type { Terminal } from './terminal.js';

/** Largest relative difference accepted between the card's αs and the EKO's at its scales. */
const ALPHA_S_TOLERANCE = 1e-4;

/** How `partonfit evolve` was asked to use an EKO. */
export interface EkoRequest {
  /** `--eko`: the EKO tar. */
  readonly ekoFile: string;
  /** `--interpolate-x`: interpolate the replicas onto the EKO's input x-grid first. */
  readonly interpolateX: boolean;
  /** `--q-grid`, which an EKO excludes. */
  readonly qGridFile: string | undefined;
  /** The folder that receives the set `<output>/<fit>`. */
  readonly output: string;
}

/**
 * The replicas on the EKO's input x-grid: as they are, or interpolated (log-x Lagrange, degree
 * 4, as eko and evolven3fit interpolate) when asked and the EKO's grid lies inside theirs.
 */
function onEkoGrid(
  eko: EkoOperator,
  fitAtQ0: FitReplicasAtQ0,
  interpolateX: boolean,
): FitReplicasAtQ0 {
  if (!interpolateX) return fitAtQ0;
  const { xGrid, xf, replicas } = fitAtQ0;
  if (eko.inputXGrid[0] < xGrid[0]) {
    throw new InputFileError({
      file: eko.file,
      key: 'inputgrid',
      problem: `starts at x = ${eko.inputXGrid[0]}, below the x-grid of ${fitAtQ0.gridFile} (from ${xGrid[0]}): interpolation cannot reach it`,
    });
  }
  return {
    ...fitAtQ0,
    xGrid: eko.inputXGrid,
    xf: interpolateReplicas(xf, replicas, xGrid, eko.inputXGrid),
  };
}

/** Refuses an EKO whose αs is not the card's, or whose scales do not rise from Q0. */
function checkEkoAgainstCard(eko: EkoOperator, card: TheoryCard): void {
  const coupling = strongCouplingOfTheory(card);
  eko.q2Grid.forEach((q2, q) => {
    if (q2 < eko.q0 ** 2 || (q > 0 && q2 <= eko.q2Grid[q - 1])) {
      throw new InputFileError({
        file: eko.file,
        key: 'Q2grid',
        problem: `an LHAPDF set needs increasing scales from Q0² = ${eko.q0 ** 2} GeV², got [${eko.q2Grid.join(', ')}]`,
      });
    }
    const ours = coupling.alphaS(Math.sqrt(q2));
    if (Math.abs(ours / eko.alphaS[q] - 1) > ALPHA_S_TOLERANCE) {
      throw new InputFileError({
        file: eko.file,
        key: 'alphas',
        problem: `αs(Q² = ${q2} GeV²) is ${eko.alphaS[q]}, but ${card.file} gives ${ours}: the EKO was computed with another theory`,
      });
    }
  });
}

/**
 * `partonfit evolve <fit> --eko <file> --theory <card>`: evolves the fit's replicas with a
 * precomputed EKO (eko 0.8's tar format) instead of building the operator, and writes the LHAPDF
 * set at Q0 followed by the EKO's target scales (Q0 is added, the replicas themselves, when the
 * EKO does not start there, since an LHAPDF block needs two scales). The replicas must be on the
 * EKO's input x-grid, unless `--interpolate-x` interpolates them onto it (the set is then on the
 * EKO's grid). The card is the theory the EKO was computed with: the set's order, masses and αs,
 * checked against the EKO's αs. Nothing is written when the EKO does not fit (another x-grid or
 * Q0, another αs).
 *
 * @param card - the theory card of the EKO
 * @param fitAtQ0 - the replicas to evolve
 * @param request - the EKO, the options and the output folder
 * @throws UsageError when `--q-grid` is given too
 * @throws InputFileError from the EKO's reader, or when it does not apply to the fit
 */
export async function evolveWithEko(
  card: TheoryCard,
  fitAtQ0: FitReplicasAtQ0,
  request: EkoRequest,
  terminal: Terminal,
): Promise<void> {
  const { ekoFile } = request;
  if (request.qGridFile !== undefined) {
    throw new UsageError('--q-grid and --eko exclude each other: the EKO holds its own scales');
  }
  const eko = await readEkoOperator(ekoFile);
  const { fit, gridFile, xGrid, xf, replicas } = onEkoGrid(eko, fitAtQ0, request.interpolateX);
  const operator = ekoEvolutionOperator(eko, { xGrid, q0: card.q0, source: gridFile });
  checkEkoAgainstCard(eko, card);
  const startsAtQ0 = Math.abs(operator.qGrid[0] / eko.q0 - 1) < 1e-8;
  const qGrid = [...(startsAtQ0 ? [] : [eko.q0]), ...operator.qGrid];
  terminal.out(
    `evolving ${replicas} replica(s) of ${fit} with the EKO ${ekoFile} (eko ${eko.ekoVersion ?? 'unknown'}` +
      `${request.interpolateX ? `, interpolated onto its ${xGrid.length}-point x-grid` : ''}) ` +
      `from Q0 = ${eko.q0} GeV to ${qGrid.map((q) => q.toPrecision(6)).join(', ')} GeV\n`,
  );
  const evolved = applyEvolutionOperator(operator, xf, replicas);
  const slice = xGrid.length * FLAVOUR_BASIS.length;
  const values = new Float64Array(replicas * qGrid.length * slice);
  const added = qGrid.length - operator.qGrid.length;
  for (let r = 0; r < replicas; r++) {
    if (added === 1) values.set(xf.subarray(r * slice, (r + 1) * slice), r * qGrid.length * slice);
    values.set(
      evolved.subarray(r * operator.qGrid.length * slice, (r + 1) * operator.qGrid.length * slice),
      (r * qGrid.length + added) * slice,
    );
  }
  const setFolder = await writeEvolvedLhapdfSet(request.output, {
    name: fit,
    description: `partonfit fit ${fit} evolved with the EKO ${ekoFile} (${card.file})`,
    card,
    xGrid,
    qGrid,
    values,
    replicas,
  });
  terminal.out(`wrote the LHAPDF set ${setFolder} (${replicas + 1} members)\n`);
}
