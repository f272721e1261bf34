import type { TopLevelSpec } from 'vega-lite';
import { SCHEMA } from './figure-specs.js';
import type { DataRow, ReportFigure } from './report-figure.js';

/** One cell of a correlation matrix figure. */
export interface CorrelationCell extends DataRow {
  /** Row and column, in points (or bins of points) of the data axis. */
  readonly row: number;
  readonly column: number;
  /** The dataset of the row's and the column's first point. */
  readonly rowDataset: string;
  readonly columnDataset: string;
  readonly correlation: number;
}

/**
 * A correlation matrix as a heat map, −1 blue to +1 red, the data axis down and across.
 *
 * @param id - the figure's file-name-safe id
 * @param caption - what the matrix is
 */
export function correlationFigure(
  id: string,
  title: string,
  caption: string,
  cells: readonly CorrelationCell[],
): ReportFigure {
  const spec = {
    $schema: SCHEMA,
    width: 420,
    height: 420,
    data: { values: cells },
    mark: { type: 'rect' },
    encoding: {
      x: { field: 'column', type: 'ordinal', title: 'point', axis: null },
      y: { field: 'row', type: 'ordinal', title: 'point', axis: null },
      color: {
        field: 'correlation',
        type: 'quantitative',
        scale: { scheme: 'redblue', domain: [-1, 1], reverse: true },
        title: 'correlation',
      },
      tooltip: [
        { field: 'rowDataset', title: 'row' },
        { field: 'columnDataset', title: 'column' },
        { field: 'correlation', format: '.3f' },
      ],
    },
  } as TopLevelSpec;
  return { id, title, caption, spec, rows: cells, series: [''], panels: [''] };
}
