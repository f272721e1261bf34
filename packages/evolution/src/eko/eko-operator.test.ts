import { readFile } from 'node:fs/promises';
import { InputFileError, UnsupportedInputError } from '@partonfit/core';
import { decodeLz4Frame, tarEntries } from '@partonfit/io';
import { inputFileError, inputFileRejection } from '@partonfit/testing';
import { storedLz4Frame } from '@partonfit/testing/lz4';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import { makeTar } from '@partonfit/testing/tar';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseEkoOperator, readEkoOperator, type EkoOperator } from './eko-operator.js';

const EKO = `${SHARED_DATA}eko/LHCB_DY_13TEV_DIMUON.eko.tar`;
const FOLDER = 'LHCB_DY_13TEV_DIMUON';
/** eko's flavour basis, the order of this file's `inputpids` and `targetpids`. */
const EKO_PIDS = [22, -6, -5, -4, -3, -2, -1, 21, 1, 2, 3, 4, 5, 6];

/** The tar's members by name, as bytes. */
function membersOf(tar: Uint8Array): Map<string, Uint8Array> {
  return new Map(tarEntries(tar, 'eko').map((entry) => [entry.name, entry.data]));
}

/** A tar of `members` in the folder eko writes. */
function ekoTar(members: ReadonlyMap<string, Uint8Array>): Uint8Array {
  return makeTar([
    { name: `${FOLDER}/`, type: '5' },
    ...[...members].map(([name, content]) => ({ name, content })),
  ]);
}

/** An `.npy` file's shape and the element at flat index `index`, decoded by hand. */
function npyElement(npy: Uint8Array, index: number): { shape: number[]; value: number } {
  const headerLength = npy[8] + 256 * npy[9];
  const header = new TextDecoder().decode(npy.subarray(10, 10 + headerLength));
  const shape = (/'shape': \(([^)]*)\)/.exec(header)?.[1] ?? '')
    .split(',')
    .filter((size) => size.trim() !== '')
    .map(Number);
  const view = new DataView(npy.buffer, npy.byteOffset + 10 + headerLength);
  return { shape, value: view.getFloat64(8 * index, true) };
}

