/**
 * Tar archives written by hand for tests of the tar readers (`@partonfit/io`) and of downloads
 * (`@partonfit/distribution`).
 *
 * @packageDocumentation
 */

/** One entry of a synthetic tar archive. */
export interface TarFixtureEntry {
  readonly name: string;
  /** `0` regular file (default), `5` directory, `x` pax header, … */
  readonly type?: string;
  /** The member's data: text (written as UTF-8) or bytes. */
  readonly content?: string | Uint8Array;
  /** The ustar `prefix` field (POSIX long names are `prefix/name`). */
  readonly prefix?: string;
}

function writeField(block: Uint8Array, offset: number, text: string): void {
  block.set(Buffer.from(text, 'utf8'), offset);
}

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

/**
 * A POSIX ustar archive of `entries`, written by hand so that tests control every header byte
 * (two zero blocks end it).
 */
export function makeTar(entries: readonly TarFixtureEntry[]): Uint8Array {
  const blocks: Uint8Array[] = [];
  for (const entry of entries) {
    const content =
      typeof entry.content === 'string' || entry.content === undefined
        ? Buffer.from(entry.content ?? '', 'utf8')
        : entry.content;
    const header = new Uint8Array(512);
    writeField(header, 0, entry.name);
    writeField(header, 100, octal(0o644, 8));
    writeField(header, 108, octal(0, 8));
    writeField(header, 116, octal(0, 8));
    writeField(header, 124, octal(content.length, 12));
    writeField(header, 136, octal(0, 12));
    writeField(header, 148, '        ');
    writeField(header, 156, entry.type ?? '0');
    writeField(header, 257, 'ustar\u000000');
    writeField(header, 345, entry.prefix ?? '');
    const checksum = header.reduce((sum, byte) => sum + byte, 0);
    writeField(header, 148, `${checksum.toString(8).padStart(6, '0')}\0 `);
    blocks.push(header);
    const padded = new Uint8Array(Math.ceil(content.length / 512) * 512);
    padded.set(content);
    blocks.push(padded);
  }
  blocks.push(new Uint8Array(1024));
  return Buffer.concat(blocks);
}

/** A pax extended-header body setting `path`, with its self-counting length prefix. */
export function paxPathRecord(path: string): string {
  const body = ` path=${path}\n`;
  let length = body.length + 1;
  while (`${length}${body}`.length !== length) length = `${length}${body}`.length;
  return `${length}${body}`;
}
