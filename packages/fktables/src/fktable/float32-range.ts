/**
 * The largest float32: an FK-table value beyond it would become infinite in a fit, which
 * computes in float32. Both table readers refuse such values.
 */
export const FLOAT32_MAX = 3.4028234663852886e38;

/** What an FK-table value beyond {@link FLOAT32_MAX} is told. */
export const BEYOND_FLOAT32 = 'beyond the float32 range (±3.4e38) fits compute in';
