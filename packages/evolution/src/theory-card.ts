import { InputFileError } from '@partonfit/core';
import { parseYamlRecord, readInputText, type YamlRecord } from '@partonfit/io';
import { flavoursAllowedAt, LIGHT_FLAVOURS, thresholdsOfTheory } from './thresholds.js';

/** Perturbative order: 0 LO, 1 NLO, 2 NNLO (NNPDF's `PTO`). */
export type PerturbativeOrder = 0 | 1 | 2;

/**
 * How DGLAP is solved (NNPDF's `ModEv`): `EXA` integrates the evolution equation in αs
 * numerically at the given order; `TRN` is the truncated solution NNPDF4.0 used.
 */
export type EvolutionMethod = 'EXA' | 'TRN';

/** The heavy quarks charm, bottom and top, in that order. */
export interface HeavyQuarkValues {
  readonly charm: number;
  readonly bottom: number;
  readonly top: number;
}

/**
 * The settings of an NNPDF theory card that determine αs(Q) and the DGLAP evolution of PDFs.
 * Pole masses only (`HQ: POLE`), no QED, no scale variations, no small-x resummation.
 */
export interface TheoryCard {
  /** The file the card was read from (for error messages). */
  readonly file: string;
  /** `ID`, when the card has one. */
  readonly id: number | undefined;
  /** `PTO`. */
  readonly order: PerturbativeOrder;
  /** `alphas`: αs at the reference scale. */
  readonly alphaSRef: number;
  /** `Qref` (GeV). */
  readonly qRef: number;
  /** `Q0` (GeV): the fitting scale. */
  readonly q0: number;
  /** `mc`, `mb`, `mt`: heavy-quark pole masses (GeV). */
  readonly masses: HeavyQuarkValues;
  /** `kcThr`, `kbThr`, `ktThr`: each threshold sits at k·m. */
  readonly thresholdRatios: HeavyQuarkValues;
  /** `MaxNfAs`: the largest number of active flavours in αs. */
  readonly maxNfAlphaS: number;
  /**
   * `nfref`: the number of active flavours αs(Qref) is given in; undefined (absent or `null`)
   * for the number active at Qref. When Qref sits on a threshold the higher number is the
   * default and the lower one may be chosen (the Les Houches benchmarks give αs at μ0 = mc with
   * 3 flavours).
   */
  readonly alphaSRefFlavours: number | undefined;
  /** `MaxNfPdf`: the largest number of active flavours in the PDF evolution. */
  readonly maxNfPdf: number;
  /**
   * `NfFF` when `FNS: FFNS`: a fixed-flavour-number scheme, that many active flavours at every
   * scale in αs and in the PDFs (no thresholds; `MaxNfAs`/`MaxNfPdf` do not apply). Undefined
   * for every other `FNS` (`ZM-VFNS`, `FONLL-*`): the evolution crosses the thresholds.
   */
  readonly fixedFlavours: number | undefined;
  /** `IC`: charm is fitted at Q0 (intrinsic charm). */
  readonly intrinsicCharm: boolean;
  /** `ModEv`. */
  readonly evolutionMethod: EvolutionMethod;
}

/** Settings the card may hold that this package cannot honour, and the only value accepted. */
const REQUIRED_VALUES: readonly { key: string; value: string | number; meaning: string }[] = [
  { key: 'HQ', value: 'POLE', meaning: 'pole heavy-quark masses (MSbar masses are not supported)' },
  { key: 'QED', value: 0, meaning: 'QCD evolution only (QED is not supported)' },
  { key: 'XIR', value: 1, meaning: 'no renormalisation-scale variation' },
  { key: 'XIF', value: 1, meaning: 'no factorisation-scale variation' },
  { key: 'SxRes', value: 0, meaning: 'no small-x resummation' },
];

const EVOLUTION_METHODS: readonly EvolutionMethod[] = ['EXA', 'TRN'];

function unsupported(record: YamlRecord, key: string, problem: string): InputFileError {
  return new InputFileError({ file: record.file, line: record.lineOf(key), key, problem });
}

function requiredNumber(record: YamlRecord, key: string): number {
  const value = record.values[key];
  if (value === undefined) throw unsupported(record, key, 'missing');
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw unsupported(record, key, `expected a number, got ${JSON.stringify(value)}`);
  return value;
}

function positiveNumber(record: YamlRecord, key: string): number {
  const value = requiredNumber(record, key);
  if (value <= 0) throw unsupported(record, key, `expected a positive number, got ${value}`);
  return value;
}

