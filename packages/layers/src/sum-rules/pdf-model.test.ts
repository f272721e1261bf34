import * as tf from '@tensorflow/tfjs-core';
import { expect, it } from 'vitest';
import { asVariable } from '../multi-dense/layer-testing.fixture.js';
import { saveAndReload, tensorGrowth, values } from '../ops/numeric.fixture.js';
import { describeOnBackends } from '@partonfit/testing';
import { gaussIntegrationGrid, nnpdfIntegrationGrid } from './integration-grid.js';
import { fitXGrid, pdfInputs, pdfLayers, pdfModel, unnormalisedPdf } from './pdf-model.fixture.js';

describeOnBackends('a whole multi-replica PDF model', () => {
  it.each(['stack', 'network'] as const)(
    'should save and reload (MultiDense ×3 or MultiDenseNetwork → Preprocessing → rotation → sum rules) with identical outputs (%s)',
    async (network) => {
      const fitX = fitXGrid(30);
      const grid = gaussIntegrationGrid(40);
      const layers = pdfLayers({ replicaSeeds: [1, 2, 3], grid, fitPoints: fitX.length, network });
      const model = pdfModel(layers);
      const inputs = pdfInputs(fitX, grid);
      const before = model.apply(inputs) as tf.Tensor;
      expect(before.shape).toEqual([3, 30, 14]);

      const reloaded = await saveAndReload(model);
      const after = reloaded.apply(inputs) as tf.Tensor;
      expect(values(after)).toEqual(values(before));
      expect(reloaded.getWeights().map(values)).toEqual(model.getWeights().map(values));
      expect(reloaded.layers.map((layer) => layer.getClassName())).toEqual(
        model.layers.map((layer) => layer.getClassName()),
      );
    },
  );

  it('should give the same normalised PDF from the functional model as from the layers called eagerly', () => {
    const fitX = fitXGrid(25);
    const grid = nnpdfIntegrationGrid();
    const layers = pdfLayers({ replicaSeeds: [10, 20], grid, fitPoints: fitX.length });
    const inputs = pdfInputs(fitX, grid);
    const eager = layers.sumRules.apply(unnormalisedPdf(layers, ...inputs)) as tf.Tensor;
    const fromModel = pdfModel(layers).apply(inputs) as tf.Tensor;
    expect(values(fromModel)).toEqual(values(eager));
  });

  it('should keep the number of tensors constant over 100 training steps', () => {
    const fitX = fitXGrid(20);
    const grid = gaussIntegrationGrid(30);
    const layers = pdfLayers({ replicaSeeds: [4, 5], grid, fitPoints: fitX.length });
    const model = pdfModel(layers);
    const inputs = pdfInputs(fitX, grid);
    const optimizer = tf.train.adam(1e-3);
    const variables = model.trainableWeights.map((weight) => asVariable(weight.read()));
    const growth = tensorGrowth(() => {
      optimizer.minimize(
        () => tf.sum<tf.Scalar>(tf.square(model.apply(inputs) as tf.Tensor)),
        false,
        variables,
      );
      layers.preprocessing.clipToRanges();
    });
    expect(growth).toBe(0);
  });
});
