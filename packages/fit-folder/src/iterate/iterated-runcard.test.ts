import { readFile } from 'node:fs/promises';
import { InputFileError, InvalidArgumentError, parseRuncard } from '@partonfit/core';
import { CLOSURE_RUNCARD } from '@partonfit/testing';
import { describe, expect, it } from 'vitest';
import { iteratedRuncardText } from './iterated-runcard.js';

/** The lines of `after` that are not in `before`, and those of `before` not in `after`. */
function changedLines(before: string, after: string) {
  const old = before.split('\n');
  const now = after.split('\n');
  return {
    added: now.filter((line) => !old.includes(line)),
    removed: old.filter((line) => !now.includes(line)),
  };
}

describe('iteratedRuncardText', () => {
  it('should change only t0pdfset, the ranges and the seeds of the closure runcard, in place', async () => {
    const text = await readFile(CLOSURE_RUNCARD, 'utf8');
    const iterated = iteratedRuncardText(text, 'closure.yml', {
      t0pdfset: 'closure',
      lhapdfFolder: 'fits/closure',
      ranges: [
        { flavour: 'sng', smallx: [0.9123, 1.173], largex: [2.6, 3.91] },
        { flavour: 'v', smallx: [0.2345, 1] },
      ],
      seeds: { trvlseed: 123456789, mcseed: 42 },
      comment: 'partonfit iterate fits/closure: t0pdfset, fitting.basis ranges, seeds',
    });
    expect(changedLines(text, iterated)).toEqual({
      added: [
        '# partonfit iterate fits/closure: t0pdfset, fitting.basis ranges, seeds',
        'datacuts:',
        '  t0pdfset: closure',
        'data_paths:',
        '  lhapdf: fits/closure',
        'trvlseed: 123456789',
        'mcseed: 42',
        '    - { fl: sng, trainable: false, smallx: [0.9123, 1.173], largex: [2.6, 3.91] }',
        '    - { fl: v, trainable: false, smallx: [0.2345, 1], largex: [2.5, 3.5] }',
      ],
      removed: [
        'trvlseed: 3',
        'mcseed: 1',
        '    - { fl: sng, trainable: false, smallx: [1.05, 1.15], largex: [2.5, 3.5] }',
        '    - { fl: v, trainable: false, smallx: [0.15, 0.25], largex: [2.5, 3.5] }',
      ],
    });
    // the new sections follow dataset_inputs, each after a blank line
    expect(iterated).toContain(
      '  - { dataset: CLOSURE_XG, frac: 0.75 }\n\ndatacuts:\n  t0pdfset: closure\n\ndata_paths:\n  lhapdf: fits/closure\n\nclosuretest:',
    );
    const { runcard } = parseRuncard(iterated);
    expect(runcard.datacuts.t0pdfset).toBe('closure');
    expect(runcard.data_paths.lhapdf).toBe('fits/closure');
    expect(runcard.nnseed).toBe(2);
    expect(runcard.fitting.basis[0].largex).toEqual([2.6, 3.91]);
  });

  it('should add to existing block and flow sections, and replace a t0pdfset keeping its comment', () => {
    const text = [
      'dataset_inputs:',
      '  - dataset: X',
      'datacuts:',
      '  q2min: 3.49   # DIS cut',
      '  # the old t0 set',
      'data_paths: { theories: ../theories }',
      'fitting:',
      '  basis:',
      '    - fl: g',
      '      smallx:',
      '        - 1.0e-3',
      '        - 2',
      '',
    ].join('\n');
    const iterated = iteratedRuncardText(text, 'x.yml', {
      t0pdfset: 'NNPDF40 fit',
      lhapdfFolder: '../fits/x',
      ranges: [{ flavour: 'g', smallx: [1.093, 1.2] }],
    });
    expect(iterated).toBe(
      [
        'dataset_inputs:',
        '  - dataset: X',
        'datacuts:',
        '  q2min: 3.49   # DIS cut',
        '  t0pdfset: NNPDF40 fit',
        '  # the old t0 set',
        'data_paths: { theories: ../theories, lhapdf: ../fits/x }',
        'fitting:',
        '  basis:',
        '    - fl: g',
        '      smallx:',
        '        - 1.093',
        '        - 1.2',
        '',
      ].join('\n'),
    );
    // a fit named 180 is the string '180', not the number
    const again = iteratedRuncardText(iterated, 'x.yml', { t0pdfset: '180', ranges: [] });
    expect(again).toContain('  t0pdfset: "180"\n');
  });

  it('should replace data_paths.lhapdf, and name the problem: a flavour not fitted, a list for a value, not YAML', () => {
    const text = 'datacuts: {}\ndata_paths: { lhapdf: /sets }\nfitting: { basis: [{ fl: g }] }\n';
    expect(() =>
      iteratedRuncardText(text, 'x.yml', { t0pdfset: 'a', ranges: [{ flavour: 'sng' }] }),
    ).toThrow("fitting.basis: has no flavour 'sng'");
    expect(
      iteratedRuncardText(text, 'x.yml', { t0pdfset: 'a', lhapdfFolder: 'fits/a', ranges: [] }),
    ).toContain('data_paths: { lhapdf: fits/a }');
    expect(() =>
      iteratedRuncardText('datacuts: { t0pdfset: [a] }\n', 'x.yml', { t0pdfset: 'a', ranges: [] }),
    ).toThrow(InvalidArgumentError);
    expect(iteratedRuncardText(text, 'x.yml', { t0pdfset: 'a', ranges: [] })).toContain(
      'datacuts: {t0pdfset: a}',
    );
    expect(() =>
      iteratedRuncardText('a: [1, 2\n', 'bad.yml', { t0pdfset: 'a', ranges: [] }),
    ).toThrow(InputFileError);
  });

  it('should compute a theory covariance with the new t0 set, as upstream', () => {
    const text = "theorycovmatconfig:\n  point_prescriptions: ['7 point'] # MHOU\n  pdf: toyLH\n";
    expect(iteratedRuncardText(text, 'x.yml', { t0pdfset: 'closure', ranges: [] })).toBe(
      "theorycovmatconfig:\n  point_prescriptions: ['7 point'] # MHOU\n  pdf: closure\n\ndatacuts:\n  t0pdfset: closure\n",
    );
  });
});
