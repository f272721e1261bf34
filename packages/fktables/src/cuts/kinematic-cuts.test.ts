import { join } from 'node:path';
import { InvalidArgumentError } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { syntheticCommonData } from '../commondata/commondata.fixture.js';
import { loadCommonData, loadLegacyCommonData } from '../commondata/index.js';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import { DEFAULT_DIS_CUTS, kinematicCutMask } from './kinematic-cuts.js';

const COMMONDATA = join(SHARED_DATA, 'commondata');
const hasShared = hasSharedData('commondata/SLAC_NC_NOTFIXED_P/metadata.yaml', 'real commondata');

const count = (mask: Uint8Array) => mask.reduce((total, keep) => total + keep, 0);

/** DIS points at the given (x, Q²). */
function disPoints(points: readonly (readonly [number, number])[], processType = 'DIS_NC') {
  return syntheticCommonData({
    name: 'TOY',
    processType,
    central: points.map(() => 1),
    uncertainties: [],
    kinematics: points.map(([x, q2]) => [x, q2, 0.5] as const),
  });
}

describe('kinematicCutMask', () => {
  it('should keep only Q2 > q2min and W2 = Q2(1 - x)/x > w2min, both strict', () => {
    // W² = Q²(1 − x)/x: (0.5, 12.5) → 12.5 (cut, equal); (0.5, 13) → 13 (kept); (0.01, 3.49) → Q² equal (cut);
    // (0.01, 3.5) → 346.5 (kept); (0.2, 3.2) → Q² too small (cut); (0.8, 40) → 10 (cut).
    const data = disPoints([
      [0.5, 12.5],
      [0.5, 13],
      [0.01, 3.49],
      [0.01, 3.5],
      [0.2, 3.2],
      [0.8, 40],
    ]);
    expect(Array.from(kinematicCutMask(data, DEFAULT_DIS_CUTS))).toEqual([0, 1, 0, 1, 0, 0]);
    expect(Array.from(kinematicCutMask(data, { q2min: 3, w2min: 10 }))).toEqual([1, 1, 1, 1, 1, 0]);
  });

  it('should add the target mass only when asked', () => {
    const data = disPoints([[0.5, 12]]);
    expect(Array.from(kinematicCutMask(data))).toEqual([0]);
    expect(
      Array.from(kinematicCutMask(data, { ...DEFAULT_DIS_CUTS, targetMassSquared: 0.938272 ** 2 })),
    ).toEqual([1]);
  });

  it('should keep every point of non-DIS, positivity and integrability sets', () => {
    expect(Array.from(kinematicCutMask(disPoints([[0.5, 1]], 'DY_Z_Y')))).toEqual([1]);
    const positivity = { ...disPoints([[0.5, 1]], 'DIS_XDQ'), kind: 'positivity' as const };
    expect(Array.from(kinematicCutMask(positivity))).toEqual([1]);
  });

  it('should refuse DIS data without x and Q2 variables, and cuts that are not numbers', () => {
    const data = {
      ...disPoints([[0.5, 1]]),
      kinematics: { variables: ['x', 'Q', 'y'] as const, values: new Float64Array([0.5, 1, 0.5]) },
    };
    expect(() => kinematicCutMask(data)).toThrow(InvalidArgumentError);
    expect(() => kinematicCutMask(data)).toThrow(
      'TOY is DIS (DIS_NC) but its kinematic variables are x, Q, y, not x and Q2',
    );
    expect(() => kinematicCutMask(disPoints([[0.5, 1]]), { q2min: Number.NaN, w2min: 1 })).toThrow(
      'cuts.q2min: expected a finite number, got NaN',
    );
  });
});

describe.skipIf(!hasShared)('kinematicCutMask on real data: NNPDF4.0 point counts', () => {
  // The npz bundles (SLACP 33, HERACOMBCCEM 42, HERACOMBNCEP920 377 points) hold the data after
  // these cuts; BCDMS p 333 and NMC p 204 are NNPDF4.0's published counts.
  for (const [dataset, variant, total, kept] of [
    ['SLAC_NC_NOTFIXED_P_EM-F2', 'legacy', 211, 33],
    ['HERA_CC_318GEV_EM-SIGMARED', 'legacy', 42, 42],
    ['HERA_NC_318GEV_EP-SIGMARED', 'legacy', 485, 377],
    ['BCDMS_NC_NOTFIXED_P_EM-F2', 'legacy', 351, 333],
    ['NMC_NC_NOTFIXED_P_EM-SIGMARED', 'legacy', 292, 204],
  ] as const) {
    it(`should keep ${kept} of ${total} points of ${dataset}`, async () => {
      const data = await loadCommonData(COMMONDATA, dataset, { variant });
      expect(data.ndata).toBe(total);
      expect(count(kinematicCutMask(data))).toBe(kept);
    });
  }

  it('should keep 37 SLAC points, not 33, if W² included m_p² (upstream does not)', async () => {
    const slac = await loadCommonData(COMMONDATA, 'SLACP');
    expect(
      count(kinematicCutMask(slac, { ...DEFAULT_DIS_CUTS, targetMassSquared: 0.938272 ** 2 })),
    ).toBe(37);
  });

  it('should cut legacy files alike, and leave positivity sets alone', async () => {
    const slac = await loadLegacyCommonData(
      join(SHARED_DATA, 'commondata_legacy', 'DATA_SLACP.dat'),
    );
    expect(count(kinematicCutMask(slac))).toBe(33);
    const positivity = await loadCommonData(COMMONDATA, 'NNPDF_POS_2P24GEV_XDQ');
    expect(count(kinematicCutMask(positivity))).toBe(20);
  });
});
