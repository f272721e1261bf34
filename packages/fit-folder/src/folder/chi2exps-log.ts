import { InputFileError, isMapping } from '@partonfit/core';

/** One logged epoch of a replica's `chi2exps.log`. */
export interface Chi2ExpsEntry {
  /** The total training loss (`training_loss`); upstream logs the sum over replicas. */
  readonly trainingLoss: number;
  /**
   * The validation loss (`validation_loss`): upstream logs a list, one value per replica of the
   * run; a single number is written as given.
   */
  readonly validationLoss: number | readonly number[];
  /**
   * Validation χ² per point by experiment group for this replica, plus `total`
   * (`validation_chi2s`).
   */
  readonly validationChi2s: Readonly<Record<string, number>>;
}

/**
 * The text of a `chi2exps.log`: a JSON object keyed by the number of epochs done when the entry
 * was logged (`"100"`, `"200"`, … — upstream logs every 100 epochs and keys epoch index + 1),
 * each `{ "training_loss", "validation_loss", "validation_chi2s" }` (upstream
 * `Stopping.chi2exps_json` in `n3fit/src/n3fit/stopping.py`). Indented by two spaces; keys in
 * increasing epoch order; non-finite numbers as `null`; ends with a newline.
 *
 * @param entries - by epoch
 */
export function chi2ExpsLogText(entries: ReadonlyMap<number, Chi2ExpsEntry>): string {
  const epochs = [...entries.keys()].sort((a, b) => a - b);
  const document: Record<string, unknown> = {};
  for (const epoch of epochs) {
    const entry = entries.get(epoch);
    if (entry === undefined) continue;
    document[String(epoch)] = {
      training_loss: entry.trainingLoss,
      validation_loss: entry.validationLoss,
      validation_chi2s: entry.validationChi2s,
    };
  }
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** A logged number: a JSON number, or `null` for a non-finite value (read as NaN). */
function loggedNumber(value: unknown): number | undefined {
  if (value === null) return Number.NaN;
  return typeof value === 'number' ? value : undefined;
}

/**
 * Reads the text of a `chi2exps.log` back (the inverse of {@link chi2ExpsLogText}; `null` reads
 * as NaN).
 *
 * @param text - the file's contents
 * @param file - the file's path, for error messages
 * @returns the entries by epoch, in increasing epoch order
 * @throws InputFileError naming the file and the offending key when the text is not such a log
 */
export function parseChi2ExpsLog(text: string, file: string): Map<number, Chi2ExpsEntry> {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (cause) {
    throw new InputFileError({ file, problem: 'not valid JSON', cause });
  }
  if (!isMapping(document)) {
    throw new InputFileError({ file, problem: 'expected a JSON object keyed by epoch' });
  }
  const entries = new Map<number, Chi2ExpsEntry>();
  for (const [key, value] of Object.entries(document)) {
    const epoch = Number(key);
    if (!/^\d+$/.test(key) || epoch < 1) {
      throw new InputFileError({ file, key, problem: 'expected a positive integer epoch' });
    }
    if (!isMapping(value)) {
      throw new InputFileError({ file, key, problem: 'expected an object' });
    }
    const trainingLoss = loggedNumber(value.training_loss);
    if (trainingLoss === undefined) {
      throw new InputFileError({
        file,
        key: `${key}.training_loss`,
        problem: 'expected a number',
      });
    }
    const rawValidation = value.validation_loss;
    const validationLoss = Array.isArray(rawValidation)
      ? rawValidation.map(loggedNumber)
      : loggedNumber(rawValidation);
    if (
      validationLoss === undefined ||
      (Array.isArray(validationLoss) && validationLoss.includes(undefined))
    ) {
      throw new InputFileError({
        file,
        key: `${key}.validation_loss`,
        problem: 'expected a number or a list of numbers',
      });
    }
    const rawChi2s = value.validation_chi2s;
    if (!isMapping(rawChi2s)) {
      throw new InputFileError({
        file,
        key: `${key}.validation_chi2s`,
        problem: 'expected an object of numbers',
      });
    }
    const validationChi2s: Record<string, number> = {};
    for (const [group, chi2] of Object.entries(rawChi2s)) {
      const number = loggedNumber(chi2);
      if (number === undefined) {
        throw new InputFileError({
          file,
          key: `${key}.validation_chi2s.${group}`,
          problem: 'expected a number',
        });
      }
      validationChi2s[group] = number;
    }
    entries.set(epoch, {
      trainingLoss,
      validationLoss: validationLoss as number | number[],
      validationChi2s,
    });
  }
  return new Map([...entries].sort(([a], [b]) => a - b));
}
