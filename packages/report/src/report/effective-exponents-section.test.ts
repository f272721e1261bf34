import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { parseRuncard } from '@partonfit/core';
import { exponentBand, nextPreprocessing } from '@partonfit/fit-folder';
import { CLOSURE_RUNCARD } from '@partonfit/testing';
import { describe, expect, it } from 'vitest';
import { fitPdfReplicas } from '../pdf/pdf-replicas.js';
import { renderSvg } from '../render/render-figure.js';
import { buildReport } from './build-report.js';
import { effectiveExponentsSection } from './effective-exponents-section.js';
import { replicaShapedFit } from './report.fixture.js';

describe('effectiveExponentsSection', () => {
  it("should draw each flavour's exponents against the ranges used and proposed, and tabulate them", async () => {
    const folder = await replicaShapedFit(4, 200);
    const fit = await fitPdfReplicas(folder);
    const { runcard } = parseRuncard(await readFile(CLOSURE_RUNCARD, 'utf8'));
    const section = effectiveExponentsSection(fit, runcard);
    const proposals = nextPreprocessing(
      { xGrid: fit.xGrid, xf: fit.replicas, replicas: fit.replicaCount },
      runcard,
    );
    expect(section.id).toBe('effective-exponents');
    const [table] = section.tables;
    expect(table.rows.map((row) => row[0])).toEqual(['Σ', 'g', 'V', 'V3', 'V8', 'T3', 'T8', 'T15']);
    const [sigma] = table.rows;
    const [used, proposed] = [proposals[0].used.smallx, proposals[0].proposed.smallx ?? []];
    expect(sigma.slice(1, 3)).toEqual(['[1.05, 1.15]', `[${proposed[0]}, ${proposed[1]}]`]);
    expect(used).toEqual([1.05, 1.15]);
    const [alpha, beta] = section.figures;
    expect(alpha.panels).toEqual(table.rows.map((row) => row[0]));
    // 8 flavours × 40 points, and a used and a proposed range per flavour
    expect(alpha.rows).toHaveLength(8 * 40 + 16);
    // the curve's first point is α_eff at x = 10⁻⁶: the replicas' mean there
    const first = alpha.rows.find((row) => row.flavour === 'Σ' && row.x === 1e-6);
    expect(first?.mean).toBeCloseTo(proposals[0].smallx[0].mean, 12);
    // the replicas are the toy PDF times 1 + 0.05·sin r: α_eff differs by −ln(scale)/ln x only
    const shifts = [1, 2, 3, 4].map((r) => -Math.log(1 + 0.05 * Math.sin(r)) / Math.log(1e-6));
    const spread = exponentBand(shifts);
    const atSmallestX = proposals[0].smallx[0];
    expect(atSmallestX.upper68 - atSmallestX.lower68).toBeCloseTo(
      spread.upper68 - spread.lower68,
      12,
    );
    const svg = await renderSvg(beta);
    expect(svg.match(/class="mark-rect role-mark ranges_marks"/g)).toHaveLength(8);
    expect(svg.match(/class="mark-area role-mark band68_marks"/g)).toHaveLength(8);
    await rm(join(folder, '..'), { recursive: true });
  });

  it('should be a section of the report of a fit on the export grid, and a problem of one that is not', async () => {
    const folder = await replicaShapedFit(3, 200);
    const report = await buildReport(folder, { predictions: false });
    expect(report.sections.map((section) => section.id)).toContain('effective-exponents');
    await rm(join(folder, '..'), { recursive: true });
  });
});
