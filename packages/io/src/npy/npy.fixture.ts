import { crc32, deflateRawSync } from 'node:zlib';

/** The bytes of a `.npy` file with the given header fields and raw data (format version 1). */
export function makeNpy(options: {
  readonly descr: string;
  readonly shape: readonly number[];
  readonly data: Uint8Array;
  readonly fortranOrder?: boolean;
  /** Replaces the whole header dict text. */
  readonly headerText?: string;
}): Uint8Array {
  const shape =
    options.shape.length === 1 ? `(${options.shape[0]},)` : `(${options.shape.join(', ')})`;
  const dict =
    options.headerText ??
    `{'descr': '${options.descr}', 'fortran_order': ${options.fortranOrder === true ? 'True' : 'False'}, 'shape': ${shape}, }`;
  const unpadded = 10 + dict.length + 1;
  const header = `${dict}${' '.repeat((64 - (unpadded % 64)) % 64)}\n`;
  const preamble = new Uint8Array(10);
  preamble.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]);
  new DataView(preamble.buffer).setUint16(8, header.length, true);
  return Buffer.concat([preamble, Buffer.from(header, 'latin1'), options.data]);
}

/** Bytes written element by element through a DataView, in the chosen byte order. */
export function bytesOf(
  values: readonly number[],
  itemSize: number,
  write: (view: DataView, offset: number, value: number) => void,
): Uint8Array {
  const bytes = new Uint8Array(values.length * itemSize);
  const view = new DataView(bytes.buffer);
  values.forEach((value, i) => {
    write(view, i * itemSize, value);
  });
  return bytes;
}

/** One member of a synthetic zip archive. */
export interface ZipFixtureMember {
  readonly name: string;
  readonly bytes: Uint8Array;
  /** 0 stored, 8 deflated. */
  readonly method: 0 | 8;
}

/** A zip archive of `members` with local headers, central directory and end record. */
export function makeZip(members: readonly ZipFixtureMember[]): Uint8Array {
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const member of members) {
    const name = Buffer.from(member.name, 'utf8');
    const data = member.method === 8 ? deflateRawSync(member.bytes) : member.bytes;
    const crc = crc32(member.bytes);
    const local = new Uint8Array(30 + name.length);
    const localView = new DataView(local.buffer);
    localView.setUint32(0, 0x04034b50, true);
    localView.setUint16(4, 20, true);
    localView.setUint16(8, member.method, true);
    localView.setUint32(14, crc, true);
    localView.setUint32(18, data.length, true);
    localView.setUint32(22, member.bytes.length, true);
    localView.setUint16(26, name.length, true);
    local.set(name, 30);
    const central = new Uint8Array(46 + name.length);
    const centralView = new DataView(central.buffer);
    centralView.setUint32(0, 0x02014b50, true);
    centralView.setUint16(4, 20, true);
    centralView.setUint16(6, 20, true);
    centralView.setUint16(10, member.method, true);
    centralView.setUint32(16, crc, true);
    centralView.setUint32(20, data.length, true);
    centralView.setUint32(24, member.bytes.length, true);
    centralView.setUint16(28, name.length, true);
    centralView.setUint32(42, offset, true);
    central.set(name, 46);
    locals.push(local, data);
    centrals.push(central);
    offset += local.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = new Uint8Array(22);
  const endView = new DataView(end.buffer);
  endView.setUint32(0, 0x06054b50, true);
  endView.setUint16(8, members.length, true);
  endView.setUint16(10, members.length, true);
  endView.setUint32(12, directory.length, true);
  endView.setUint32(16, offset, true);
  return Buffer.concat([...locals, directory, end]);
}
