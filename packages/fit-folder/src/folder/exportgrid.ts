import {
  EVOLUTION_BASIS_SIZE,
  EVOLUTION_TO_FLAVOUR,
  FLAVOUR_BASIS,
  InvalidArgumentError,
  positiveInteger,
  rotateFlavours,
  ShapeError,
} from '@partonfit/core';
import { activeFlavourNumber, type HeavyQuarkSettings } from './active-flavours.js';
import { EXPORT_X_GRID } from './export-x-grid.js';
import { yamlFloat } from './python-float.js';

/** The `labels` of an exportgrid: the flavour (LHA) basis, `TBAR, BBAR, … T, PHT`. */
export const EXPORT_GRID_LABELS: readonly string[] = FLAVOUR_BASIS.map(({ name }) => name);

/** Column width after which upstream's YAML emitter (ruamel.yaml, width 80) breaks a line. */
const LINE_WIDTH = 80;
/** Indentation of the continuation lines of a flow sequence. */
const CONTINUATION_INDENT = '  ';

/**
 * A YAML flow sequence `[a, b, …]` after `prefix`, wrapped as ruamel.yaml/PyYAML's emitter does:
 * after each item's comma, a new line (indented by two spaces) starts once the line is longer
 * than 80 columns.
 */
function flowSequence(prefix: string, items: readonly string[]): string {
  const lines: string[] = [];
  let line = `${prefix}[`;
  items.forEach((item, index) => {
    if (index > 0) {
      line += ',';
      if (line.length > LINE_WIDTH) {
        lines.push(line);
        line = CONTINUATION_INDENT;
      } else {
        line += ' ';
      }
    }
    line += item;
  });
  lines.push(`${line}]`);
  return lines.join('\n');
}

/** What an exportgrid holds, already in the flavour (LHA) basis. */
export interface ExportGridContents {
  /** The replica number (upstream counts from 1; postfit's replica average is 0). */
  readonly replica: number;
  /** Q0² in GeV². */
  readonly q20: number;
  /** The x grid (x), normally {@link EXPORT_X_GRID}. */
  readonly xGrid: Float64Array;
  /**
   * x·f at Q0, (x, flavour) row-major, flavours in {@link EXPORT_GRID_LABELS} order
   * (`TBAR, BBAR, CBAR, SBAR, UBAR, DBAR, GLUON, D, U, S, C, B, T, PHT`).
   */
  readonly pdfGrid: Float64Array | Float32Array;
}

function checkFinite(values: ArrayLike<number>, quantity: string, columns: number): void {
  for (let index = 0; index < values.length; index++) {
    const value = values[index];
    if (!Number.isFinite(value)) {
      const where =
        columns === 1
          ? `entry ${index}`
          : `x index ${Math.floor(index / columns)}, flavour ${index % columns}`;
      throw new InvalidArgumentError({
        argument: quantity,
        problem: `${value} at ${where}; an exportgrid holds finite numbers only`,
      });
    }
  }
}

/**
 * Writes the text of an n3fit `.exportgrid` file from a grid already in the flavour basis. The
 * layout is upstream's (ruamel.yaml's safe dump, `n3fit/src/n3fit/io/writer.py::storefit`): the
 * keys in alphabetical order `labels`, `pdfgrid`, `q20`, `replica`, `xgrid`; `pdfgrid` a block
 * sequence with one flow sequence of 14 numbers per x point; lists wrapped after 80 columns;
 * numbers as Python's `repr` except that a mantissa without a decimal point gets `.0`
 * (`1.0e-09`, so that YAML 1.1 parsers read a float; upstream writes `1e-09`). The text ends with
 * a newline.
 *
 * @throws ShapeError when `pdfGrid` is not (x, 14) for the given x grid
 * @throws InvalidArgumentError for a replica number that is not a non-negative integer, a
 *   non-positive Q0², or a non-finite value (named by x index and flavour)
 */
export function formatExportGrid(contents: ExportGridContents): string {
  const { replica, q20, xGrid, pdfGrid } = contents;
  const flavours = EXPORT_GRID_LABELS.length;
  if (pdfGrid.length !== xGrid.length * flavours) {
    throw new ShapeError({
      quantity: 'pdfGrid',
      expected: [xGrid.length, flavours],
      actual: [pdfGrid.length],
      axes: '(x, flavour)',
    });
  }
  if (!Number.isInteger(replica) || replica < 0) {
    throw new InvalidArgumentError({
      argument: 'replica',
      problem: `expected a replica number (0 for the replica average, fitted replicas from 1), got ${replica}`,
    });
  }
  if (!(Number.isFinite(q20) && q20 > 0)) {
    throw new InvalidArgumentError({
      argument: 'q20',
      problem: `expected a positive finite number, got ${q20}`,
    });
  }
  checkFinite(xGrid, 'xGrid', 1);
  checkFinite(pdfGrid, 'pdfGrid', flavours);
  const rows: string[] = [];
  for (let ix = 0; ix < xGrid.length; ix++) {
    const row = Array.from(pdfGrid.subarray(ix * flavours, (ix + 1) * flavours), yamlFloat);
    rows.push(flowSequence('- ', row));
  }
  return [
    flowSequence('labels: ', EXPORT_GRID_LABELS),
    'pdfgrid:',
    ...rows,
    `q20: ${yamlFloat(q20)}`,
    `replica: ${replica}`,
    flowSequence('xgrid: ', Array.from(xGrid, yamlFloat)),
    '',
  ].join('\n');
}

