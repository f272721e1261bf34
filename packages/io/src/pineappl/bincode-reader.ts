import { InputFileError } from '@partonfit/core';

/**
 * A reader of bincode 1.x in its default configuration, as serde structures are written by
 * `bincode::serialize`: little-endian fixed-width integers, `u64` lengths before sequences,
 * strings and maps, a `u32` variant index before enum contents, one byte for `bool` and for the
 * tag of an `Option`. Structures and tuples are their fields in order, with no framing.
 *
 * Every read checks the bytes that remain, so a truncated input or a corrupt length is an
 * {@link InputFileError} naming the file, the field (`key`) and the byte offset, never an
 * out-of-range read or a huge allocation.
 */
export class BincodeReader {
  private readonly view: DataView;
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  /** The byte offset of the next read. */
  offset: number;

  /**
   * @param bytes - the serialised data
   * @param file - the file it came from, for error messages
   * @param offset - where reading starts
   */
  constructor(
    readonly bytes: Uint8Array,
    readonly file: string,
    offset = 0,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.offset = offset;
  }

  /** The number of bytes not yet read. */
  get remaining(): number {
    return this.bytes.length - this.offset;
  }

  /** An {@link InputFileError} for the field `key` at the current offset. */
  error(key: string, problem: string): InputFileError {
    return new InputFileError({
      file: this.file,
      key,
      problem: `${problem} (byte ${this.offset})`,
    });
  }

  private need(count: number, key: string): void {
    if (count > this.remaining) {
      throw this.error(key, `truncated: ${count} bytes needed, ${this.remaining} remain`);
    }
  }

  /** An unsigned byte. */
  u8(key: string): number {
    this.need(1, key);
    return this.view.getUint8(this.offset++);
  }

  /** A `bool`: one byte, 0 or 1. */
  bool(key: string): boolean {
    const byte = this.u8(key);
    if (byte > 1) throw this.error(key, `invalid bool byte ${byte}`);
    return byte === 1;
  }

  /** A little-endian `u32`. */
  u32(key: string): number {
    this.need(4, key);
    const value = this.view.getUint32(this.offset, true);
    this.offset += 4;
    return value;
  }

  /** A little-endian `i32`. */
  i32(key: string): number {
    this.need(4, key);
    const value = this.view.getInt32(this.offset, true);
    this.offset += 4;
    return value;
  }

  /** A little-endian `u64` (a Rust `usize`), which must be exact as a JavaScript number. */
  u64(key: string): number {
    this.need(8, key);
    const low = this.view.getUint32(this.offset, true);
    const high = this.view.getUint32(this.offset + 4, true);
    if (high >= 2 ** 21)
      throw this.error(key, `integer ${(BigInt(high) << 32n) + BigInt(low)} is too large`);
    this.offset += 8;
    return high * 2 ** 32 + low;
  }

  /** A little-endian IEEE-754 `f64`, which must be finite. */
  f64(key: string): number {
    this.need(8, key);
    const value = this.view.getFloat64(this.offset, true);
    if (!Number.isFinite(value)) throw this.error(key, `${value} where a finite number belongs`);
    this.offset += 8;
    return value;
  }

  /**
   * The `u64` length of a sequence whose elements take at least `minElementBytes` each: a length
   * the remaining bytes cannot hold is a corrupt length.
   */
  length(key: string, minElementBytes: number): number {
    const start = this.offset;
    const count = this.u64(key);
    if (count * minElementBytes > this.remaining) {
      this.offset = start;
      throw this.error(
        key,
        `corrupt length ${count}: ${count} elements of at least ${minElementBytes} bytes ` +
          `do not fit in the ${this.remaining - 8} bytes that remain`,
      );
    }
    return count;
  }

  /** The `u32` variant index of an enum with `variants` variants. */
  variant(key: string, variants: number): number {
    const index = this.u32(key);
    if (index >= variants) {
      this.offset -= 4;
      throw this.error(key, `unknown variant ${index} (expected 0 to ${variants - 1})`);
    }
    return index;
  }

  /** The tag of an `Option`: whether a value follows. */
  option(key: string): boolean {
    const tag = this.u8(key);
    if (tag > 1) throw this.error(key, `invalid Option tag ${tag}`);
    return tag === 1;
  }

  /** A `String`: its length, then UTF-8 bytes. */
  string(key: string): string {
    const length = this.length(key, 1);
    const bytes = this.bytes.subarray(this.offset, this.offset + length);
    try {
      const text = this.decoder.decode(bytes);
      this.offset += length;
      return text;
    } catch (cause) {
      throw new InputFileError({
        file: this.file,
        key,
        problem: `a string that is not UTF-8 (byte ${this.offset})`,
        cause,
      });
    }
  }

  /** A `Vec<f64>`: its length, then the values, each finite. */
  f64Vec(key: string): Float64Array {
    const count = this.length(key, 8);
    const values = new Float64Array(count);
    for (let index = 0; index < count; index++) {
      values[index] = this.view.getFloat64(this.offset, true);
      if (!Number.isFinite(values[index])) {
        throw this.error(`${key}[${index}]`, `${values[index]} where a finite number belongs`);
      }
      this.offset += 8;
    }
    return values;
  }

  /** A `Vec<T>` of elements read by `element`, each at least `minElementBytes` long. */
  vec<T>(key: string, minElementBytes: number, element: (index: number) => T): T[] {
    const count = this.length(key, minElementBytes);
    const values: T[] = [];
    for (let index = 0; index < count; index++) values.push(element(index));
    return values;
  }
}
