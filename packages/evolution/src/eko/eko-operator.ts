import { readFile } from 'node:fs/promises';
import { FLAVOUR_BASIS, InputFileError, UnsupportedInputError } from '@partonfit/core';
import {
  decodeLz4Frame,
  isTar,
  npyAsFloat64,
  parseNpy,
  parseYamlRecord,
  tarEntries,
  type TarEntry,
  type YamlRecord,
} from '@partonfit/io';

/**
 * An EKO (evolution kernel operator) as eko 0.8 writes it (`Output.dump_tar`): the operator that
 * takes the PDFs f (not x·f) at Q0 on an input x-grid to every target scale on a target x-grid,
 * in the flavour basis of PDG ids, as NNPDF's pineko and evolven3fit use them.
 */
export interface EkoOperator {
  /** The tar file it was read from. */
  readonly file: string;
  /** `eko_version` of the metadata, when it is a string or number. */
  readonly ekoVersion: string | undefined;
  /** The input scale Q0 in GeV: √`q2_ref`. */
  readonly q0: number;
  /** The target scales Q² in GeV² (q): `Q2grid`. */
  readonly q2Grid: Float64Array;
  /** The x-grid of the input PDFs (x in): `inputgrid`. */
  readonly inputXGrid: Float64Array;
  /** The x-grid of the evolved PDFs (x out): `targetgrid`. */
  readonly targetXGrid: Float64Array;
  /** The PDG ids of the input flavour axis (flavour in): `inputpids`. */
  readonly inputPids: readonly number[];
  /** The PDG ids of the target flavour axis (flavour out): `targetpids`. */
  readonly targetPids: readonly number[];
  /** αs at each target scale (q): `alphas.npy`. */
  readonly alphaS: Float64Array;
  /**
   * The operator, (q, flavour out, x out, flavour in, x in) row-major: f_a(x_i, Q²_q) =
   * Σ_{b,j} operators[q, a, i, b, j] · f_b(x_j, Q0²) with a, b the positions in `targetPids`
   * and `inputPids`.
   */
  readonly operators: Float64Array;
}

/** The members of an eko 0.8 tar, inside its one folder. */
const MEMBERS = {
  metadata: 'metadata.yaml',
  operators: 'operators.npy.lz4',
  alphaS: 'alphas.npy.lz4',
} as const;

/** The PDG ids of eko's 14-flavour basis: γ, t̄ … d̄, g, d … t (any order is read). */
const FLAVOUR_PIDS = new Set(FLAVOUR_BASIS.map((member) => member.pid));

/** `problem` about `member` of the tar `file`. */
function memberError(file: string, member: string, problem: string): InputFileError {
  return new InputFileError({ file, key: member, problem });
}

/** Runs `read`; an InputFileError about `file` from it is named after the tar's `member`. */
function inMember<T>(file: string, member: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (!InputFileError.isInstance(error) || error.file !== file) throw error;
    throw new InputFileError({
      file,
      line: error.line,
      key: error.key === undefined ? member : `${member}: ${error.key}`,
      problem: error.problem,
      cause: error,
    });
  }
}

/** The regular-file member whose name ends with `/<name>` (or is `<name>`). */
function findMember(entries: readonly TarEntry[], name: string, file: string): TarEntry {
  const files = entries.filter((entry) => entry.type === '0' || entry.type === '\0');
  const found = files.filter((entry) => entry.name === name || entry.name.endsWith(`/${name}`));
  if (found.length === 1) return found[0];
  if (found.length > 1) {
    const names = found.map((entry) => entry.name).join(', ');
    throw memberError(file, name, `the tar holds it more than once (${names})`);
  }
  const held = files.map((entry) => entry.name).join(', ') || 'no file';
  throw memberError(file, name, `missing from the tar (it holds ${held})`);
}

