import { join } from 'node:path';
import { InvalidArgumentError } from '@partonfit/core';
import { describe, expect, it } from 'vitest';
import { fitFolderPaths } from './fit-folder-paths.js';

describe('fitFolderPaths', () => {
  it('should lay out the fit folder as upstream n3fit, replica files under nnfit/replica_<r>', () => {
    const paths = fitFolderPaths('/fits', 'NNPDF40_closure', 7);
    const replica = join('/fits', 'NNPDF40_closure', 'nnfit', 'replica_7');
    expect(paths).toEqual({
      fitFolder: join('/fits', 'NNPDF40_closure'),
      runcard: join('/fits', 'NNPDF40_closure', 'runcard.yml'),
      summary: join('/fits', 'NNPDF40_closure', 'summary.json'),
      theoryCovariance: join('/fits', 'NNPDF40_closure', 'tables', 'theory_covariance.csv'),
      replicaFolder: replica,
      exportGrid: join(replica, 'NNPDF40_closure.exportgrid'),
      json: join(replica, 'NNPDF40_closure.json'),
      weights: join(replica, 'weights.h5'),
      chi2ExpsLog: join(replica, 'chi2exps.log'),
    });
  });

  it('should reject fit names that are not one path segment', () => {
    for (const name of ['', '.', '..', 'a/b', 'a\\b']) {
      expect(() => fitFolderPaths('/fits', name, 1)).toThrow(InvalidArgumentError);
    }
  });

  it('should reject replica numbers that are not positive integers', () => {
    for (const replica of [0, -1, 1.5, Number.NaN]) {
      expect(() => fitFolderPaths('/fits', 'fit', replica)).toThrow(/replica/);
    }
  });
});
