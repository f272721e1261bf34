import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { InputFileError } from '@partonfit/core';
import { readInputText } from '../compressed/read-input.js';
import {
  missingKey,
  optionalInteger,
  optionalIntegers,
  optionalNumber,
  optionalString,
  parseYamlRecord,
  type YamlRecord,
} from './yaml-record.js';

/**
 * What LHAPDF does outside the grid's x and Q range, by LHAPDF's `Extrapolator` names:
 *
 * - `continuation` (LHAPDF's default): below xMin, a power law in x through the two lowest x
 *   knots (log xf linear in log x when both values exceed 10⁻³, else xf linear in log x); above
 *   Q²max, the same in Q² through the two highest Q knots; below Q²min, the PDF at Q²min times
 *   (Q²/Q²min)^(γ·Q²/Q²min + 1 − Q²/Q²min), with γ = dlog xf/dlog Q² at Q²min (γ ≥ −2.5; γ = 1 when
 *   |xf(Q²min)| < 10⁻⁵), so PDFs vanish as Q → 0.
 * - `nearest`: the value at the nearest point on the grid's edge.
 * - `error`: an error.
 */
export type LhapdfExtrapolation = 'continuation' | 'nearest' | 'error';

const EXTRAPOLATIONS: readonly LhapdfExtrapolation[] = ['continuation', 'nearest', 'error'];

/** The quark masses of a set, in GeV, where its `.info` gives them. */
export interface LhapdfMasses {
  readonly charm: number | undefined;
  readonly bottom: number | undefined;
  readonly top: number | undefined;
}

/** An LHAPDF 6 set: its folder and the typed fields of its `<name>.info` file. */
export interface LhapdfSet {
  /** The set's name: the folder's name, e.g. `NNPDF40_nnlo_as_01180`. */
  readonly name: string;
  /** The folder holding `<name>.info` and the member files `<name>_<NNNN>.dat`. */
  readonly folder: string;
  /** The path of the `.info` file. */
  readonly infoFile: string;
  /** `SetDesc`. */
  readonly description: string | undefined;
  /** `NumMembers`: members 0 … numMembers − 1 (for NNPDF: 0 = average, 1…N = replicas). */
  readonly numMembers: number;
  /** `Flavors`: the PDG ids of the partons the set holds (21 gluon, 22 photon). */
  readonly flavours: readonly number[];
  /** `XMin`, `XMax`, `QMin`, `QMax` (GeV). */
  readonly xMin: number | undefined;
  readonly xMax: number | undefined;
  readonly qMin: number | undefined;
  readonly qMax: number | undefined;
  /** `OrderQCD`: 0 LO, 1 NLO, 2 NNLO. */
  readonly orderQCD: number | undefined;
  /** `AlphaS_MZ`. */
  readonly alphaSMZ: number | undefined;
  /** `MCharm`, `MBottom`, `MTop`. */
  readonly masses: LhapdfMasses;
  /** `ErrorType`, e.g. `replicas` or `hessian`. */
  readonly errorType: string | undefined;
  /** `ForcePositive` (default 0): 1 clips negative values to 0, 2 to 10⁻¹⁰. */
  readonly forcePositive: 0 | 1 | 2;
  /** `Extrapolator` (default `continuation`, as LHAPDF's own configuration). */
  readonly extrapolation: LhapdfExtrapolation;
  /** Every key of the `.info` file, as parsed from YAML. */
  readonly record: Readonly<Record<string, unknown>>;
}

/** `ForcePositive` of a record: 0, 1 or 2, undefined when absent. */
export function forcePositiveOf(record: YamlRecord): 0 | 1 | 2 | undefined {
  const value = optionalInteger(record, 'ForcePositive');
  if (value === undefined || value === 0 || value === 1 || value === 2) return value;
  throw new InputFileError({
    file: record.file,
    line: record.lineOf('ForcePositive'),
    key: 'ForcePositive',
    problem: `expected 0, 1 or 2, got ${value}`,
  });
}

