import type { TopLevelSpec } from 'vega-lite';

/** A value in a figure's data table. */
export type DataValue = number | string | boolean | null;

/** One row of a figure's data table (one point of one series). */
export type DataRow = Readonly<Record<string, DataValue>>;

/**
 * A figure of a report: its Vega-Lite specification (with its data inline) — the one source of
 * the SVG file, the interactive figure in the page and the JSON/CSV of its numbers.
 */
export interface ReportFigure {
  /** A file-name-safe identifier, unique in a report (`pdf-flavour-logx`, `chi2`, …). */
  readonly id: string;
  readonly title: string;
  /** What the figure shows, in a sentence or two (the page's caption). */
  readonly caption: string;
  readonly spec: TopLevelSpec;
  /** The numbers behind the figure, as in the spec's data. */
  readonly rows: readonly DataRow[];
  /** The series the figure draws (sets, replicas, …), in legend order. */
  readonly series: readonly string[];
  /** The panels (facets) the figure draws, in order; one unnamed panel when not faceted. */
  readonly panels: readonly string[];
}
