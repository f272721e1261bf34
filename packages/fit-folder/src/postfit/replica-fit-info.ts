import { readFile } from 'node:fs/promises';
import { InputFileError } from '@partonfit/core';
import { ARC_LENGTH_FLAVOURS, INTEGRABILITY_FLAVOURS } from '../folder/fit-quality.js';
import type { ReplicaFitInfo } from './fit-veto.js';

/** What postfit reads from a replica's `<fit>.json`: the veto inputs and the fit's records. */
export interface ReplicaRecord extends ReplicaFitInfo {
  /** The epoch at which the replica diverged (`diverged_epoch`), undefined if it did not. */
  readonly divergedEpoch: number | undefined;
  /** SHA-256 of the runcard it was fitted with (`runcard_sha256`), if recorded. */
  readonly runcardSha256: string | undefined;
}

/** A JSON number, or NaN for `null` (partonfit writes a diverged χ² as null). */
function numberOrNull(value: unknown): number | undefined {
  if (value === null) return Number.NaN;
  return typeof value === 'number' ? value : undefined;
}

function numbers(
  file: string,
  document: Record<string, unknown>,
  key: string,
  names: readonly string[],
): number[] {
  const value = document[key];
  const list = Array.isArray(value) ? value.map(numberOrNull) : undefined;
  if (list === undefined || list.some((entry) => entry === undefined)) {
    throw new InputFileError({ file, key, problem: 'expected a list of numbers' });
  }
  if (list.length !== names.length) {
    throw new InputFileError({
      file,
      key,
      problem: `expected ${names.length} numbers (${names.join(', ')}), got ${list.length}`,
    });
  }
  return list as number[];
}

function optionalEntry<T>(
  file: string,
  document: Record<string, unknown>,
  key: string,
  accepts: (value: unknown) => value is T,
  expected: string,
): T | undefined {
  const value = document[key];
  if (value === undefined) return undefined;
  if (!accepts(value)) {
    throw new InputFileError({
      file,
      key,
      problem: `expected ${expected}, got ${JSON.stringify(value)}`,
    });
  }
  return value;
}

const isEpoch = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0;
const isSha256 = (value: unknown): value is string =>
  typeof value === 'string' && /^[0-9a-f]{64}$/.test(value);

/**
 * What postfit reads from a replica's `<fit>.json` (upstream `fitdata.load_fitinfo`): `chi2`,
 * `pos_state`, `arc_lengths` (5), `integrability` (5), and partonfit's `diverged_epoch` and
 * `runcard_sha256` when present.
 *
 * @throws InputFileError naming the file (and key) when it cannot be read, is not a JSON object,
 *   or an entry is missing, of the wrong type or of the wrong length
 */
export async function readReplicaFitInfo(file: string): Promise<ReplicaRecord> {
  let document: unknown;
  try {
    document = JSON.parse(await readFile(file, 'utf8'));
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new InputFileError({
      file,
      problem: `cannot read the replica's JSON (${reason})`,
      cause,
    });
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw new InputFileError({ file, problem: 'expected a JSON object' });
  }
  const record = document as Record<string, unknown>;
  const chi2 = numberOrNull(record.chi2);
  if (chi2 === undefined) {
    throw new InputFileError({ file, key: 'chi2', problem: 'expected a number' });
  }
  const state = record.pos_state;
  if (state !== 'POS_PASS' && state !== 'POS_VETO') {
    throw new InputFileError({
      file,
      key: 'pos_state',
      problem: `expected POS_PASS or POS_VETO, got ${JSON.stringify(state ?? null)}`,
    });
  }
  return {
    chi2,
    positive: state === 'POS_PASS',
    arcLengths: numbers(file, record, 'arc_lengths', ARC_LENGTH_FLAVOURS),
    integrability: numbers(file, record, 'integrability', INTEGRABILITY_FLAVOURS),
    divergedEpoch: optionalEntry(file, record, 'diverged_epoch', isEpoch, 'an epoch'),
    runcardSha256: optionalEntry(
      file,
      record,
      'runcard_sha256',
      isSha256,
      'a SHA-256 in hexadecimal',
    ),
  };
}
