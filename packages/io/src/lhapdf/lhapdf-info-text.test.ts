import { InvalidArgumentError } from '@partonfit/core';
import { parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { lhapdfInfoText, type LhapdfInfo } from './lhapdf-info-text.js';
import { parseLhapdfInfo } from './lhapdf-set.js';

const MINIMAL: LhapdfInfo = {
  description: 'partonfit test set',
  numMembers: 3,
  flavours: [-2, -1, 21, 1, 2, 22],
  orderQCD: 2,
  xMin: 1e-9,
  xMax: 1,
  qMin: 1.65,
  qMax: 1e5,
};

const FULL: LhapdfInfo = {
  ...MINIMAL,
  description: 'NNLO fit: alphas(MZ)=0.118, mem=0 => average # not a comment',
  setIndex: 331100,
  authors: 'The partonfit authors',
  reference: 'arXiv:2109.02653',
  dataVersion: 2,
  particle: -2212,
  flavorScheme: 'fixed',
  numFlavors: 4,
  errorType: 'replicas+as',
  mZ: 91.1876,
  masses: { up: 0, charm: 1.51, bottom: 4.92, top: 172.5 },
  alphaS: {
    mZ: 0.1180024,
    orderQCD: 1,
    qs: [1.65, 4.92, 4.92, 100],
    values: [0.33074891, 0.21377883, 0.21377883, 0.11490031],
    lambda4: 0.342207,
    lambda5: 0.239,
  },
  extrapolator: 'nearest',
  forcePositive: 1,
  extra: { Comment: 'yes', Seeds: [1, 2, 3], Tiny: 1e-30, Huge: 1e21, Third: 1 / 3, Fit: true },
};

function parsed(info: LhapdfInfo) {
  return parseLhapdfInfo(lhapdfInfoText(info), {
    name: 'Toy',
    folder: '/toy',
    infoFile: '/toy/Toy.info',
  });
}

function argumentError(info: LhapdfInfo): InvalidArgumentError {
  try {
    lhapdfInfoText(info);
  } catch (error) {
    if (InvalidArgumentError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an InvalidArgumentError, nothing was thrown');
}

describe('lhapdfInfoText', () => {
  it('should write the required keys and the defaults in NNPDF order', () => {
    expect(lhapdfInfoText(MINIMAL)).toBe(
      [
        'SetDesc: partonfit test set',
        'Format: lhagrid1',
        'DataVersion: 1',
        'NumMembers: 3',
        'Particle: 2212',
        'Flavors: [-2, -1, 21, 1, 2, 22]',
        'OrderQCD: 2',
        'FlavorScheme: variable',
        'NumFlavors: 2',
        'ErrorType: replicas',
        'XMin: 1.0000000e-09',
        'XMax: 1.0000000e+00',
        'QMin: 1.6500000e+00',
        'QMax: 1.0000000e+05',
        'MZ: 9.1187600e+01',
        'Interpolator: logcubic',
        'Extrapolator: continuation',
        '',
      ].join('\n'),
    );
  });

  it('should write every field so that the set reader reads it back', () => {
    const set = parsed(FULL);
    expect(set).toMatchObject({
      description: FULL.description,
      numMembers: 3,
      flavours: FULL.flavours,
      xMin: 1e-9,
      xMax: 1,
      qMin: 1.65,
      qMax: 1e5,
      orderQCD: 2,
      alphaSMZ: 0.1180024,
      masses: { charm: 1.51, bottom: 4.92, top: 172.5 },
      errorType: 'replicas+as',
      forcePositive: 1,
      extrapolation: 'nearest',
    });
    expect(set.record).toMatchObject({
      SetIndex: 331100,
      Authors: 'The partonfit authors',
      Reference: 'arXiv:2109.02653',
      DataVersion: 2,
      Particle: -2212,
      FlavorScheme: 'fixed',
      NumFlavors: 4,
      MUp: 0,
      AlphaS_OrderQCD: 1,
      AlphaS_Type: 'ipol',
      AlphaS_Qs: [1.65, 4.92, 4.92, 100],
      AlphaS_Vals: [0.33074891, 0.21377883, 0.21377883, 0.11490031],
      AlphaS_Lambda4: 0.342207,
      AlphaS_Lambda5: 0.239,
      Interpolator: 'logcubic',
      Comment: 'yes',
      Seeds: [1, 2, 3],
      Tiny: 1e-30,
      Huge: 1e21,
      Third: 1 / 3,
      Fit: true,
    });
    expect(set.record).not.toHaveProperty('MDown');
  });

  it('should quote strings that YAML would misread and read them back unchanged', () => {
    const texts = ['yes', 'Null', '- a list?', 'two\nlines "quoted"', '1.5', 'trailing ', 'a: b'];
    for (const description of texts) {
      const text = lhapdfInfoText({ ...MINIMAL, description });
      expect(text.split('\n')[0]).toBe(`SetDesc: ${JSON.stringify(description)}`);
      expect(parsed({ ...MINIMAL, description }).description).toBe(description);
    }
    expect(lhapdfInfoText({ ...MINIMAL, authors: 'R.D. Ball, S. Carrazza (NNPDF)' })).toContain(
      '\nAuthors: R.D. Ball, S. Carrazza (NNPDF)\n',
    );
  });

  it('should read the same under YAML 1.1 as under YAML 1.2', () => {
    const text = lhapdfInfoText(FULL);
    const yaml11 = parseDocument(text, { version: '1.1' }).toJS() as Record<string, unknown>;
    expect(yaml11).toEqual(parseDocument(text, { version: '1.2' }).toJS());
    expect(yaml11).toMatchObject({ Tiny: 1e-30, Huge: 1e21, Comment: 'yes', XMin: 1e-9 });
  });

  it('should round αs(MZ) and the Λs exactly, table values to the format', () => {
    const info: LhapdfInfo = {
      ...MINIMAL,
      alphaS: { mZ: 0.11800241234, qs: [1.65, 2], values: [0.330748912345, 0.3], lambda4: 0.1 },
    };
    expect(parsed(info).record).toMatchObject({
      AlphaS_MZ: 0.11800241234,
      AlphaS_OrderQCD: 2,
      AlphaS_Vals: [0.33074891, 0.3],
      AlphaS_Lambda4: 0.1,
    });
  });

  it('should continue a flow list on the next line once a line passes 80 characters', () => {
    const names = Array.from({ length: 14 }, (_, i) => `abcdefghijk${String(i).padStart(2, '0')}`);
    const text = lhapdfInfoText({ ...MINIMAL, extra: { Names: names } });
    const lines = text.trimEnd().split('\n').slice(-3);
    // 'Names: [' and items of 13 characters: a line breaks after the item (and comma) that takes
    // it past 80 characters: 8 + 5 × 15 − 1 = 82, then 2 + 6 × 15 − 1 = 91
    expect(lines.map((line) => line.length)).toEqual([82, 91, 46]);
    expect(lines[1].startsWith('  abcdefghijk05, ')).toBe(true);
    expect(lines[2]).toBe('  abcdefghijk11, abcdefghijk12, abcdefghijk13]');
    expect(parsed({ ...MINIMAL, extra: { Names: names } }).record.Names).toEqual(names);
  });

  it('should name the field of invalid input', () => {
    const cases: [Partial<LhapdfInfo>, string][] = [
      [{ description: ' ' }, 'info.description: expected a non-empty string, got " "'],
      [{ numMembers: 0 }, 'info.numMembers: expected an integer ≥ 1, got 0'],
      [{ flavours: [21, 1, 21] }, 'info.flavours: PID 21 appears twice'],
      [{ xMin: 0 }, 'info.xMin: expected a number in (0, 1), got 0'],
      [{ xMax: 1.5 }, 'info.xMax: expected in (1e-9, 1], got 1.5'],
      [{ qMax: 1 }, 'info.qMax: expected a number above 1.65, got 1'],
      [{ masses: { charm: -1.51 } }, 'info.masses.charm: expected a mass ≥ 0, got -1.51'],
      [
        { alphaS: { mZ: 0.118, qs: [1.65, 2], values: [0.3] } },
        'info.alphaS: qs and values must be given together with the same length ≥ 2, got 2 and 1',
      ],
      [
        { alphaS: { mZ: 0.118, qs: [2, 1.65], values: [0.3, 0.33] } },
        'info.alphaS.qs[1]: expected a positive Q not below the one before, got 1.65',
      ],
      [{ alphaS: { mZ: 0.118, type: 'ipol' } }, "info.alphaS: type 'ipol' needs qs and values"],
      [{ alphaS: { mZ: 1.18 } }, 'info.alphaS.mZ: expected αs in (0, 1), got 1.18'],
      [
        { extrapolator: 'linear' as 'error' },
        "info.extrapolator: expected one of continuation, nearest, error, got 'linear'",
      ],
      [{ forcePositive: 3 as 0 }, 'info.forcePositive: expected 0, 1 or 2, got 3'],
      [{ particle: 0 }, 'info.particle: expected a non-zero PDG id, got 0'],
      [
        { extra: { NumMembers: 5 } },
        "info.extra: 'NumMembers' is written from the typed fields; set it there",
      ],
      [{ extra: { 'a: b': 1 } }, "info.extra: key 'a: b' is not a word of letters, digits and '_'"],
      [
        { extra: { Nested: { a: 1 } as unknown as string } },
        'info.extra.Nested: expected a finite number, a string, a boolean or a list of numbers and strings, got [object Object]',
      ],
    ];
    for (const [change, message] of cases) {
      expect(argumentError({ ...MINIMAL, ...change }).message).toBe(message);
    }
  });
});
