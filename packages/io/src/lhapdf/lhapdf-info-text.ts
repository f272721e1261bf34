import { InvalidArgumentError } from '@partonfit/core';
import {
  numberWriter,
  type LhapdfNumberFormat,
  type NumberWriter,
} from './lhapdf-number-format.js';
import type { LhapdfExtrapolation } from './lhapdf-set.js';
import {
  checkedYamlValue,
  yamlEntry,
  yamlExactNumber,
  yamlString,
  type LhapdfYamlValue,
} from './lhapdf-yaml-text.js';

/** Quark masses in GeV (`MUp` … `MTop`); only those given are written. */
export interface LhapdfInfoMasses {
  readonly up?: number;
  readonly down?: number;
  readonly strange?: number;
  readonly charm?: number;
  readonly bottom?: number;
  readonly top?: number;
}

/** The strong coupling of a set (`AlphaS_*` keys). */
export interface LhapdfAlphaS {
  /** `AlphaS_MZ`: αs(MZ), written exactly. */
  readonly mZ: number;
  /** `AlphaS_OrderQCD` (default: the set's `OrderQCD`). */
  readonly orderQCD?: number;
  /** `AlphaS_Type` (default `ipol` when `qs` are given, else not written). */
  readonly type?: 'ipol' | 'ode' | 'analytic';
  /** `AlphaS_Qs`: the Q values in GeV (q) of the interpolation table, non-decreasing. */
  readonly qs?: readonly number[];
  /** `AlphaS_Vals`: αs at `qs` (q). */
  readonly values?: readonly number[];
  /** `AlphaS_Lambda4`, `AlphaS_Lambda5` in GeV, written exactly. */
  readonly lambda4?: number;
  readonly lambda5?: number;
}

/** The fields of an LHAPDF 6 `.info` file. */
export interface LhapdfInfo {
  /** `SetDesc`: one sentence about the set. */
  readonly description: string;
  /** `SetIndex`: the LHAPDF id, when registered. */
  readonly setIndex?: number;
  /** `Authors`. */
  readonly authors?: string;
  /** `Reference`, e.g. `arXiv:2109.02653`. */
  readonly reference?: string;
  /** `DataVersion` (default 1). */
  readonly dataVersion?: number;
  /** `NumMembers`: members 0 … numMembers − 1. */
  readonly numMembers: number;
  /** `Particle`: the PDG id of the hadron (default 2212, the proton). */
  readonly particle?: number;
  /** `Flavors`: the PDG ids the members hold. */
  readonly flavours: readonly number[];
  /** `OrderQCD`: 0 LO, 1 NLO, 2 NNLO, … */
  readonly orderQCD: number;
  /** `FlavorScheme` (default `variable`). */
  readonly flavorScheme?: 'variable' | 'fixed';
  /** `NumFlavors` (default: the largest quark PID in `flavours`). */
  readonly numFlavors?: number;
  /** `ErrorType` (default `replicas`). */
  readonly errorType?: string;
  /** `XMin`, `XMax`: the x range, 0 < xMin < xMax ≤ 1. */
  readonly xMin: number;
  readonly xMax: number;
  /** `QMin`, `QMax`: the Q range in GeV, 0 < qMin < qMax. */
  readonly qMin: number;
  readonly qMax: number;
  /** `MZ` in GeV (default 91.1876). */
  readonly mZ?: number;
  /** Quark masses. */
  readonly masses?: LhapdfInfoMasses;
  /** αs; no `AlphaS_*` keys when absent. */
  readonly alphaS?: LhapdfAlphaS;
  /** `Extrapolator` (default `continuation`). `Interpolator` is always `logcubic`. */
  readonly extrapolator?: LhapdfExtrapolation;
  /** `ForcePositive`, written when given. */
  readonly forcePositive?: 0 | 1 | 2;
  /** Further keys, written last in this order (numbers exactly). */
  readonly extra?: Readonly<Record<string, LhapdfYamlValue>>;
}

