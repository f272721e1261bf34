import { createMatrix, InputFileError, symmetricEigen, type Matrix } from '@partonfit/core';

/** A data point of a covariance table: validphys's (group, dataset, id) index. */
export interface CovariancePoint {
  /** The group (validphys writes the process, e.g. `DIS NC`). */
  readonly group: string;
  /** The dataset's name. */
  readonly dataset: string;
  /** The point's index in its dataset before cuts. */
  readonly id: number;
}

/** A covariance indexed by data point, as validphys's tables hold it. */
export interface CovarianceTable {
  /** The points of rows and columns, in order. */
  readonly points: readonly CovariancePoint[];
  /** (points, points), float64. */
  readonly covariance: Matrix;
}

/** The index levels of a table's rows and columns, in order. */
const INDEX_LEVELS = ['group', 'dataset', 'id'] as const;

/**
 * The line of the first header row out of validphys's layout: `levels` rows of equal width
 * beyond the index columns, then the index names and nothing else.
 */
function layoutProblemLine(rows: readonly (readonly string[])[], levels: number) {
  const width = rows[0]?.length ?? 0;
  if (width <= levels) return 1;
  const header = rows.slice(0, levels).findIndex((row) => row.length !== width);
  if (header >= 0) return header + 1;
  const names = rows[levels] ?? [];
  const namesOnly =
    names.length >= levels &&
    names.slice(0, levels).every((name) => name.trim() !== '') &&
    names.slice(levels).every((field) => field.trim() === '');
  return rows.length > levels && namesOnly ? undefined : levels + 1;
}

/**
 * A covariance table as validphys writes it (`theory_covmat_custom`, `user_covmat`, a CSV of a
 * pandas DataFrame with a three-level (group, dataset, id) index on rows and columns): three
 * header rows giving each column's group, dataset and id, a row of the index names, then one
 * row per point — its group, dataset and id, then its covariances. The levels are read by
 * position, whatever their names (validphys writes `group`, `dataset`, `id`; other tables name
 * the first `process` or the last `index`). Fields are separated by tabs (validphys's tables)
 * or commas (`DataFrame.to_csv`).
 *
 * @param file - the file's path, for messages
 * @throws InputFileError - naming the file and line, for a layout other than this, rows and
 *   columns that name different points, an empty entry or one that is not a number, or an
 *   asymmetric matrix
 */
export function parseCovarianceTable(text: string, file: string): CovarianceTable {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  const separator = (lines[0] ?? '').includes('\t') ? '\t' : ',';
  const rows = lines.map((line) => line.split(separator));
  const problem = (line: number, what: string) => new InputFileError({ file, line, problem: what });
  const levels = INDEX_LEVELS.length;
  const headerWidth = rows[0]?.length ?? 0;
  const badLine = layoutProblemLine(rows, levels);
  if (badLine !== undefined) {
    throw problem(
      badLine,
      "expected validphys's covariance layout: three header rows (each column's group, dataset and id), a row of the index names (e.g. 'group, dataset, id'), then one row per point",
    );
  }
  const columns = headerWidth - levels;
  const columnPoint = (c: number): string =>
    INDEX_LEVELS.map((_, r) => rows[r][levels + c]).join('\u0000');
  const data = rows.slice(levels + 1);
  if (data.length !== columns) {
    throw problem(
      1,
      `${columns} columns but ${data.length} rows of points; a covariance table is square`,
    );
  }
  const covariance = createMatrix(columns, columns);
  const points = data.map((fields, i): CovariancePoint => {
    const line = levels + 2 + i;
    const [group, dataset, id] = fields;
    if (fields.slice(0, 3).join('\u0000') !== columnPoint(i)) {
      throw problem(
        line,
        `row ${i} is point (${fields.slice(0, 3).join(', ')}) but column ${i} is (${columnPoint(i).split('\u0000').join(', ')})`,
      );
    }
    if (fields.length !== columns + levels) {
      throw problem(line, `expected ${columns} values, got ${fields.length - levels}`);
    }
    fields.slice(levels).forEach((field, j) => {
      if (field.trim() === '') {
        throw problem(line, `column ${j + 1} is empty; every entry of the matrix must be given`);
      }
      const value = Number(field);
      if (!Number.isFinite(value))
        throw problem(line, `column ${j + 1}: '${field}' is not a number`);
      covariance.data[i * columns + j] = value;
    });
    const index = Number(id);
    if (!Number.isInteger(index) || index < 0) {
      throw problem(line, `the point id '${id}' is not a non-negative integer`);
    }
    return { group, dataset, id: index };
  });
  for (let i = 0; i < columns; i++) {
    for (let j = 0; j < i; j++) {
      const [a, b] = [covariance.data[i * columns + j], covariance.data[j * columns + i]];
      if (Math.abs(a - b) > 1e-6 * Math.max(Math.abs(a), Math.abs(b), Number.MIN_VALUE)) {
        throw problem(
          levels + 2 + i,
          `not symmetric: entry (${i}, ${j}) is ${a} but (${j}, ${i}) is ${b}`,
        );
      }
    }
  }
  return { points, covariance };
}

