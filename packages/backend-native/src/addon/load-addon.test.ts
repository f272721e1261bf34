import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NATIVE_ADDON_VARIABLE, loadNativeAddon } from './load-addon.js';

const coretypeBefore = process.env.OPENBLAS_CORETYPE;

afterEach(() => {
  if (coretypeBefore === undefined) delete process.env.OPENBLAS_CORETYPE;
  else process.env.OPENBLAS_CORETYPE = coretypeBefore;
});

/** A build folder with the given files, as the install script or node-gyp would leave it. */
async function buildFolder(files: Record<string, string>): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'partonfit-native-build-'));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(join(folder, name, '..'), { recursive: true });
    await writeFile(join(folder, name), text);
  }
  return folder;
}

// The build folders below are read only without PARTONFIT_NATIVE_ADDON: the tests pass `{}` as
// the environment, so that they also hold when the suite runs against a variant addon.
describe('loadNativeAddon', () => {
  it('should report the reason the install script recorded for not building', async () => {
    const reason =
      'not built: no CBLAS found (apt-get install libopenblas-dev, or set PARTONFIT_CBLAS / PARTONFIT_CBLAS_LIBS, then npm rebuild @partonfit/backend-native)';
    const folder = await buildFolder({
      'status.json': JSON.stringify({ built: false, reason }),
      'Release/partonfit_native.node': 'a stale build that must not be loaded',
    });
    expect(loadNativeAddon(folder, {})).toEqual({
      addon: undefined,
      status: { available: false, reason },
    });
  });

  it('should say how to build when the install script never ran', async () => {
    const folder = await buildFolder({});
    expect(loadNativeAddon(folder, {}).status).toEqual({
      available: false,
      reason: 'not built: the install script did not run (npm rebuild @partonfit/backend-native)',
    });
  });

  it('should report an addon that cannot be loaded instead of throwing', async () => {
    const folder = await buildFolder({
      'status.json': JSON.stringify({ built: true }),
      'Release/partonfit_native.node': 'not a shared library',
    });
    const { addon, status } = loadNativeAddon(folder, {});
    expect(addon).toBeUndefined();
    expect(status.available).toBe(false);
    expect(status.available ? '' : status.reason).toMatch(
      /^built but cannot load: .+ \(npm rebuild @partonfit\/backend-native\)$/,
    );
  });

  it('should load the file PARTONFIT_NATIVE_ADDON names, ignoring the build folder', async () => {
    const folder = await buildFolder({
      'status.json': JSON.stringify({ built: true }),
      'variant/partonfit_native.node': 'not a shared library',
    });
    const chosen = join(folder, 'variant', 'partonfit_native.node');
    const { status } = loadNativeAddon(join(folder, 'no-build'), {
      [NATIVE_ADDON_VARIABLE]: chosen,
    });
    expect(status.available ? '' : status.reason).toMatch(
      new RegExp(`^built but cannot load: .+ \\(${NATIVE_ADDON_VARIABLE}=${chosen}\\)$`),
    );
  });

  it('should say when the file PARTONFIT_NATIVE_ADDON names does not exist', async () => {
    const folder = await buildFolder({});
    const chosen = join(folder, 'missing.node');
    expect(loadNativeAddon(folder, { [NATIVE_ADDON_VARIABLE]: chosen }).status).toEqual({
      available: false,
      reason: `PARTONFIT_NATIVE_ADDON=${chosen}: no such file`,
    });
  });
});
