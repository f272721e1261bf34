import type { BincodeReader } from './bincode-reader.js';

/**
 * PineAPPL 1.x's `ScaleFuncForm`: how the renormalisation, factorisation and fragmentation scales
 * (squared) follow from a subgrid's scale-type kinematic nodes `Scale(i)`.
 *
 * @packageDocumentation
 */

/** The two-argument forms, in the order of their variant indices 2 to 14, with their formulas. */
const COMBINED: readonly (readonly [string, (s1: number, s2: number) => number])[] = [
  ['QuadraticSum', (s1, s2) => s1 + s2],
  ['QuadraticMean', (s1, s2) => 0.5 * (s1 + s2)],
  ['QuadraticSumOver4', (s1, s2) => 0.25 * (s1 + s2)],
  ['LinearMean', (s1, s2) => 0.25 * (Math.sqrt(s1) + Math.sqrt(s2)) ** 2],
  ['LinearSum', (s1, s2) => (Math.sqrt(s1) + Math.sqrt(s2)) ** 2],
  ['ScaleMax', (s1, s2) => Math.max(s1, s2)],
  ['ScaleMin', (s1, s2) => Math.min(s1, s2)],
  ['Prod', (s1, s2) => s1 * s2],
  ['S2plusS1half', (s1, s2) => s2 + 0.5 * s1],
  ['Pow4Sum', (s1, s2) => Math.hypot(s1, s2)],
  ['WgtAvg', (s1, s2) => (s1 * s1 + s2 * s2) / (s1 + s2)],
  ['S2plusS1fourth', (s1, s2) => s2 + 0.25 * s1],
  ['ExpProd2', (s1, s2) => (Math.sqrt(s1) * Math.exp(0.3 * Math.sqrt(s2))) ** 2],
];

/** A scale form: none, the node value of `Scale(i)`, or a formula of `Scale(i)` and `Scale(j)`. */
export type ScaleFuncForm =
  | { readonly kind: 'NoScale' }
  | { readonly kind: 'Scale'; readonly index: number }
  | {
      readonly kind: 'Combined';
      readonly name: string;
      readonly formula: (s1: number, s2: number) => number;
      readonly indices: readonly [number, number];
    };

/** The renormalisation, factorisation and fragmentation scale forms of a grid. */
export interface PineapplScales {
  readonly ren: ScaleFuncForm;
  readonly fac: ScaleFuncForm;
  readonly frg: ScaleFuncForm;
}

function readForm(
  reader: BincodeReader,
  key: string,
  scaleIndices: ReadonlySet<number>,
): ScaleFuncForm {
  const variant = reader.variant(key, 2 + COMBINED.length);
  if (variant === 0) return { kind: 'NoScale' };
  const indices = (variant === 1 ? [0] : [0, 1]).map(() => {
    const index = reader.u64(key);
    if (!scaleIndices.has(index)) {
      throw reader.error(key, `refers to Scale(${index}), which the kinematics do not have`);
    }
    return index;
  });
  if (variant === 1) return { kind: 'Scale', index: indices[0] };
  const [name, formula] = COMBINED[variant - 2];
  return { kind: 'Combined', name, formula, indices: [indices[0], indices[1]] };
}

/**
 * Reads `Scales` (`ren`, `fac`, `frg`), each a `u32` variant and its `u64` scale indices, and
 * checks that each index names a `Scale(i)` of the grid's kinematics.
 *
 * @throws InputFileError - naming the field, for an unknown variant or a missing scale
 */
export function readScales(
  reader: BincodeReader,
  kinematics: readonly { readonly kind: 'Scale' | 'X'; readonly index: number }[],
): PineapplScales {
  const indices = new Set(kinematics.filter(({ kind }) => kind === 'Scale').map((k) => k.index));
  return {
    ren: readForm(reader, 'scales.ren', indices),
    fac: readForm(reader, 'scales.fac', indices),
    frg: readForm(reader, 'scales.frg', indices),
  };
}

/**
 * The scale (squared) a form gives for the node values `values` of the scales `Scale(i)`, or
 * `undefined` for `NoScale`.
 */
export function scaleOf(
  form: ScaleFuncForm,
  values: ReadonlyMap<number, number>,
): number | undefined {
  if (form.kind === 'NoScale') return undefined;
  if (form.kind === 'Scale') return values.get(form.index);
  const [s1, s2] = form.indices.map((index) => values.get(index) ?? Number.NaN);
  return form.formula(s1, s2);
}