describe.skipIf(!hasSharedData('eko/LHCB_DY_13TEV_DIMUON.eko.tar', 'the EKO reader on NNPDF data'))(
  'readEkoOperator on the LHCb Drell–Yan EKO',
  () => {
    let tar: Uint8Array;
    let eko: EkoOperator;
    beforeAll(async () => {
      tar = new Uint8Array(await readFile(EKO));
      eko = await readEkoOperator(EKO);
    });

    it('should read the metadata: Q0 = 1.65 GeV, one target scale, 50-point x-grids, the flavour basis', () => {
      const metadata = new TextDecoder().decode(membersOf(tar).get(`${FOLDER}/metadata.yaml`));
      expect(eko.ekoVersion).toBe('0.8.5');
      expect(eko.q0).toBeCloseTo(1.65, 14);
      expect([...eko.q2Grid]).toEqual([8308.960562249998]);
      expect(eko.inputXGrid.length).toBe(50);
      expect(eko.inputXGrid[0]).toBe(1.9999999999999954e-7);
      expect(eko.inputXGrid[49]).toBe(1);
      expect(metadata).toContain(`- ${eko.inputXGrid[25]}\n`);
      expect([...eko.targetXGrid]).toEqual([...eko.inputXGrid]);
      expect(eko.inputPids).toEqual(EKO_PIDS);
      expect(eko.targetPids).toEqual(EKO_PIDS);
      expect(eko.operators.length).toBe(14 * 50 * 14 * 50);
    });

    it('should hold the values of the npy arrays, (q, flavour out, x out, flavour in, x in) row-major', () => {
      const members = membersOf(tar);
      const operators = decodeLz4Frame(members.get(`${FOLDER}/operators.npy.lz4`)!, 'operators');
      const alphas = decodeLz4Frame(members.get(`${FOLDER}/alphas.npy.lz4`)!, 'alphas');
      const gluon = EKO_PIDS.indexOf(21);
      const up = EKO_PIDS.indexOf(2);
      const bottom = EKO_PIDS.indexOf(5);
      for (const [a, i, b, j] of [
        [gluon, 20, gluon, 20],
        [up, 30, up, 30],
        [bottom, 10, gluon, 12],
        [up, 5, gluon, 40],
      ]) {
        const index = ((a * 50 + i) * 14 + b) * 50 + j;
        const byHand = npyElement(operators, index);
        expect(byHand.shape).toEqual([1, 14, 50, 14, 50]);
        expect(eko.operators[index]).toBe(byHand.value);
      }
      expect(eko.operators[((gluon * 50 + 20) * 14 + gluon) * 50 + 20]).toBeCloseTo(0.0808925, 6);
      expect(npyElement(alphas, 0)).toEqual({ shape: [1], value: eko.alphaS[0] });
      expect(eko.alphaS[0]).toBeCloseTo(0.11800908, 8);
    });

    it('should name the tar and the member when a member is missing or corrupt', () => {
      const members = membersOf(tar);
      members.delete(`${FOLDER}/operators.npy.lz4`);
      const missing = inputFileError(() => parseEkoOperator(ekoTar(members), 'cut.eko.tar'));
      expect(missing.file).toBe('cut.eko.tar');
      expect(missing.key).toBe('operators.npy.lz4');
      expect(missing.message).toMatch(/missing from the tar \(it holds .*metadata\.yaml/);

      const corrupt = membersOf(tar);
      const frame = corrupt.get(`${FOLDER}/alphas.npy.lz4`)!;
      corrupt.set(`${FOLDER}/alphas.npy.lz4`, frame.subarray(0, 60));
      const lz4 = inputFileError(() => parseEkoOperator(ekoTar(corrupt), 'lz4.eko.tar'));
      expect(lz4.key).toBe(`${FOLDER}/alphas.npy.lz4: LZ4 frame`);
      expect(lz4.message).toMatch(/^lz4\.eko\.tar: .*alphas\.npy\.lz4: LZ4 frame: truncated/);
    });

    it('should refuse operators whose shape disagrees with the metadata, and NaN values', () => {
      const members = membersOf(tar);
      const metadata = new TextDecoder().decode(members.get(`${FOLDER}/metadata.yaml`));
      members.set(
        `${FOLDER}/metadata.yaml`,
        new TextEncoder().encode(metadata.replace('- 8308.960562249998\n', '- 100.0\n- 8000.0\n')),
      );
      const shape = inputFileError(() => parseEkoOperator(ekoTar(members), 'shape.eko.tar'));
      expect(shape.message).toBe(
        `shape.eko.tar: ${FOLDER}/alphas.npy.lz4: shape [1] does not match the metadata's (Q2grid) = [2]`,
      );

      const nan = membersOf(tar);
      const alphas = decodeLz4Frame(nan.get(`${FOLDER}/alphas.npy.lz4`)!, 'alphas');
      new DataView(alphas.buffer, alphas.byteOffset).setFloat64(alphas.length - 8, NaN, true);
      nan.set(`${FOLDER}/alphas.npy.lz4`, storedLz4Frame(alphas));
      expect(inputFileError(() => parseEkoOperator(ekoTar(nan), 'nan.eko.tar')).message).toBe(
        `nan.eko.tar: ${FOLDER}/alphas.npy.lz4: element 0 is NaN`,
      );
    });

    it("should refuse an operator rotated to eko's evolution basis, naming the key and line", () => {
      const members = membersOf(tar);
      const metadata = new TextDecoder().decode(members.get(`${FOLDER}/metadata.yaml`));
      const evolutionPids = [22, 100, 21, 200, 203, 208, 215, 224, 235, 103, 108, 115, 124, 135];
      const rotated = metadata.replace(
        /inputpids:\n(- -?\d+\n)+/,
        `inputpids:\n${evolutionPids.map((pid) => `- ${pid}\n`).join('')}`,
      );
      members.set(`${FOLDER}/metadata.yaml`, new TextEncoder().encode(rotated));
      const error = inputFileError(() => parseEkoOperator(ekoTar(members), 'evol.eko.tar'));
      expect(UnsupportedInputError.isInstance(error)).toBe(true);
      expect(error.key).toBe(`${FOLDER}/metadata.yaml: inputpids`);
      expect(error.message).toMatch(/evolution basis/);
    });
  },
);

describe('parseEkoOperator on inputs that are not EKOs', () => {
  it('should refuse bytes that are not a tar, and a tar without metadata', async () => {
    const text = inputFileError(() =>
      parseEkoOperator(new TextEncoder().encode('Q2grid: []'), 'x'),
    );
    expect(text.message).toMatch(/^x: not a tar archive/);
    const empty = inputFileError(() =>
      parseEkoOperator(makeTar([{ name: 'eko/other.txt', content: 'hi' }]), 'empty.tar'),
    );
    expect(empty.message).toBe(
      'empty.tar: metadata.yaml: missing from the tar (it holds eko/other.txt)',
    );
    const absent = await inputFileRejection(readEkoOperator('/nonexistent/eko.tar'));
    expect(absent.message).toMatch(/cannot read the file \(ENOENT/);
  });

  it('should name the metadata key and line of a bad x-grid', () => {
    const metadata = [
      'Q2grid:',
      '- 100.0',
      'q2_ref: 2.7225',
      'inputgrid:',
      '- 0.5',
      '- 0.1',
      'targetgrid: [0.1, 0.5]',
      `inputpids: [${EKO_PIDS.join(', ')}]`,
      `targetpids: [${EKO_PIDS.join(', ')}]`,
    ].join('\n');
    const tar = makeTar([{ name: 'eko/metadata.yaml', content: metadata }]);
    const error = inputFileError(() => parseEkoOperator(tar, 'grid.tar'));
    expect(error).toBeInstanceOf(InputFileError);
    expect(error.message).toBe(
      'grid.tar:4: eko/metadata.yaml: inputgrid: expected increasing x in (0, 1], got 0.1 at position 1',
    );
  });
});