const EXTRAPOLATORS: readonly LhapdfExtrapolation[] = ['continuation', 'nearest', 'error'];
const FLAVOR_SCHEMES: readonly string[] = ['variable', 'fixed'];
const FORCE_POSITIVE: readonly number[] = [0, 1, 2];

/** The keys written from {@link LhapdfInfo}'s typed fields, which `extra` may not repeat. */
const TYPED_KEYS = new Set([
  ...['SetDesc', 'SetIndex', 'Authors', 'Reference', 'Format', 'DataVersion', 'NumMembers'],
  ...['Particle', 'Flavors', 'OrderQCD', 'FlavorScheme', 'NumFlavors', 'ErrorType'],
  ...['XMin', 'XMax', 'QMin', 'QMax', 'MZ', 'MUp', 'MDown', 'MStrange', 'MCharm', 'MBottom'],
  ...['MTop', 'AlphaS_MZ', 'AlphaS_OrderQCD', 'AlphaS_Type', 'AlphaS_Qs', 'AlphaS_Vals'],
  ...['AlphaS_Lambda4', 'AlphaS_Lambda5', 'Interpolator', 'Extrapolator', 'ForcePositive'],
]);

const MASS_KEYS = [
  ['up', 'MUp'],
  ['down', 'MDown'],
  ['strange', 'MStrange'],
  ['charm', 'MCharm'],
  ['bottom', 'MBottom'],
  ['top', 'MTop'],
] as const;

function invalid(argument: string, problem: string): InvalidArgumentError {
  return new InvalidArgumentError({ argument, problem });
}

function checkedNumber(
  argument: string,
  value: number,
  valid: (value: number) => boolean,
  expected: string,
): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || !valid(value)) {
    throw invalid(argument, `expected ${expected}, got ${value}`);
  }
  return value;
}

function checkedInteger(argument: string, value: number, min: number): number {
  return checkedNumber(
    argument,
    value,
    (v) => Number.isSafeInteger(v) && v >= min,
    `an integer ≥ ${min}`,
  );
}

function checkedParticle(particle: number): number {
  const valid = (pid: number) => Number.isSafeInteger(pid) && pid !== 0;
  return checkedNumber('info.particle', particle, valid, 'a non-zero PDG id');
}

function checkedText(argument: string, value: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw invalid(argument, `expected a non-empty string, got ${JSON.stringify(value)}`);
  }
  return yamlString(value);
}

function checkedFlavours(flavours: readonly number[]): string[] {
  if (!Array.isArray(flavours) || flavours.length === 0) {
    throw invalid('info.flavours', 'expected a non-empty list of PDG ids');
  }
  flavours.forEach((pid, i) => {
    if (!Number.isSafeInteger(pid) || pid === 0) {
      throw invalid('info.flavours', `PID ${pid} is not a non-zero integer`);
    }
    if (flavours.indexOf(pid) !== i) throw invalid('info.flavours', `PID ${pid} appears twice`);
  });
  return flavours.map(yamlExactNumber);
}

/** The largest |PID| among the quarks (1 … 6) of `flavours`. */
function largestQuark(flavours: readonly number[]): number {
  return Math.max(0, ...flavours.map(Math.abs).filter((pid) => pid <= 6));
}

function rangeEntries(info: LhapdfInfo, writer: NumberWriter): [string, string][] {
  const xMin = checkedNumber('info.xMin', info.xMin, (x) => x > 0 && x < 1, 'a number in (0, 1)');
  const xMax = checkedNumber('info.xMax', info.xMax, (x) => x > xMin && x <= 1, `in (${xMin}, 1]`);
  const qMin = checkedNumber('info.qMin', info.qMin, (q) => q > 0, 'a positive number');
  const qMax = checkedNumber('info.qMax', info.qMax, (q) => q > qMin, `a number above ${qMin}`);
  return [
    ['XMin', writer.write(xMin)],
    ['XMax', writer.write(xMax)],
    ['QMin', writer.write(qMin)],
    ['QMax', writer.write(qMax)],
  ];
}

