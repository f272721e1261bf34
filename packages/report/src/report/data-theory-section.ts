import { covarianceMatrix } from '@partonfit/fktables';
import type { DatasetComparison } from '../chi2/dataset-predictions.js';
import { dataTheoryFigure, pullFigure, type DataTheoryRow } from '../figures/figure-specs.js';
import type { ReportSection } from '../render/html-page.js';

function dataTheoryRows(comparisons: readonly DatasetComparison[]): {
  rows: DataTheoryRow[];
  xTitle: string;
} {
  const titles = new Set<string>();
  const rows = comparisons.flatMap(({ dataset, set, predictions, replicas }) => {
    const { commonData } = dataset;
    const { variables, values } = commonData.kinematics;
    const first = Array.from({ length: commonData.ndata }, (_, n) => values[3 * n]);
    const varies = first.some((value) => value !== first[0]);
    titles.add(varies ? variables[0] : 'point');
    const errors = dataErrors(dataset.commonData);
    return Array.from(predictions, (theory, n) => {
      const spread =
        replicas.length < 2
          ? 0
          : Math.sqrt(
              replicas.reduce((sum, replica) => sum + (replica[n] - theory) ** 2, 0) /
                (replicas.length - 1),
            );
      const data = commonData.central[n];
      return {
        dataset: dataset.name,
        point: n,
        kinematic: varies ? first[n] : n,
        set,
        data,
        dataError: errors[n],
        theory,
        theoryError: spread,
        pull: (theory - data) / Math.sqrt(errors[n] ** 2 + spread ** 2),
      };
    });
  });
  return { rows, xTitle: [...titles].join(' / ') };
}

/** Each point's total uncertainty: the square root of the experimental covariance's diagonal. */
function dataErrors(commonData: DatasetComparison['dataset']['commonData']): Float64Array {
  const covariance = covarianceMatrix([commonData]);
  return Float64Array.from({ length: covariance.rows }, (_, n) =>
    Math.sqrt(covariance.data[n * covariance.columns + n]),
  );
}

/** The data-and-theory section: theory over data and pulls for each dataset and set. */
export function dataTheorySection(comparisons: readonly DatasetComparison[]): ReportSection {
  const { rows, xTitle } = dataTheoryRows(comparisons);
  return {
    id: 'data-theory',
    title: 'Data and theory',
    notes: [
      'The data are each dataset’s commondata after cuts, as partonfit predict reads them (for an embedded closure dataset its level-0 data, not the fitted pseudodata).',
    ],
    tables: [],
    figures: [dataTheoryFigure(rows, xTitle), pullFigure(rows, xTitle)],
  };
}
