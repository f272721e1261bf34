import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { measureSetupTime, setupRuncardFile, SHARED_DATA_FOLDER } from './setup-time.js';

const hasShared = existsSync(SHARED_DATA_FOLDER);
if (!hasShared) console.warn(`skipping the real-data set-up test: ${SHARED_DATA_FOLDER} is absent`);

describe('setupRuncardFile', () => {
  it('should fall back to the embedded closure runcard without the shared data', () => {
    expect(setupRuncardFile('/nonexistent/shared/data')).toMatch(/examples\/closure\.yml$/);
  });

  it.skipIf(!hasShared)(
    'should choose examples/real-data.yml when the shared data are present',
    () => {
      expect(setupRuncardFile()).toMatch(/examples\/real-data\.yml$/);
    },
  );
});

describe('measureSetupTime', () => {
  it('should build the closure inputs cold, then read them from the HDF5 cache', async () => {
    const timing = await measureSetupTime(setupRuncardFile('/nonexistent'), 2);
    expect(timing).toMatchObject({ runcard: 'examples/closure.yml', replicas: 2, cacheHit: true });
    expect(timing.ndata).toBeGreaterThan(100);
    expect(timing.coldSeconds).toBeGreaterThan(0);
    expect(timing.cachedSeconds).toBeGreaterThan(0);
  });
});
