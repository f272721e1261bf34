import { InvalidArgumentError, ShapeError } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { hasSharedData } from '@partonfit/testing/shared-data';
import { readReferenceJson, REFERENCE_JSON } from './fit-folder.fixture.js';
import { replicaJson, type ReplicaSummary } from './replica-json.js';

const hasReference = hasSharedData(REFERENCE_JSON, 'replica JSON against upstream');

/** Upstream's JSON keys in upstream's order, with ours (`backend`) before `version`. */
const KEYS = [
  'preprocessing',
  'stop_epoch',
  'best_epoch',
  'erf_tr',
  'erf_vl',
  'chi2',
  'pos_state',
  'arc_lengths',
  'integrability',
  'timing',
  'hyperparameters',
  'backend',
  'version',
];

const SUMMARY: ReplicaSummary = {
  preprocessing: [
    { flavour: 'sng', smallX: 1.1115241050720215, largeX: 2.9478347301483154, trainable: false },
    { flavour: 'v3', smallX: 0.14818868041038513, largeX: 1.7534513473510742, trainable: true },
  ],
  stopEpoch: 1100,
  bestEpoch: 1099,
  trainingChi2: 7.2185821533203125,
  validationChi2: 3.1177773475646973,
  experimentalChi2: 5.285195716341636,
  positivity: 'POS_VETO',
  arcLengths: Float64Array.from([1.3, 1.2, 3.6, 1.07, 2.5]),
  integrability: [0.0099, 0.125, 4.28e-7, 0.142, 0.0155],
  timing: { walltime: { Total: 12.5, start: 0 }, cputime: { Total: 20.25, start: 0 } },
  backend: 'wasm',
  version: { partonfit: '0.1.0', node: 'v20.19.0' },
};

describe('replicaJson', () => {
  it("should write upstream's keys in upstream's order, indented by two spaces", () => {
    const text = replicaJson(SUMMARY);
    expect(text.endsWith('}\n')).toBe(true);
    expect(text.split('\n')[1]).toBe('  "preprocessing": [');
    const document = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(document)).toEqual(KEYS);
    expect(document.preprocessing).toEqual([
      { fl: 'sng', smallx: 1.1115241050720215, largex: 2.9478347301483154, trainable: false },
      { fl: 'v3', smallx: 0.14818868041038513, largex: 1.7534513473510742, trainable: true },
    ]);
    expect(document.arc_lengths).toEqual([1.3, 1.2, 3.6, 1.07, 2.5]);
    expect(document.integrability).toEqual([0.0099, 0.125, 4.28e-7, 0.142, 0.0155]);
    expect(document.hyperparameters).toBe('from runcard');
    expect(document.backend).toBe('wasm');
    expect(document.timing).toEqual(SUMMARY.timing);
  });

  it('should write hyperparameters when given', () => {
    const hyperparameters = { optimizer: 'Adam', learning_rate: 0.001 };
    const document = JSON.parse(replicaJson({ ...SUMMARY, hyperparameters })) as Record<
      string,
      unknown
    >;
    expect(document.hyperparameters).toEqual(hyperparameters);
  });

  it('should write a diverged replica’s non-finite χ² as null', () => {
    const document = JSON.parse(replicaJson({ ...SUMMARY, trainingChi2: Number.NaN })) as Record<
      string,
      unknown
    >;
    expect(document.erf_tr).toBeNull();
  });

  it('should reject bad epochs and wrong numbers of arc lengths or integrability numbers', () => {
    expect(() => replicaJson({ ...SUMMARY, stopEpoch: -1 })).toThrow(InvalidArgumentError);
    expect(() => replicaJson({ ...SUMMARY, bestEpoch: 2.5 })).toThrow(InvalidArgumentError);
    expect(() => replicaJson({ ...SUMMARY, arcLengths: [1, 2, 3, 4] })).toThrow(ShapeError);
    expect(() => replicaJson({ ...SUMMARY, integrability: [1, 2, 3, 4, 5, 6] })).toThrow(
      ShapeError,
    );
  });

  describe.skipIf(!hasReference)('against upstream n3fit output', () => {
    it('should reproduce quickcard_1.json from its values', () => {
      const reference = readReferenceJson();
      const preprocessing = reference.preprocessing as {
        fl: string;
        smallx: number;
        largex: number;
        trainable: boolean;
      }[];
      const text = replicaJson({
        ...SUMMARY,
        preprocessing: preprocessing.map(({ fl, smallx, largex, trainable }) => ({
          flavour: fl,
          smallX: smallx,
          largeX: largex,
          trainable,
        })),
        stopEpoch: reference.stop_epoch as number,
        bestEpoch: reference.best_epoch as number,
        trainingChi2: reference.erf_tr as number,
        validationChi2: reference.erf_vl as number,
        experimentalChi2: reference.chi2 as number,
        positivity: reference.pos_state as 'POS_VETO',
        arcLengths: reference.arc_lengths as number[],
        integrability: reference.integrability as number[],
      });
      const document = JSON.parse(text) as Record<string, unknown>;
      // upstream's regression file has timing and version removed, and predates hyperparameters
      const upstreamKeys = Object.keys(reference);
      expect(upstreamKeys).toEqual(KEYS.slice(0, upstreamKeys.length));
      for (const key of upstreamKeys) expect(document[key]).toEqual(reference[key]);
    });
  });
});
