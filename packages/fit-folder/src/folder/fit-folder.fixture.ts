import { readFileSync } from 'node:fs';
import { EVOLUTION_BASIS_SIZE, FLAVOUR_TO_EVOLUTION, rotateFlavours } from '@partonfit/core';
import { parse } from 'yaml';
import { SHARED_DATA } from '@partonfit/testing/shared-data';

/** The upstream n3fit regression outputs in `../shared/data`. */
export const REFERENCE_FOLDER = 'n3fit_reference/';
/** Upstream's replica-1 exportgrid of its quickcard regression fit. */
export const REFERENCE_EXPORT_GRID = `${REFERENCE_FOLDER}quickcard_1.exportgrid`;
/** Upstream's replica-1 JSON of the same fit. */
export const REFERENCE_JSON = `${REFERENCE_FOLDER}quickcard_1.json`;

/** Upstream's exportgrid parsed (YAML 1.2, as ruamel.yaml reads it). */
export interface ReferenceExportGrid {
  readonly text: string;
  readonly labels: string[];
  readonly pdfgrid: number[][];
  readonly q20: number;
  readonly replica: number;
  readonly xgrid: number[];
  readonly keys: string[];
}

/** Reads and parses upstream's `quickcard_1.exportgrid`. */
export function readReferenceExportGrid(): ReferenceExportGrid {
  const text = readFileSync(SHARED_DATA + REFERENCE_EXPORT_GRID, 'utf8');
  const document = parse(text) as Omit<ReferenceExportGrid, 'text' | 'keys'>;
  return { ...document, text, keys: Object.keys(document) };
}

/** Reads upstream's `quickcard_1.json`. */
export function readReferenceJson(): Record<string, unknown> {
  return JSON.parse(readFileSync(SHARED_DATA + REFERENCE_JSON, 'utf8')) as Record<string, unknown>;
}

/** Flattens rows of a grid into a row-major array, (rows, columns). */
export function flattenRows(rows: readonly (readonly number[])[]): Float64Array {
  return Float64Array.from(rows.flat());
}

/**
 * A natural cubic spline through (knots[i], values[i]), knots increasing, evaluated at `points`
 * (inside the knot range). The reference for interpolating an exportgrid in log x.
 */
export function naturalCubicSpline(
  knots: Float64Array,
  values: Float64Array,
  points: Float64Array,
): Float64Array {
  const n = knots.length;
  // second derivatives m from the tridiagonal system, m[0] = m[n−1] = 0
  const m = new Float64Array(n);
  const diagonal = new Float64Array(n);
  const rhs = new Float64Array(n);
  for (let i = 1; i < n - 1; i++) {
    const hLeft = knots[i] - knots[i - 1];
    const hRight = knots[i + 1] - knots[i];
    diagonal[i] = 2 * (hLeft + hRight);
    rhs[i] = 6 * ((values[i + 1] - values[i]) / hRight - (values[i] - values[i - 1]) / hLeft);
    if (i > 1) {
      const factor = hLeft / diagonal[i - 1];
      diagonal[i] -= factor * hLeft;
      rhs[i] -= factor * rhs[i - 1];
    }
  }
  for (let i = n - 2; i >= 1; i--) {
    const hRight = knots[i + 1] - knots[i];
    m[i] = (rhs[i] - (i < n - 2 ? hRight * m[i + 1] : 0)) / diagonal[i];
  }
  return points.map((point) => {
    let i = 0;
    while (i < n - 2 && point > knots[i + 1]) i++;
    const h = knots[i + 1] - knots[i];
    const a = (knots[i + 1] - point) / h;
    const b = (point - knots[i]) / h;
    return (
      a * values[i] +
      b * values[i + 1] +
      (((a * a * a - a) * m[i] + (b * b * b - b) * m[i + 1]) * h * h) / 6
    );
  });
}

/**
 * Upstream's replica as a PDF function: its exportgrid rotated to the evolution basis and
 * interpolated in log x with natural cubic splines, flavour by flavour.
 */
export function referencePdf(reference: ReferenceExportGrid): (x: Float64Array) => Float64Array {
  const knots = Float64Array.from(reference.xgrid, Math.log);
  const evolution = rotateFlavours(FLAVOUR_TO_EVOLUTION, flattenRows(reference.pdfgrid));
  const columns = Array.from({ length: EVOLUTION_BASIS_SIZE }, (_, flavour) =>
    Float64Array.from(reference.xgrid, (_x, ix) => evolution[ix * EVOLUTION_BASIS_SIZE + flavour]),
  );
  return (x) => {
    const logX = x.map(Math.log);
    const result = new Float64Array(x.length * EVOLUTION_BASIS_SIZE);
    columns.forEach((column, flavour) => {
      naturalCubicSpline(knots, column, logX).forEach((value, ix) => {
        result[ix * EVOLUTION_BASIS_SIZE + flavour] = value;
      });
    });
    return result;
  };
}
