/**
 * Statistics of repeated timings: median, percentiles, interquartile range, median absolute
 * deviation.
 *
 * @packageDocumentation
 */
export { quantile, summarize, type SampleSummary } from './summary.js';
