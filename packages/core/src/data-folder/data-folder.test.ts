import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dataFolder, lhapdfFolder, theoriesFolder, userCacheFolder } from './data-folder.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('dataFolder', () => {
  it('should take the folder given, else $PARTONFIT_DATA, else the user cache folder', () => {
    vi.stubEnv('XDG_CACHE_HOME', '/var/cache/user');
    vi.stubEnv('PARTONFIT_DATA', '');
    expect(dataFolder()).toBe('/var/cache/user/partonfit');
    vi.stubEnv('PARTONFIT_DATA', 'relative/data');
    expect(dataFolder()).toBe(resolve('relative/data'));
    expect(dataFolder('/scratch/pf')).toBe('/scratch/pf');
    expect(theoriesFolder('/scratch/pf')).toBe('/scratch/pf/theories');
    expect(lhapdfFolder('/scratch/pf')).toBe('/scratch/pf/lhapdf');
  });

  it('should fall back to ~/.cache/partonfit without XDG_CACHE_HOME', () => {
    vi.stubEnv('XDG_CACHE_HOME', undefined);
    expect(userCacheFolder()).toBe(join(homedir(), '.cache', 'partonfit'));
  });
});