function extrapolationOf(record: YamlRecord): LhapdfExtrapolation {
  const name = optionalString(record, 'Extrapolator') ?? 'continuation';
  const known = EXTRAPOLATIONS.find((candidate) => candidate === name);
  if (known !== undefined) return known;
  throw new InputFileError({
    file: record.file,
    line: record.lineOf('Extrapolator'),
    key: 'Extrapolator',
    problem: `unknown extrapolator '${name}', expected one of ${EXTRAPOLATIONS.join(', ')}`,
  });
}

function checkInterpolator(record: YamlRecord): void {
  const name = optionalString(record, 'Interpolator') ?? 'logcubic';
  if (name === 'logcubic') return;
  throw new InputFileError({
    file: record.file,
    line: record.lineOf('Interpolator'),
    key: 'Interpolator',
    problem: `interpolator '${name}' is not supported; partonfit implements LHAPDF's logcubic`,
  });
}

/**
 * The set described by an LHAPDF `.info` text.
 *
 * @param text - the YAML text of `<name>.info`
 * @param options - the set's name and folder, and the `.info` path for error messages
 * @throws InputFileError (with line and key) for invalid YAML, a missing or mistyped `NumMembers`
 *   or `Flavors`, mistyped optional fields, an unknown `Extrapolator` or an `Interpolator` other
 *   than `logcubic`
 */
export function parseLhapdfInfo(
  text: string,
  options: { name: string; folder: string; infoFile: string },
): LhapdfSet {
  const record = parseYamlRecord(text, options.infoFile);
  const numMembers = optionalInteger(record, 'NumMembers') ?? missingKey(record, 'NumMembers');
  if (numMembers < 1) {
    throw new InputFileError({
      file: options.infoFile,
      line: record.lineOf('NumMembers'),
      key: 'NumMembers',
      problem: `expected a positive integer, got ${numMembers}`,
    });
  }
  checkInterpolator(record);
  return {
    ...options,
    description: optionalString(record, 'SetDesc'),
    numMembers,
    flavours: optionalIntegers(record, 'Flavors') ?? missingKey(record, 'Flavors'),
    xMin: optionalNumber(record, 'XMin'),
    xMax: optionalNumber(record, 'XMax'),
    qMin: optionalNumber(record, 'QMin'),
    qMax: optionalNumber(record, 'QMax'),
    orderQCD: optionalInteger(record, 'OrderQCD'),
    alphaSMZ: optionalNumber(record, 'AlphaS_MZ'),
    masses: {
      charm: optionalNumber(record, 'MCharm'),
      bottom: optionalNumber(record, 'MBottom'),
      top: optionalNumber(record, 'MTop'),
    },
    errorType: optionalString(record, 'ErrorType'),
    forcePositive: forcePositiveOf(record) ?? 0,
    extrapolation: extrapolationOf(record),
    record: record.values,
  };
}

/**
 * Reads an LHAPDF 6 set's `<folder>/<name>.info`, where `<name>` is the folder's name.
 *
 * @param folder - the set's folder, e.g. `…/NNPDF40_nnlo_as_01180`
 * @throws InputFileError when the folder is missing (saying which `partonfit get pdf` fetches
 *   it), or the `.info` file is missing or invalid (see
 *   {@link parseLhapdfInfo})
 */
export async function loadLhapdfSet(folder: string): Promise<LhapdfSet> {
  const name = basename(folder.replace(/[/\\]+$/, ''));
  if (!existsSync(folder)) {
    throw new InputFileError({
      file: folder,
      problem: `no LHAPDF set ${name} here; \`partonfit get pdf ${name}\` downloads it into the data folder, where runcards without data_paths.lhapdf look`,
    });
  }
  const infoFile = join(folder, `${name}.info`);
  const { text } = await readInputText(infoFile);
  return parseLhapdfInfo(text, { name, folder, infoFile });
}
