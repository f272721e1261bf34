import { randomInt } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import {
  InvalidArgumentError,
  parseRuncard,
  readTriesFile,
  type ValidatedRuncard,
} from '@partonfit/core';
import {
  iteratedRuncardText,
  LARGE_X_POINTS,
  loadFitFolderRuncard,
  nextPreprocessing,
  preprocessingRangeText,
  readFitReplicasAtQ0,
  SMALL_X_POINTS,
  type FlavourPreprocessing,
  type RuncardSeed,
} from '@partonfit/fit-folder';
import { loadLhapdfSet, pathExists, writeFileAtomic } from '@partonfit/io';
import { defineCommand } from './define-command.js';
import { locateT0Set } from './iterate-t0-set.js';

const USAGE = 'partonfit iterate <fit folder> [--output <runcard.yml>] [--new-seeds] [--overwrite]';

/** The seeds `--new-seeds` draws anew, as vp-nextfitruncard does. */
const SEEDS: readonly RuncardSeed[] = ['trvlseed', 'nnseed', 'mcseed'];

/** The largest seed `--new-seeds` draws, exclusive: upstream's int32 maximum, 2³¹ − 1. */
const SEED_LIMIT = 2 ** 31 - 1;

const DETAILS = `Writes the runcard of the next fit from the fit's runcard.yml, its text kept (comments, key
order), with three changes:
  datacuts.t0pdfset  the fit's evolved LHAPDF set (partonfit evolve writes it; data_paths.lhapdf
                     is pointed at the fit folder where the set is)
  fitting.basis      each flavour's smallx and largex ranges from the replicas' effective
                     exponents at Q0 (postfit's replicas, else every fitted one)
  seeds              trvlseed, nnseed, mcseed drawn anew in [0, 2³¹ − 1) with --new-seeds only
Effective exponents of a fitted flavour, f = x·f(x, Q0)/x:
  α_eff(x) = ln|f(x)| / ln(1/x)        β_eff(x) = ln|f(x)| / ln(1 − x)
With m the mean over the replicas and [l, u] their 68 % interval (the 15.87th and 84.13th
percentiles), D(x) = [m − 2(m − l), m + 2(u − m)] is the interval doubled about the mean, and
(upstream's rule, validphys eff_exponents.py and vp-nextfitruncard):
  smallx  Σ, g: [low D(1e-6), min(2, high D(1e-6))]
          others: [min low D(x), min(2, max high D(x))] over x = 1e-6, 1e-3
          V, V3, V8, T3, T8: both ends at most 1 (integrability)
  largex  [max(0, min low D(x)), max high D(x)] over x = 0.65, 0.95 (none with
          feature_scaling_points)
rounded to 4 significant digits. The default output is ./<fit>_iterated.yml; an existing file is
replaced only with --overwrite. Relative paths in the runcard are kept as written: they are read
from the new runcard's folder.
`;

/** One line per flavour: the ranges used and proposed, and the exponents they came from. */
function preprocessingTable(proposals: readonly FlavourPreprocessing[]): string {
  const rows = [
    ['flavour', 'smallx used', 'proposed', 'largex used', 'proposed', 'α_eff(1e-6)', 'β_eff(0.95)'],
    ...proposals.map(({ flavour, used, proposed, smallx, largex }) => [
      flavour,
      preprocessingRangeText(used.smallx),
      preprocessingRangeText(proposed.smallx),
      preprocessingRangeText(used.largex),
      preprocessingRangeText(proposed.largex),
      `${smallx[0].mean.toFixed(3)} [${smallx[0].lower68.toFixed(3)}, ${smallx[0].upper68.toFixed(3)}]`,
      `${largex[1].mean.toFixed(3)} [${largex[1].lower68.toFixed(3)}, ${largex[1].upper68.toFixed(3)}]`,
    ]),
  ];
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return rows
    .map((row) =>
      `  ${row.map((cell, column) => cell.padEnd(widths[column])).join('  ')}`.trimEnd(),
    )
    .join('\n');
}

/** Validates the new runcard's text as `partonfit fit` will read it (a scan's trials included). */
async function validate(text: string, file: string, fit: ValidatedRuncard): Promise<void> {
  const hyperscan =
    fit.hyperscan === undefined ? undefined : await readTriesFile(fit.hyperscan.file);
  parseRuncard(text, { file, hyperscan });
}

