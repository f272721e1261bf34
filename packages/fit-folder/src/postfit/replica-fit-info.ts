import { readFile } from 'node:fs/promises';
import { InputFileError } from '@partonfit/core';
import type { ReplicaFitInfo } from './fit-veto.js';

/** A JSON number, or NaN for `null` (partonfit writes a diverged χ² as null). */
function numberOrNull(value: unknown): number | undefined {
  if (value === null) return Number.NaN;
  return typeof value === 'number' ? value : undefined;
}

function numbers(file: string, document: Record<string, unknown>, key: string): number[] {
  const value = document[key];
  const list = Array.isArray(value) ? value.map(numberOrNull) : undefined;
  if (list === undefined || list.some((entry) => entry === undefined)) {
    throw new InputFileError({ file, key, problem: 'expected a list of numbers' });
  }
  return list as number[];
}

/**
 * What postfit reads from a replica's `<fit>.json` (upstream `fitdata.load_fitinfo`): `chi2`,
 * `pos_state`, `arc_lengths`, `integrability`.
 *
 * @throws InputFileError naming the file (and key) when it cannot be read, is not a JSON object,
 *   or an entry is missing or of the wrong type
 */
export async function readReplicaFitInfo(file: string): Promise<ReplicaFitInfo> {
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
    arcLengths: numbers(file, record, 'arc_lengths'),
    integrability: numbers(file, record, 'integrability'),
  };
}