/** The inputs of {@link exportGridText}: one replica's PDF at Q0 in the evolution basis. */
export interface ExportGridOptions {
  /** The replica number (upstream counts from 1). */
  readonly replica: number;
  /** The fit scale Q0 in GeV; the file records Q0². */
  readonly q0: number;
  /**
   * x·f at Q0 on {@link EXPORT_X_GRID}, (x, flavour) = (196, 14) row-major, flavours in the
   * evolution basis `γ, Σ, g, V, V3, V8, V15, V24, V35, T3, T8, T15, T24, T35`.
   */
  readonly xfEvolution: Float64Array | Float32Array;
  /** Masses and thresholds deciding which heavy quarks are kept; theory 200 by default. */
  readonly heavyQuarks?: HeavyQuarkSettings;
}

/** LHA columns (in {@link EXPORT_GRID_LABELS}) of the quark and antiquark of c, b and t. */
const HEAVY_COLUMNS: readonly { readonly flavourNumber: number; readonly names: string[] }[] = [
  { flavourNumber: 4, names: ['C', 'CBAR'] },
  { flavourNumber: 5, names: ['B', 'BBAR'] },
  { flavourNumber: 6, names: ['T', 'TBAR'] },
];

/**
 * Rotates one replica's PDF from the evolution to the flavour basis, exactly as upstream's
 * `evln2lha` (the exact inverse rotation: e.g. u = Σ/12 + T3/4 + T8/12 + T15/24 + T24/40 + T35/60
 * + the same with V's), and zeroes the quark and antiquark of every heavy flavour not active at
 * Q0 ({@link activeFlavourNumber}), as upstream does to avoid small negative values.
 *
 * @returns (x, flavour) row-major in {@link EXPORT_GRID_LABELS} order
 * @throws ShapeError when `xfEvolution` is not (x, 14)
 */
export function evolutionToExportFlavours(
  xfEvolution: Float64Array | Float32Array,
  q0: number,
  heavyQuarks: HeavyQuarkSettings = {},
): Float64Array {
  if (xfEvolution.length % EVOLUTION_BASIS_SIZE !== 0) {
    throw new ShapeError({
      quantity: 'xfEvolution',
      expected: [null, EVOLUTION_BASIS_SIZE],
      actual: [xfEvolution.length],
      axes: '(x, flavour)',
    });
  }
  const active = activeFlavourNumber(q0, heavyQuarks);
  const lha = rotateFlavours(EVOLUTION_TO_FLAVOUR, Float64Array.from(xfEvolution));
  const flavours = EXPORT_GRID_LABELS.length;
  const zeroed = HEAVY_COLUMNS.filter(({ flavourNumber }) => active < flavourNumber).flatMap(
    ({ names }) => names.map((name) => EXPORT_GRID_LABELS.indexOf(name)),
  );
  for (let ix = 0; ix < lha.length / flavours; ix++) {
    for (const column of zeroed) lha[ix * flavours + column] = 0;
  }
  return lha;
}

/**
 * The text of one replica's n3fit `.exportgrid` file: x·f at Q0 on {@link EXPORT_X_GRID} in the
 * flavour basis (see {@link evolutionToExportFlavours}), with `q20` = Q0² and the replica number,
 * in upstream's layout ({@link formatExportGrid}).
 *
 * @throws ShapeError when `xfEvolution` is not (196, 14)
 * @throws InvalidArgumentError for a bad replica number or Q0, or a non-finite PDF value
 */
export function exportGridText(options: ExportGridOptions): string {
  const { replica, q0, xfEvolution, heavyQuarks = {} } = options;
  positiveInteger(replica, 'replica', { note: 'replicas count from 1' });
  if (xfEvolution.length !== EXPORT_X_GRID.length * EVOLUTION_BASIS_SIZE) {
    throw new ShapeError({
      quantity: 'xfEvolution',
      expected: [EXPORT_X_GRID.length, EVOLUTION_BASIS_SIZE],
      actual: [xfEvolution.length],
      axes: '(x, flavour) on EXPORT_X_GRID',
    });
  }
  checkFinite(xfEvolution, 'xfEvolution', EVOLUTION_BASIS_SIZE);
  return formatExportGrid({
    replica,
    q20: q0 * q0,
    xGrid: EXPORT_X_GRID,
    pdfGrid: evolutionToExportFlavours(xfEvolution, q0, heavyQuarks),
  });
}
