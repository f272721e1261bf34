import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import { decodeLz4Frame, isLz4Frame } from './lz4-frame.js';
import { inputFileError } from '@partonfit/testing';
import { lz4Frame } from '@partonfit/testing/lz4';
import { hexBytes } from './pineappl.fixture.js';
import { xxhash32 } from './xxhash32.js';

const ascii = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

// 50 × 'Nobody inspects the spammish repetition. abcabcabcabcabcabcabcabc ', compressed by the
// `lz4` command (v1.9): -B4 -BD --content-size (content size and content checksum) and -B4 -BX
// (block checksums and content checksum).
const LZ4_TEXT =
  '04224d186c40e40c000000000000d148000000ff1d4e6f626f647920696e73706563747320746865207370616d6d' +
  '6973682072657065746974696f6e2e206162630300021f204200ffffffffffffffffffffffff9650636162632000' +
  '000000f2c76fad';
const LZ4_TEXT_BLOCK_CHECKSUMS =
  '04224d187440bd48000000ff1d4e6f626f647920696e73706563747320746865207370616d6d6973682072657065' +
  '746974696f6e2e206162630300021f204200ffffffffffffffffffffffff9650636162632047fa5dbc00000000f2' +
  'c76fad';
const TEXT = 'Nobody inspects the spammish repetition. abcabcabcabcabcabcabcabc '.repeat(50);

describe('xxhash32', () => {
  it('should give the published test values', () => {
    expect(xxhash32(new Uint8Array())).toBe(0x02cc5d05);
    expect(xxhash32(ascii('Nobody inspects the spammish repetition'))).toBe(0xe2293b2f);
  });
});

describe('decodeLz4Frame', () => {
  it('should decode frames of the lz4 command with content size, block and content checksums', () => {
    expect(text(decodeLz4Frame(hexBytes(LZ4_TEXT), 'text.lz4'))).toBe(TEXT);
    expect(text(decodeLz4Frame(hexBytes(LZ4_TEXT_BLOCK_CHECKSUMS), 'text.lz4'))).toBe(TEXT);
  });

  it('should copy overlapping matches and let linked blocks reach into earlier blocks', () => {
    // literals "ab", then a match of 4 + 3 = 7 at distance 2, then the last literal "!"
    const sequences = Uint8Array.of(0x23, 0x61, 0x62, 0x02, 0x00, 0x10, 0x21);
    const first = lz4Frame([{ compressed: sequences }], { independent: true });
    expect(text(decodeLz4Frame(first, 'f'))).toBe('ababababa!');
    // second block: no literals, a match of 4 at distance 5 (into the first block), last "?"
    const linked = [
      { stored: ascii('hello') },
      { compressed: Uint8Array.of(0x00, 0x05, 0x00, 0x10, 0x3f) },
    ];
    expect(text(decodeLz4Frame(lz4Frame(linked, { independent: false }), 'f'))).toBe('hellohell?');
    const error = inputFileError(() =>
      decodeLz4Frame(lz4Frame(linked, { independent: true }), 'f'),
    );
    expect(error.message).toMatch(/match offset 5 points before the start/);
  });

  it('should refuse a wrong magic number, naming the file', () => {
    const bytes = hexBytes(LZ4_TEXT);
    bytes[0] = 0x05;
    expect(isLz4Frame(bytes)).toBe(false);
    const error = inputFileError(() => decodeLz4Frame(bytes, 'grid.pineappl.lz4'));
    expect(error.file).toBe('grid.pineappl.lz4');
    expect(error.message).toMatch(/not an LZ4 frame/);
  });

  it('should refuse every truncation of a frame', () => {
    const bytes = hexBytes(LZ4_TEXT);
    for (let length = 4; length < bytes.length; length++) {
      const error = inputFileError(() => decodeLz4Frame(bytes.subarray(0, length), 'cut.lz4'));
      expect(error.file).toBe('cut.lz4');
      expect(error.message).toMatch(/truncated|corrupt|checksum/);
    }
  });

  it('should refuse a corrupt header, block or content by their checksums', () => {
    const header = hexBytes(LZ4_TEXT);
    header[6] ^= 0x01;
    expect(inputFileError(() => decodeLz4Frame(header, 'f')).message).toMatch(/header checksum/);
    const block = hexBytes(LZ4_TEXT_BLOCK_CHECKSUMS);
    block[20] ^= 0x01;
    expect(inputFileError(() => decodeLz4Frame(block, 'f')).message).toMatch(/block checksum/);
    const content = hexBytes(LZ4_TEXT);
    content[30] ^= 0x01; // a literal byte
    expect(inputFileError(() => decodeLz4Frame(content, 'f')).message).toMatch(/content checksum/);
  });

  it('should refuse a block that decompresses beyond the frame block size', () => {
    // a match of 4 + 15 + 255·300 bytes is longer than the 64 KiB blocks of the frame
    const long = [0x1f, 0x61, 0x01, 0x00, ...new Array<number>(300).fill(255), 0, 0x10, 0x21];
    const frame = lz4Frame([{ compressed: Uint8Array.from(long) }], { independent: true });
    expect(inputFileError(() => decodeLz4Frame(frame, 'f')).message).toMatch(
      /more than the frame's block size 65536/,
    );
  });

  describe.skipIf(!hasSharedData('theory_208/fastkernel', 'PineAPPL FK table of theory 208'))(
    'the theory-208 PineAPPL table',
    () => {
      it('should decompress to the bytes `lz4 -d` gives', async () => {
        const file = `${SHARED_DATA}theory_208/fastkernel/HERA_CC_318GEV_EM_SIGMARED.pineappl.lz4`;
        const bytes = decodeLz4Frame(await readFile(file), file);
        // size and SHA-256 of the output of `lz4 -d` (v1.9.4) on this file
        expect(bytes.length).toBe(272954);
        const { createHash } = await import('node:crypto');
        expect(createHash('sha256').update(bytes).digest('hex')).toBe(
          '98bc1a5a525747b1cd96367ff6bd3263b61feead1c65b11205d68e998a31c335',
        );
      });
    },
  );
});
