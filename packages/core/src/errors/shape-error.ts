import { PartonfitError } from './partonfit-error.js';

const marker = 'partonfit.error.ShapeError';
const markerSymbol = Symbol.for(marker);

/**
 * An array or tensor whose shape does not fit where it is used, caught before it reaches a
 * tensor op. Carries the expected shape (with `null` for any size) and the actual one.
 */
export class ShapeError extends PartonfitError {
  readonly [markerSymbol] = true;
  /** What the array is, e.g. `fkTable` or `covariance`. */
  readonly quantity: string;
  /** The expected shape; `null` stands for an axis of any size. */
  readonly expected: readonly (number | null)[];
  /** The shape that was given. */
  readonly actual: readonly number[];

  constructor(options: {
    quantity: string;
    expected: readonly (number | null)[];
    actual: readonly number[];
    axes?: string | undefined;
    cause?: unknown;
  }) {
    const expected = `[${options.expected.map((size) => size ?? '*').join(', ')}]`;
    const axes = options.axes === undefined ? '' : ` ${options.axes}`;
    super({
      message: `${options.quantity}: expected shape ${expected}${axes}, got [${options.actual.join(', ')}]`,
      cause: options.cause,
    });
    this.name = 'ShapeError';
    this.quantity = options.quantity;
    this.expected = options.expected;
    this.actual = options.actual;
  }

  static override isInstance(error: unknown): error is ShapeError {
    return PartonfitError.hasMarker(error, marker);
  }
}