function massEntries(info: LhapdfInfo, writer: NumberWriter): [string, string][] {
  const mZ = info.mZ ?? 91.1876;
  const entries: [string, string][] = [
    ['MZ', writer.write(checkedNumber('info.mZ', mZ, (m) => m > 0, 'a positive mass'))],
  ];
  for (const [field, key] of MASS_KEYS) {
    const mass = info.masses?.[field];
    if (mass === undefined) continue;
    const argument = `info.masses.${field}`;
    entries.push([key, writer.write(checkedNumber(argument, mass, (m) => m >= 0, 'a mass ≥ 0'))]);
  }
  return entries;
}

function alphaSTable(alphaS: LhapdfAlphaS, writer: NumberWriter): [string, string[]][] {
  const { qs, values } = alphaS;
  if (qs === undefined && values === undefined) {
    if (alphaS.type === 'ipol') throw invalid('info.alphaS', "type 'ipol' needs qs and values");
    return [];
  }
  if (qs === undefined || values === undefined || qs.length !== values.length || qs.length < 2) {
    throw invalid(
      'info.alphaS',
      `qs and values must be given together with the same length ≥ 2, got ${qs?.length ?? 'none'} and ${values?.length ?? 'none'}`,
    );
  }
  qs.forEach((q, i) => {
    const valid = (v: number) => v > 0 && (i === 0 || v >= qs[i - 1]);
    checkedNumber(`info.alphaS.qs[${i}]`, q, valid, 'a positive Q not below the one before');
  });
  values.forEach((value, i) =>
    checkedNumber(`info.alphaS.values[${i}]`, value, (v) => v > 0, 'a positive αs'),
  );
  return [
    ['AlphaS_Qs', qs.map(writer.write)],
    ['AlphaS_Vals', values.map(writer.write)],
  ];
}

function alphaSEntries(info: LhapdfInfo, writer: NumberWriter): [string, string | string[]][] {
  const { alphaS } = info;
  if (alphaS === undefined) return [];
  const mZ = checkedNumber('info.alphaS.mZ', alphaS.mZ, (a) => a > 0 && a < 1, 'αs in (0, 1)');
  const order = checkedInteger('info.alphaS.orderQCD', alphaS.orderQCD ?? info.orderQCD, 0);
  const table = alphaSTable(alphaS, writer);
  const type = alphaS.type ?? (table.length > 0 ? 'ipol' : undefined);
  if (type !== undefined && !['ipol', 'ode', 'analytic'].includes(type)) {
    throw invalid('info.alphaS.type', `expected 'ipol', 'ode' or 'analytic', got '${type}'`);
  }
  const entries: [string, string | string[]][] = [
    ['AlphaS_MZ', yamlExactNumber(mZ)],
    ['AlphaS_OrderQCD', yamlExactNumber(order)],
  ];
  if (type !== undefined) entries.push(['AlphaS_Type', type]);
  entries.push(...table);
  for (const [field, key] of [
    ['lambda4', 'AlphaS_Lambda4'],
    ['lambda5', 'AlphaS_Lambda5'],
  ] as const) {
    const lambda = alphaS[field];
    if (lambda === undefined) continue;
    const argument = `info.alphaS.${field}`;
    entries.push([key, yamlExactNumber(checkedNumber(argument, lambda, (l) => l > 0, 'Λ > 0'))]);
  }
  return entries;
}

function settingEntries(info: LhapdfInfo): [string, string][] {
  const extrapolator = info.extrapolator ?? 'continuation';
  if (!EXTRAPOLATORS.includes(extrapolator)) {
    throw invalid(
      'info.extrapolator',
      `expected one of ${EXTRAPOLATORS.join(', ')}, got '${extrapolator}'`,
    );
  }
  const entries: [string, string][] = [
    ['Interpolator', 'logcubic'],
    ['Extrapolator', extrapolator],
  ];
  const { forcePositive } = info;
  if (forcePositive !== undefined) {
    if (!FORCE_POSITIVE.includes(forcePositive)) {
      throw invalid('info.forcePositive', `expected 0, 1 or 2, got ${String(forcePositive)}`);
    }
    entries.push(['ForcePositive', String(forcePositive)]);
  }
  return entries;
}

