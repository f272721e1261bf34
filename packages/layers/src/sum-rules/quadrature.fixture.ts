import { gaussLegendre } from '@partonfit/core';
import { customIntegrationGrid, type IntegrationGrid } from './integration-grid.js';

/**
 * A fine reference grid independent of the grids under test: `panels` Gauss–Legendre panels of
 * `order` nodes in log x on [10⁻⁹, 0.1] and as many in x on [0.1, 1].
 */
export function compositeGrid(panels = 200, order = 8): IntegrationGrid {
  const x: number[] = [];
  const weights: number[] = [];
  const low = Math.log(1e-9);
  const high = Math.log(0.1);
  for (let k = 0; k < panels; k++) {
    const rule = gaussLegendre(
      order,
      low + ((high - low) * k) / panels,
      low + ((high - low) * (k + 1)) / panels,
    );
    rule.nodes.forEach((t, i) => {
      x.push(Math.exp(t));
      weights.push(rule.weights[i] * Math.exp(t));
    });
  }
  for (let k = 0; k < panels; k++) {
    const rule = gaussLegendre(order, 0.1 + (0.9 * k) / panels, 0.1 + (0.9 * (k + 1)) / panels);
    rule.nodes.forEach((node, i) => {
      x.push(node);
      weights.push(rule.weights[i]);
    });
  }
  return customIntegrationGrid(x, weights);
}