function integerIn(record: YamlRecord, key: string, low: number, high: number): number {
  const value = requiredNumber(record, key);
  if (!Number.isInteger(value) || value < low || value > high)
    throw unsupported(record, key, `expected an integer from ${low} to ${high}, got ${value}`);
  return value;
}

function checkRequiredValues(record: YamlRecord): void {
  for (const { key, value, meaning } of REQUIRED_VALUES) {
    const given = record.values[key];
    if (given === undefined || given === value) continue;
    throw unsupported(
      record,
      key,
      `${JSON.stringify(given)} is not supported; expected ${JSON.stringify(value)}: ${meaning}`,
    );
  }
}

function evolutionMethodOf(record: YamlRecord): EvolutionMethod {
  const value = record.values.ModEv;
  if (value === undefined) return 'EXA';
  const method = EVOLUTION_METHODS.find((name) => name === value);
  if (method === undefined) {
    throw unsupported(
      record,
      'ModEv',
      `${JSON.stringify(value)} is not supported; expected one of ${EVOLUTION_METHODS.join(', ')}`,
    );
  }
  return method;
}

/** `NfFF` in a fixed-flavour-number scheme (`FNS: FFNS`), else undefined. */
function fixedFlavoursOf(record: YamlRecord): number | undefined {
  return record.values.FNS === 'FFNS' ? integerIn(record, 'NfFF', 3, 6) : undefined;
}

/**
 * `nfref`, checked against the flavours active at Qref: the number active there or, on a
 * threshold, the one below it.
 */
function alphaSRefFlavoursOf(record: YamlRecord, card: TheoryCard): number | undefined {
  const value = record.values.nfref;
  if (value === undefined || value === null) return undefined;
  const flavours = integerIn(record, 'nfref', 3, 6);
  const allowed = flavoursAllowedAt(
    card.qRef * card.qRef,
    thresholdsOfTheory(card, card.maxNfAlphaS),
    card.fixedFlavours ?? LIGHT_FLAVOURS,
  );
  if (allowed.includes(flavours)) return flavours;
  throw unsupported(
    record,
    'nfref',
    `${flavours} flavours do not apply at Qref = ${card.qRef} GeV; expected ${allowed.join(' or ')}`,
  );
}

/**
 * Reads the evolution settings of an NNPDF theory card (YAML, e.g.
 * `theory_cards/200.yaml`).
 *
 * @param text - the card's YAML text
 * @param file - the card's path, for error messages
 * @throws InputFileError naming the file, line and key of a missing or malformed setting, or of
 *   one this package does not support (`HQ: MSBAR`, `QED`, scale variations, `SxRes`, an
 *   unknown `ModEv`)
 */
export function parseTheoryCard(text: string, file: string): TheoryCard {
  const record = parseYamlRecord(text, file);
  checkRequiredValues(record);
  const idValue = record.values.ID;
  const masses = {
    charm: positiveNumber(record, 'mc'),
    bottom: positiveNumber(record, 'mb'),
    top: positiveNumber(record, 'mt'),
  };
  if (!(masses.charm < masses.bottom && masses.bottom < masses.top)) {
    throw unsupported(record, 'mb', 'expected mc < mb < mt');
  }
  const card: TheoryCard = {
    file,
    id: typeof idValue === 'number' ? idValue : undefined,
    order: integerIn(record, 'PTO', 0, 2) as PerturbativeOrder,
    alphaSRef: positiveNumber(record, 'alphas'),
    qRef: positiveNumber(record, 'Qref'),
    q0: positiveNumber(record, 'Q0'),
    masses,
    thresholdRatios: {
      charm: positiveNumber(record, 'kcThr'),
      bottom: positiveNumber(record, 'kbThr'),
      top: positiveNumber(record, 'ktThr'),
    },
    maxNfAlphaS: integerIn(record, 'MaxNfAs', 3, 6),
    alphaSRefFlavours: undefined,
    maxNfPdf: integerIn(record, 'MaxNfPdf', 3, 6),
    fixedFlavours: fixedFlavoursOf(record),
    intrinsicCharm: integerIn(record, 'IC', 0, 1) === 1,
    evolutionMethod: evolutionMethodOf(record),
  };
  return { ...card, alphaSRefFlavours: alphaSRefFlavoursOf(record, card) };
}

/**
 * Reads an NNPDF theory card from a file (plain or gzip-compressed).
 *
 * @param file - the card, e.g. `theory_cards/200.yaml`
 * @throws InputFileError as {@link parseTheoryCard}, or when the file cannot be read
 */
export async function readTheoryCard(file: string): Promise<TheoryCard> {
  return parseTheoryCard((await readInputText(file)).text, file);
}
