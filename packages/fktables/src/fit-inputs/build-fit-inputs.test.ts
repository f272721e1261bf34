import { parseRuncard } from '@partonfit/core';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import { describe, expect, it } from 'vitest';
import type { CommonData } from '../commondata/commondata.js';
import { resolveRuncardDatasets } from './build-fit-inputs.js';
import { realDataRuncard, writeTemporaryRuncard } from './fit-inputs.fixture.js';
import { inputPaths } from './input-paths.js';

const present = hasSharedData('bundles/HERACOMBCCEM.npz', 'the early-covariance tests');

/** The real-data runcard without a t0 set (the covariance then needs the data alone). */
async function experimentalRuncard(text = realDataRuncard()) {
  const experimental = text.replace('datacuts: { t0pdfset: NNPDF40_nnlo_as_01180 }', '');
  const file = await writeTemporaryRuncard(experimental);
  const { runcard } = parseRuncard(experimental, { file });
  return { runcard, paths: inputPaths(runcard, file) };
}

describe.skipIf(!present)('resolveRuncardDatasets handing over the measured data early', () => {
  it('should hand over, once and in runcard order, the objects the resolved datasets hold', async () => {
    const { runcard, paths } = await experimentalRuncard();
    const handed: (readonly CommonData[])[] = [];
    const { measured } = await resolveRuncardDatasets(runcard, paths, () => undefined, {
      onMeasuredCommonData: (commonData) => handed.push(commonData),
    });
    expect(handed.length).toBe(1);
    expect(handed[0].map((data) => data.name)).toEqual(measured.map((set) => set.commonData.name));
    handed[0].forEach((data, d) => {
      expect(data).toBe(measured[d].commonData);
    });
    // The cut data, as the FK tables see them: HERA CC e⁻p keeps 42 points, ATLAS tt̄ 1.
    expect(handed[0].map((data) => data.ndata)).toEqual([42, 33, 1]);
  });

  it('should hand over nothing when a dataset cannot be read', async () => {
    const broken = realDataRuncard().replace(
      `${SHARED_DATA}bundles/SLACP.npz`,
      `${SHARED_DATA}bundles/NOPE.npz`,
    );
    const { runcard, paths } = await experimentalRuncard(broken);
    const handed: (readonly CommonData[])[] = [];
    await expect(
      resolveRuncardDatasets(runcard, paths, () => undefined, {
        onMeasuredCommonData: (commonData) => handed.push(commonData),
      }),
    ).rejects.toThrow('NOPE.npz');
    expect(handed).toEqual([]);
  });
});
