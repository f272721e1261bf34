import * as tf from '@tensorflow/tfjs-core';
import { evolutionIndex } from '@partonfit/core';
import { expect, it } from 'vitest';
import { logXFeatures, xColumn } from '../feature-scaling/network-input.js';
import { describeOnBackends } from '@partonfit/testing';
import {
  gaussIntegrationGrid,
  nnpdfIntegrationGrid,
  type IntegrationGrid,
} from './integration-grid.js';
import { pdfLayers, unnormalisedPdf, type PdfLayers } from './pdf-model.fixture.js';
import { compositeGrid } from './quadrature.fixture.js';

const REPLICAS = 20;

/** A_g, A_V, A_V3, A_V8, A_V15 of every replica, integrated in float64 on `grid`. */
function factors64(layers: PdfLayers, grid: IntegrationGrid): number[][] {
  const pdf = tf.tidy(() => unnormalisedPdf(layers, logXFeatures(grid.x), xColumn(grid.x)));
  const values = pdf.dataSync();
  pdf.dispose();
  const n = grid.x.length;
  return Array.from({ length: REPLICAS }, (_, r) => {
    const integral = (flavour: Parameters<typeof evolutionIndex>[0], divideByX: boolean) =>
      grid.x.reduce((sum, x, i) => {
        const value = values[(r * n + i) * 14 + evolutionIndex(flavour)];
        return sum + grid.weights[i] * (divideByX ? value / x : value);
      }, 0);
    return [
      (1 - integral('Sigma', false) - integral('photon', false)) / integral('g', false),
      3 / integral('V', true),
      1 / integral('V3', true),
      3 / integral('V8', true),
      3 / integral('V15', true),
    ];
  });
}

/** The largest relative difference between two sets of factors. */
function worstRelative(a: number[][], b: number[][]): number {
  return Math.max(...a.flatMap((row, r) => row.map((value, k) => Math.abs(value / b[r][k] - 1))));
}

describeOnBackends('integration grid accuracy', () => {
  it('should give sum-rule factors within 1e-5 of the exact ones with 50–200 Gauss points, and within 2e-3 with the 2000-point grid', () => {
    const layers = pdfLayers({
      replicaSeeds: Array.from({ length: REPLICAS }, (_, r) => 1000 + 17 * r),
      grid: nnpdfIntegrationGrid(),
      fitPoints: 1,
    });
    const exact = factors64(layers, compositeGrid(400, 8));
    const nnpdf = worstRelative(factors64(layers, nnpdfIntegrationGrid()), exact);
    const gauss = [50, 100, 200].map((points) =>
      worstRelative(factors64(layers, gaussIntegrationGrid(points)), exact),
    );
    expect(Math.max(...gauss)).toBeLessThan(1e-5);
    expect(nnpdf).toBeLessThan(2e-3);
    expect(nnpdf).toBeGreaterThan(1e-4);
  });
});
