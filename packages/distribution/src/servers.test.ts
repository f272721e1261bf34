import { describe, expect, it } from 'vitest';
import { defaultServers, LHAPDF_URL, NNPDF_THEORY_URLS } from './servers.js';

describe('defaultServers', () => {
  it('should be NNPDF’s and LHAPDF’s public servers unless the environment names others', () => {
    expect(defaultServers({})).toEqual({ theoryUrls: NNPDF_THEORY_URLS, lhapdfUrl: LHAPDF_URL });
    expect(NNPDF_THEORY_URLS).toContain('https://nnpdf.web.cern.ch/nnpdf/tables/');
    expect(LHAPDF_URL).toBe('https://lhapdfsets.web.cern.ch/current/');
    expect(
      defaultServers({
        PARTONFIT_THEORY_URLS: 'http://mirror.test/a, http://mirror.test/b/',
        PARTONFIT_LHAPDF_URL: 'http://mirror.test/lhapdf',
      }),
    ).toEqual({
      theoryUrls: ['http://mirror.test/a/', 'http://mirror.test/b/'],
      lhapdfUrl: 'http://mirror.test/lhapdf/',
    });
  });
});
