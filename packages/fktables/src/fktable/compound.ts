import { InputFileError, OBSERVABLE_OPERATIONS, type ObservableOperation } from '@partonfit/core';
import { readInputText } from '@partonfit/io';
import { isObservableOperation, operandCountProblem } from './observable.js';
import { fkTableNameOfFile } from './parse-legacy-fk-table.js';

/**
 * A legacy COMPOUND file (`theory_<ID>/compound/FK_<SET>-COMPOUND.dat`): which FK tables build
 * a dataset's observable and how. In this legacy form every table is one operand.
 */
export interface CompoundSpec {
  /** The tables' names (`FK_<NAME>.dat` → `<NAME>`), one per operand, in order. */
  readonly tables: readonly string[];
  /** How the operands combine. */
  readonly operation: ObservableOperation;
}

/** Options of {@link parseCompound}. */
export interface ParseCompoundOptions {
  /** The file the text came from, for errors. */
  readonly file: string;
}

/**
 * Parses a legacy COMPOUND file: a first comment line (ignored), then lines `FK: FK_<NAME>.dat`
 * (the operands, in order) and one line `OP: <CODE>` (NULL, ADD, RATIO, ASY, SMN, COM, SMT);
 * blank lines are skipped.
 *
 * @throws InputFileError - naming the line, for any other line, a table file not named
 *   `FK_<NAME>.dat`, an unknown, missing or repeated operation, or a number of tables that does
 *   not fit the operation
 */
export function parseCompound(text: string, options: ParseCompoundOptions): CompoundSpec {
  const { file } = options;
  const tables: string[] = [];
  let operation: { code: ObservableOperation; line: number } | undefined;
  const lines = text.split('\n');
  for (let index = 1; index < lines.length; index++) {
    const line = index + 1;
    const content = lines[index].trim();
    if (content === '') continue;
    const match = /^(FK|OP):\s*(\S+)$/.exec(content);
    if (match === null) {
      throw new InputFileError({
        file,
        line,
        problem: `expected "FK: FK_<NAME>.dat" or "OP: <CODE>", got "${content}"`,
      });
    }
    const [, key, value] = match;
    if (key === 'FK') {
      const name = fkTableNameOfFile(value);
      if (name === undefined || value.includes('/')) {
        throw new InputFileError({
          file,
          line,
          key: 'FK',
          problem: `expected a file name FK_<NAME>.dat, got "${value}"`,
        });
      }
      tables.push(name);
      continue;
    }
    if (operation !== undefined) {
      throw new InputFileError({
        file,
        line,
        key: 'OP',
        problem: `a second operation (the first is on line ${operation.line})`,
      });
    }
    if (!isObservableOperation(value)) {
      throw new InputFileError({
        file,
        line,
        key: 'OP',
        problem: `unknown operation "${value}": expected one of ${OBSERVABLE_OPERATIONS.join(', ')}`,
      });
    }
    operation = { code: value, line };
  }
  if (operation === undefined) {
    throw new InputFileError({
      file,
      line: lines.length,
      key: 'OP',
      problem: 'missing "OP: <CODE>"',
    });
  }
  const problem = operandCountProblem(operation.code, tables.length);
  if (problem !== undefined) {
    throw new InputFileError({ file, line: operation.line, key: 'OP', problem });
  }
  return { tables, operation: operation.code };
}

/**
 * Reads a legacy COMPOUND file with {@link parseCompound}.
 *
 * @throws InputFileError - when the file cannot be read or is not a valid COMPOUND file
 */
export async function loadCompound(file: string): Promise<CompoundSpec> {
  const { text } = await readInputText(file);
  return parseCompound(text, { file });
}