/** The text of a covariance table in validphys's layout (see {@link parseCovarianceTable}). */
export function formatCovarianceTable({ points, covariance }: CovarianceTable): string {
  const lead = ['', ''];
  const header = INDEX_LEVELS.map((level) =>
    [level, ...lead, ...points.map((point) => String(point[level]))].join('\t'),
  );
  const n = points.length;
  const body = points.map((point, i) =>
    [
      point.group,
      point.dataset,
      String(point.id),
      ...Array.from(covariance.data.subarray(i * n, (i + 1) * n), String),
    ].join('\t'),
  );
  return [...header, INDEX_LEVELS.join('\t'), ...body, ''].join('\n');
}

/** A fitted dataset as a covariance table indexes it. */
export interface TableDataset {
  /** Its name as the runcard gives it. */
  readonly name: string;
  /** Each fitted point's index in the dataset before cuts, (data). */
  readonly pointIndices: ArrayLike<number>;
}

/**
 * A user's covariance table placed on the fitted data (validphys's `fromfile_covmat`): the
 * entries of the fitted points of the datasets the table names, zero for datasets it does not
 * name; points it holds that the cuts removed are left out.
 *
 * @returns (data, data) on the data axis of `datasets` concatenated in order
 * @throws InputFileError - naming the file, when it names none of the fitted datasets, lacks a
 *   fitted point of a dataset it names, or is not positive semi-definite on the fitted points
 */
export function covarianceOnFittedData(
  table: CovarianceTable,
  file: string,
  datasets: readonly TableDataset[],
): Matrix {
  const row = new Map(table.points.map((point, i) => [`${point.dataset}\u0000${point.id}`, i]));
  const named = new Set(table.points.map((point) => point.dataset));
  if (!datasets.some((dataset) => named.has(dataset.name))) {
    throw new InputFileError({
      file,
      problem: `names none of the fitted datasets (it has ${[...named].join(', ')}; the fit has ${datasets.map((dataset) => dataset.name).join(', ')})`,
    });
  }
  const rows: number[] = [];
  for (const dataset of datasets) {
    for (const id of Array.from(dataset.pointIndices)) {
      if (!named.has(dataset.name)) {
        rows.push(-1);
        continue;
      }
      const found = row.get(`${dataset.name}\u0000${id}`);
      if (found === undefined) {
        throw new InputFileError({
          file,
          key: dataset.name,
          problem: `has no row for fitted point ${id}; the table must hold every point the cuts keep`,
        });
      }
      rows.push(found);
    }
  }
  const n = rows.length;
  const size = table.points.length;
  const covariance = createMatrix(n, n);
  rows.forEach((i, a) => {
    if (i < 0) return;
    rows.forEach((j, b) => {
      if (j >= 0) covariance.data[a * n + b] = table.covariance.data[i * size + j];
    });
  });
  const { values } = symmetricEigen(covariance);
  const largest = Math.max(0, ...values);
  const lowest = values[0];
  if (lowest < -1e-10 * largest || (largest === 0 && lowest < 0)) {
    throw new InputFileError({
      file,
      problem: `is not positive semi-definite on the fitted points: its lowest eigenvalue is ${lowest.toExponential(3)} (the largest ${largest.toExponential(3)})`,
    });
  }
  return covariance;
}
