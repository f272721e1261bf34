import { PartonfitError } from './partonfit-error.js';

const marker = 'partonfit.error.RuncardError';
const markerSymbol = Symbol.for(marker);

/** One problem found in a runcard. */
export interface RuncardIssue {
  /** The key path, e.g. `parameters.nodes_per_layer[2]`; empty for the document itself. */
  readonly keyPath: string;
  /** What was expected and what was found. */
  readonly problem: string;
  /** The 1-based line in the runcard file where the key or value stands, when known. */
  readonly line?: number;
}

/**
 * A runcard that cannot be used: bad YAML, values of the wrong kind or out of range, unknown
 * keys. Carries every issue found, each with its key path and line, so a user can fix them all
 * at once before any work starts.
 */
export class RuncardError extends PartonfitError {
  readonly [markerSymbol] = true;
  /** The runcard file, when the runcard was read from one. */
  readonly file: string | undefined;
  /** Every problem found, in document order. */
  readonly issues: readonly RuncardIssue[];

  constructor({
    file,
    issues,
    cause,
  }: {
    file?: string | undefined;
    issues: readonly RuncardIssue[];
    cause?: unknown;
  }) {
    super({ message: formatRuncardIssues(file, issues), cause });
    this.name = 'RuncardError';
    this.file = file;
    this.issues = issues;
  }

  static override isInstance(error: unknown): error is RuncardError {
    return PartonfitError.hasMarker(error, marker);
  }
}

function formatRuncardIssues(file: string | undefined, issues: readonly RuncardIssue[]): string {
  const source = file ?? 'runcard';
  const heading = `${source}: ${issues.length} problem${issues.length === 1 ? '' : 's'} in the runcard`;
  const lines = issues.map((issue) => {
    const where = issue.line === undefined ? source : `${source}:${issue.line}`;
    const key = issue.keyPath === '' ? '' : `${issue.keyPath}: `;
    return `  ${where}: ${key}${issue.problem}`;
  });
  return [heading, ...lines].join('\n');
}