/**
 * `partonfit iterate <fit folder>`: the runcard of the next fit of an iteration, as upstream's
 * vp-nextfitruncard: this fit's evolved LHAPDF set as `t0pdfset`, the preprocessing ranges from
 * the effective exponents of its replicas (`nextPreprocessing`), the seeds kept unless
 * `--new-seeds`; the rest of the fit's `runcard.yml` as written (`iteratedRuncardText`). The
 * new runcard is validated before it is written, atomically. It does not evolve the fit: a fit
 * without its LHAPDF set is refused with the `partonfit evolve` command to run.
 */
export const iterateCommand = defineCommand({
  name: 'iterate',
  summary:
    "write the next fit's runcard: this fit's set as t0, preprocessing from its effective exponents",
  usage: USAGE,
  details: DETAILS,
  options: {
    output: { type: 'string' },
    'new-seeds': { type: 'boolean', default: false },
    overwrite: { type: 'boolean', default: false },
  },
  positionals: 1,
  run: async ({ values, positionals: [folder] }, terminal) => {
    const fitFolder = resolve(folder);
    const fit = basename(fitFolder);
    const output = resolve(values.output ?? `${fit}_iterated.yml`);
    if (!values.overwrite && (await pathExists(output))) {
      throw new InvalidArgumentError({
        argument: '--output',
        problem: `${output} exists: choose another file, or pass --overwrite to replace it`,
      });
    }
    const replicas = await readFitReplicasAtQ0(fitFolder);
    const runcardFile = join(fitFolder, 'runcard.yml');
    const validated = await loadFitFolderRuncard(fitFolder);
    const t0 = await locateT0Set(fitFolder, folder, validated.runcard, output);
    const proposals = nextPreprocessing(replicas, validated.runcard);
    const seeds = values['new-seeds']
      ? Object.fromEntries(SEEDS.map((seed) => [seed, randomInt(0, SEED_LIMIT)]))
      : undefined;
    const changed = ['t0pdfset', 'fitting.basis ranges', ...(seeds === undefined ? [] : ['seeds'])];
    const text = iteratedRuncardText(await readFile(runcardFile, 'utf8'), runcardFile, {
      t0pdfset: fit,
      ...(t0.lhapdfFolder === undefined ? {} : { lhapdfFolder: t0.lhapdfFolder }),
      ranges: proposals.map(({ flavour, proposed }) => ({ flavour, ...proposed })),
      ...(seeds === undefined ? {} : { seeds }),
      comment: `partonfit iterate ${folder}: ${changed.join(', ')} changed from the fit's runcard.yml`,
    });
    await validate(text, output, validated);
    const set = await loadLhapdfSet(t0.setFolder);
    terminal.out(
      `${fit}: ${replicas.replicas} replica(s) from ${replicas.source}/ at Q0 = ${replicas.q0.toPrecision(4)} GeV, ${validated.runcard.fitting.fitbasis} basis; α_eff at x = ${SMALL_X_POINTS.map((x) => x.toExponential()).join(', ')}, β_eff at x = ${LARGE_X_POINTS.join(', ')}\n`,
    );
    for (const note of replicas.notes) terminal.out(`note: ${note}\n`);
    terminal.out(`${preprocessingTable(proposals)}\n`);
    const kept = proposals.filter(
      ({ proposed, used }) =>
        proposed.smallx === undefined ||
        (used.largex !== undefined && proposed.largex === undefined),
    );
    for (const { flavour } of kept) {
      terminal.out(
        `note: ${flavour} is 0 where its exponents are read: its runcard ranges are kept\n`,
      );
    }
    if (set.numMembers - 1 !== replicas.replicas) {
      terminal.out(
        `warning: the LHAPDF set ${t0.setFolder} has ${set.numMembers - 1} replicas, ${replicas.source}/ has ${replicas.replicas}: evolve the fit again (partonfit evolve ${folder})\n`,
      );
    }
    terminal.out(
      `t0pdfset: ${fit} (${t0.setFolder})${t0.lhapdfFolder === undefined ? '' : `; data_paths.lhapdf: ${t0.lhapdfFolder}`}\n`,
    );
    terminal.out(
      seeds === undefined
        ? 'seeds: unchanged (--new-seeds draws new ones)\n'
        : `seeds: ${Object.entries(seeds)
            .map(([seed, value]) => `${seed} ${value}`)
            .join(', ')}\n`,
    );
    await writeFileAtomic(output, text);
    terminal.out(
      `wrote ${output}; check it with \`partonfit check ${output}\`, fit it with \`partonfit fit ${output}\`\n`,
    );
  },
});