/**
 * The text of an LHAPDF 6 `.info` file (YAML), keys in the order of NNPDF's sets: `SetDesc`,
 * `SetIndex`, `Authors`, `Reference`, `Format: lhagrid1`, `DataVersion`, `NumMembers`,
 * `Particle`, `Flavors`, `OrderQCD`, `FlavorScheme`, `NumFlavors`, `ErrorType`, `XMin` … `QMax`,
 * `MZ`, the masses, the `AlphaS_*` keys, `Interpolator: logcubic`, `Extrapolator`,
 * `ForcePositive`, then `info.extra`. Optional keys without a default are left out.
 *
 * x and Q ranges, `MZ`, masses, `AlphaS_Qs` and `AlphaS_Vals` are written in the members' number
 * format (`%.7e`), as NNPDF does; `AlphaS_MZ`, the Λs, integers and extra numbers exactly. Strings
 * are plain when unambiguous, else double-quoted; lists are flow lists wrapped past 80 columns.
 *
 * @param info - the set's fields
 * @param format - the number format (default `%.7e`)
 * @throws InvalidArgumentError naming the field for an empty description, a non-positive or
 *   non-integer count, empty or repeated flavours, x outside (0, 1] or ranges whose minimum is not
 *   below their maximum, negative masses, an αs table whose Q values and αs values differ in
 *   length or whose Q values decrease, an unknown extrapolator or αs type, or an extra key that is
 *   not a word, repeats a key the writer sets, or has a value that is not YAML-writable
 */
export function lhapdfInfoText(info: LhapdfInfo, format?: LhapdfNumberFormat): string {
  const writer = numberWriter(format);
  const entries: [string, string | string[]][] = [
    ['SetDesc', checkedText('info.description', info.description)],
  ];
  if (info.setIndex !== undefined) {
    entries.push(['SetIndex', String(checkedInteger('info.setIndex', info.setIndex, 0))]);
  }
  if (info.authors !== undefined) {
    entries.push(['Authors', checkedText('info.authors', info.authors)]);
  }
  if (info.reference !== undefined) {
    entries.push(['Reference', checkedText('info.reference', info.reference)]);
  }
  const flavours = checkedFlavours(info.flavours);
  const scheme = info.flavorScheme ?? 'variable';
  if (!FLAVOR_SCHEMES.includes(scheme)) {
    throw invalid('info.flavorScheme', `expected 'variable' or 'fixed', got '${scheme}'`);
  }
  const numFlavors = info.numFlavors ?? largestQuark(info.flavours);
  entries.push(
    ['Format', 'lhagrid1'],
    ['DataVersion', String(checkedInteger('info.dataVersion', info.dataVersion ?? 1, 0))],
    ['NumMembers', String(checkedInteger('info.numMembers', info.numMembers, 1))],
    ['Particle', String(checkedParticle(info.particle ?? 2212))],
    ['Flavors', flavours],
    ['OrderQCD', String(checkedInteger('info.orderQCD', info.orderQCD, 0))],
    ['FlavorScheme', scheme],
    ['NumFlavors', String(checkedInteger('info.numFlavors', numFlavors, 0))],
    ['ErrorType', checkedText('info.errorType', info.errorType ?? 'replicas')],
    ...rangeEntries(info, writer),
    ...massEntries(info, writer),
    ...alphaSEntries(info, writer),
    ...settingEntries(info),
  );
  for (const [key, value] of Object.entries(info.extra ?? {})) {
    if (TYPED_KEYS.has(key)) {
      throw invalid('info.extra', `'${key}' is written from the typed fields; set it there`);
    }
    entries.push([key, checkedYamlValue('info.extra', key, value)]);
  }
  return `${entries.flatMap(([key, value]) => yamlEntry(key, value)).join('\n')}\n`;
}