/** A metadata list of numbers, from the top level or eko's `rotations` mapping. */
function numbers(record: YamlRecord, key: string, member: string): number[] {
  const rotations = record.values.rotations;
  const nested =
    rotations !== null && typeof rotations === 'object' && !Array.isArray(rotations)
      ? (rotations as Record<string, unknown>)[key]
      : undefined;
  const value = nested ?? record.values[key];
  if (value === undefined) throw metadataError(record, key, member, 'missing');
  if (!Array.isArray(value) || value.length === 0 || !value.every(isFiniteNumber)) {
    throw metadataError(record, key, member, 'expected a non-empty list of numbers');
  }
  return value;
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function metadataError(
  record: YamlRecord,
  key: string,
  member: string,
  problem: string,
): InputFileError {
  return new InputFileError({
    file: record.file,
    line: record.lineOf(key),
    key: `${member}: ${key}`,
    problem,
  });
}

/** An x-grid: strictly increasing, in (0, 1]. */
function xGridOf(record: YamlRecord, key: string, member: string): Float64Array {
  const grid = numbers(record, key, member);
  grid.forEach((x, i) => {
    if (!(x > 0 && x <= 1) || (i > 0 && !(x > grid[i - 1]))) {
      throw metadataError(
        record,
        key,
        member,
        `expected increasing x in (0, 1], got ${x} at position ${i}`,
      );
    }
  });
  return Float64Array.from(grid);
}

/** The 14 PDG ids of the flavour basis, in the file's order. */
function pidsOf(record: YamlRecord, key: string, member: string): number[] {
  const pids = numbers(record, key, member);
  const distinct = new Set(pids);
  const flavourBasis =
    pids.length === FLAVOUR_PIDS.size &&
    distinct.size === pids.length &&
    pids.every((pid) => FLAVOUR_PIDS.has(pid));
  if (!flavourBasis) {
    throw new UnsupportedInputError({
      file: record.file,
      key: `${member}: ${key}`,
      feature: `the flavour axis [${pids.join(', ')}]`,
      problem:
        'expected the 14 PDG ids of the flavour basis (22, ±1 … ±6, 21) in any order; ' +
        "an operator rotated to eko's evolution basis (100, 200, 203, …) is not read",
    });
  }
  return pids;
}

/** The target scales Q²: positive. */
function q2GridOf(record: YamlRecord, member: string): Float64Array {
  const grid = numbers(record, 'Q2grid', member);
  const bad = grid.find((q2) => !(q2 > 0));
  if (bad !== undefined) {
    throw metadataError(record, 'Q2grid', member, `expected scales Q² > 0, got ${bad}`);
  }
  return Float64Array.from(grid);
}

/** `q2_ref`: the input scale Q0². */
function q2RefOf(record: YamlRecord, member: string): number {
  const value = record.values.q2_ref;
  if (value === undefined) throw metadataError(record, 'q2_ref', member, 'missing');
  if (!isFiniteNumber(value) || !(value > 0)) {
    throw metadataError(record, 'q2_ref', member, `expected Q0² > 0, got ${JSON.stringify(value)}`);
  }
  return value;
}

/** An `.npy.lz4` member's values, checked to have `shape` and finite values. */
function arrayOf(
  entry: TarEntry,
  file: string,
  shape: readonly number[],
  axes: string,
): Float64Array {
  return inMember(file, entry.name, () => {
    const array = parseNpy(decodeLz4Frame(entry.data, file), { file });
    const sameShape =
      array.shape.length === shape.length && array.shape.every((size, i) => size === shape[i]);
    if (!sameShape) {
      throw new InputFileError({
        file,
        problem: `shape [${array.shape.join(', ')}] does not match the metadata's ${axes} = [${shape.join(', ')}]`,
      });
    }
    const values = npyAsFloat64(array, { file });
    const bad = values.findIndex((value) => !Number.isFinite(value));
    if (bad !== -1) {
      throw new InputFileError({ file, problem: `element ${bad} is ${values[bad]}` });
    }
    return values;
  });
}

/**
 * Reads an EKO from the bytes of eko 0.8's tar format (`Output.dump_tar`): one folder holding
 * `metadata.yaml` (`Q2grid`, `q2_ref`, `inputgrid`, `targetgrid`, `inputpids`, `targetpids`, at
 * the top level or under `rotations`), `operators.npy.lz4` (an LZ4 frame of a float64 `.npy`
 * array of shape (q, flavour out, x out, flavour in, x in)) and `alphas.npy.lz4` (αs at each
 * target scale, (q)). eko's error estimates (`operator_errors.npy.lz4`) are not read.
 *
 * @param bytes - the tar's content
 * @param file - the tar file, named in errors
 * @throws InputFileError naming the file and the member (and metadata key and line) when the
 *   bytes are not a tar, a member is missing, an LZ4 frame or `.npy` array is corrupt, a shape
 *   disagrees with the metadata, or a value is NaN or infinite
 * @throws UnsupportedInputError for flavour axes other than the 14 PDG ids of the flavour basis
 */
export function parseEkoOperator(bytes: Uint8Array, file: string): EkoOperator {
  if (!isTar(bytes)) {
    throw new InputFileError({
      file,
      problem: 'not a tar archive (an eko 0.8 EKO is a tar of metadata.yaml and .npy.lz4 arrays)',
    });
  }
  const entries = tarEntries(bytes, file);
  const metadataEntry = findMember(entries, MEMBERS.metadata, file);
  const member = metadataEntry.name;
  const record = inMember(file, member, () =>
    parseYamlRecord(new TextDecoder('utf-8').decode(metadataEntry.data), file),
  );
  const q2Grid = q2GridOf(record, member);
  const targetPids = pidsOf(record, 'targetpids', member);
  const targetXGrid = xGridOf(record, 'targetgrid', member);
  const inputPids = pidsOf(record, 'inputpids', member);
  const inputXGrid = xGridOf(record, 'inputgrid', member);
  const shape = [
    q2Grid.length,
    targetPids.length,
    targetXGrid.length,
    inputPids.length,
    inputXGrid.length,
  ];
  const axes = '(Q2grid, targetpids, targetgrid, inputpids, inputgrid)';
  const version = record.values.eko_version;
  return {
    file,
    ekoVersion:
      typeof version === 'string' || typeof version === 'number' ? String(version) : undefined,
    q0: Math.sqrt(q2RefOf(record, member)),
    q2Grid,
    inputXGrid,
    targetXGrid,
    inputPids,
    targetPids,
    alphaS: arrayOf(findMember(entries, MEMBERS.alphaS, file), file, [q2Grid.length], '(Q2grid)'),
    operators: arrayOf(findMember(entries, MEMBERS.operators, file), file, shape, axes),
  };
}

/**
 * Reads an EKO file in eko 0.8's tar format (e.g. NNPDF's `<dataset>.eko.tar`); see
 * {@link parseEkoOperator}.
 *
 * @param file - the tar file
 * @throws InputFileError as {@link parseEkoOperator}, and when the file cannot be read
 */
export async function readEkoOperator(file: string): Promise<EkoOperator> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(file);
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new InputFileError({ file, problem: `cannot read the file (${reason})`, cause });
  }
  return parseEkoOperator(bytes, file);
}
