import {
  fittedFlavourLabel,
  findFitBasis,
  InvalidArgumentError,
  type Runcard,
} from '@partonfit/core';
import {
  effectiveExponentGrid,
  exponentBands,
  LARGE_X_POINTS,
  nextPreprocessing,
  preprocessingRangeText,
  SMALL_X_POINTS,
  type EffectiveExponent,
  type ExponentBand,
  type ReplicasAtScale,
} from '@partonfit/fit-folder';
import {
  effectiveExponentFigure,
  type ExponentCurveRow,
  type ExponentRangeRow,
} from '../figures/figure-specs.js';
import type { PdfReplicas } from '../pdf/pdf-replicas.js';
import type { ReportSection } from '../render/html-page.js';

/** Points of each effective-exponent curve. */
const CURVE_POINTS = 40;

/** `count` points from `first` to `last` (both exact), evenly in x or in log x. */
function spaced(first: number, last: number, count: number, scale: 'log' | 'linear') {
  const [from, to] = scale === 'log' ? [Math.log(first), Math.log(last)] : [first, last];
  return Float64Array.from({ length: count }, (_, i) => {
    if (i === 0 || i === count - 1) return i === 0 ? first : last;
    const value = from + ((to - from) * i) / (count - 1);
    return scale === 'log' ? Math.exp(value) : value;
  });
}

function bandText(band: ExponentBand): string {
  return `${band.mean.toFixed(3)} [${band.lower68.toFixed(3)}, ${band.upper68.toFixed(3)}]`;
}

/**
 * The effective-exponents section of a fit's report: for each fitted flavour α_eff on
 * x ∈ [10⁻⁶, 10⁻³] and β_eff on x ∈ [0.65, 0.95] — the replicas' mean and 68 % band — against
 * the preprocessing ranges the fit used (its runcard's `fitting.basis`) and the ranges
 * `partonfit iterate` proposes for the next fit, drawn as horizontal bands; and a table of the
 * ranges and of the exponents at the x where the rule reads them.
 *
 * @param fit - the fit's replicas at Q0 (`fitPdfReplicas`)
 * @param runcard - the fit's runcard
 * @throws InvalidArgumentError for an unknown fit basis, or replicas whose x grid does not reach
 *   the x the exponents are read at
 */
export function effectiveExponentsSection(fit: PdfReplicas, runcard: Runcard): ReportSection {
  const basis = findFitBasis(runcard.fitting.fitbasis);
  if (basis === undefined) {
    throw new InvalidArgumentError({
      argument: 'fitting.fitbasis',
      problem: `unknown fit basis '${runcard.fitting.fitbasis}'`,
    });
  }
  const pdf: ReplicasAtScale = {
    xGrid: fit.xGrid,
    xf: fit.replicas,
    replicas: fit.replicaCount,
  };
  const proposals = nextPreprocessing(pdf, runcard);
  const flavours = runcard.fitting.basis.map((entry) => entry.fl);
  const labels = flavours.map(fittedFlavourLabel);
  const curves = (exponent: EffectiveExponent, xGrid: Float64Array): ExponentCurveRow[] => {
    const bands = exponentBands(effectiveExponentGrid(pdf, basis, flavours, exponent, xGrid));
    return labels.flatMap((flavour, f) =>
      Array.from(xGrid, (x, ix) => {
        const { mean, lower68, upper68 } = bands[ix * flavours.length + f];
        return { flavour, x, mean, lower68, upper68 };
      }),
    );
  };
  const ranges = (key: 'smallx' | 'largex'): ExponentRangeRow[] =>
    proposals.flatMap((proposal, f) => {
      const used = proposal.used[key];
      const proposed = proposal.proposed[key];
      return [
        ...(used === undefined
          ? []
          : [{ flavour: labels[f], range: 'used' as const, low: used[0], high: used[1] }]),
        ...(proposed === undefined
          ? []
          : [
              {
                flavour: labels[f],
                range: 'proposed' as const,
                low: proposed[0],
                high: proposed[1],
              },
            ]),
      ];
    });
  const scale = `Q0 = ${fit.q.toPrecision(4)} GeV`;
  const alpha = effectiveExponentFigure(
    curves('alpha', spaced(SMALL_X_POINTS[0], SMALL_X_POINTS[1], CURVE_POINTS, 'log')),
    ranges('smallx'),
    {
      id: 'effective-exponents-alpha',
      title: `Small-x effective exponents at ${scale}`,
      caption: `α_eff(x) = ln|f(x)| / ln(1/x) of each fitted flavour (f = x·f/x), the mean of the replicas (line) and their 68 % interval (filled), against the smallx range the fit used (orange) and the one partonfit iterate proposes (green), read at x = ${SMALL_X_POINTS.join(' and ')}.`,
      exponent: 'α_eff',
      xScale: 'log',
      xDomain: SMALL_X_POINTS,
    },
  );
  const beta = effectiveExponentFigure(
    curves('beta', spaced(LARGE_X_POINTS[0], LARGE_X_POINTS[1], CURVE_POINTS, 'linear')),
    ranges('largex'),
    {
      id: 'effective-exponents-beta',
      title: `Large-x effective exponents at ${scale}`,
      caption: `β_eff(x) = ln|f(x)| / ln(1 − x) of each fitted flavour, the mean of the replicas (line) and their 68 % interval (filled), against the largex range the fit used (orange) and the one partonfit iterate proposes (green), read at x = ${LARGE_X_POINTS.join(' and ')}.`,
      exponent: 'β_eff',
      xScale: 'linear',
      xDomain: LARGE_X_POINTS,
    },
  );
  return {
    id: 'effective-exponents',
    title: `Effective exponents at ${scale}`,
    notes: [
      `${fit.label}: ${fit.replicaCount} replicas. The proposed ranges are partonfit iterate’s, upstream’s rule: D(x) = [m − 2(m − l), m + 2(u − m)], the 68 % interval [l, u] of the replicas doubled about their mean m; smallx from D(1e-6) for Σ and g, from D(1e-6) and D(1e-3) for the others, at most 2 (at most 1 for V, V3, V8, T3, T8); largex from D(0.65) and D(0.95), at least 0; 4 significant digits.`,
    ],
    tables: [
      {
        id: 'effective-exponents',
        title:
          'Preprocessing ranges used and proposed, and the effective exponents they come from (mean [68 % interval])',
        columns: [
          'flavour',
          'smallx used',
          'smallx proposed',
          'largex used',
          'largex proposed',
          `α_eff(${SMALL_X_POINTS[0]})`,
          `α_eff(${SMALL_X_POINTS[1]})`,
          `β_eff(${LARGE_X_POINTS[0]})`,
          `β_eff(${LARGE_X_POINTS[1]})`,
        ],
        rows: proposals.map((proposal, f) => [
          labels[f],
          preprocessingRangeText(proposal.used.smallx),
          preprocessingRangeText(proposal.proposed.smallx),
          preprocessingRangeText(proposal.used.largex),
          preprocessingRangeText(proposal.proposed.largex),
          ...[...proposal.smallx, ...proposal.largex].map(bandText),
        ]),
      },
    ],
    figures: [alpha, beta],
  };
}
