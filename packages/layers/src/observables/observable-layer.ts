import * as tf from '@tensorflow/tfjs-core';
import * as tfl from '@tensorflow/tfjs-layers';
import { EVOLUTION_BASIS_SIZE, type ObservableTensors, oneOf, ShapeError } from '@partonfit/core';
import type { LayerArgs } from '../ops/index.js';
import { combineOperands } from './compound.js';
import {
  DIS_FORMULATIONS,
  FK_TRANSPOSE_STORAGES,
  FkConvolution,
  fkTensorShape,
  fkTensorValues,
  HADRONIC_FORMULATIONS,
  type DisFormulation,
  type FkTransposeStorage,
  type Formulations,
  type HadronicFormulation,
} from './fk-convolution.js';
import { layoutFromConfig, layoutToConfig } from './observable-config.js';
import {
  hasValues,
  observableLayout,
  validateObservable,
  type ObservableLayout,
} from './observable-layout.js';

/** The DIS formulation a layer uses unless told otherwise (see the benchmark in `index.ts`). */
export const DEFAULT_DIS_FORMULATION: DisFormulation = 'compact';

/** The hadronic formulation a layer uses unless told otherwise (see the benchmark). */
export const DEFAULT_HADRONIC_FORMULATION: HadronicFormulation = 'luminosity';

/** Arguments of {@link ObservableLayer}. */
export interface ObservableLayerArgs extends LayerArgs {
  /**
   * The observable: its FK tables with their values (as `@partonfit/fktables` builds them), or
   * only its layout, as in a saved model's config, in which case the FK weights start at zero
   * and take their values from the saved weights (`tf.loadLayersModel`, `setWeights`).
   */
  readonly observable: ObservableTensors | ObservableLayout;
  /** How DIS tables meet the PDF; default {@link DEFAULT_DIS_FORMULATION}. */
  readonly disFormulation?: DisFormulation;
  /** How hadronic tables meet the PDF; default {@link DEFAULT_HADRONIC_FORMULATION}. */
  readonly hadronicFormulation?: HadronicFormulation;
  /** Whether FK transposes are kept for the backward pass; default `auto`. */
  readonly fkTranspose?: FkTransposeStorage;
}

/**
 * The predictions of one observable for all replicas at once.
 *
 * Input: the PDF `(replicas, x, flavour)` — all replicas, the union x-grid every table slices
 * its nodes from, the 14-flavour evolution basis. Output: `(replicas, data)` — each operand is
 * the concatenation of its tables' predictions along data, and the operands combine by the
 * observable's operation (NULL, ADD, RATIO, ASY, SMN, COM, SMT).
 *
 * Each table costs one plain 2-D product with its FK tensor (plus small one-hot flavour
 * selections), with a custom gradient whose backward is again a plain 2-D product; see
 * {@link DisFormulation} and {@link HadronicFormulation} for the alternatives.
 *
 * Serialisation: the FK tensors are non-trainable weights (`fk_<operand>_<table>`), laid out as
 * the formulation multiplies them, so `model.save` stores them with the weights and a reloaded
 * model gives identical outputs; the config records only the layout (names, sizes, x ranges,
 * channels, operation, formulations). Transposes used by the backward pass are derived, never
 * saved.
 *
 * In a `tf.LayersModel` the replica axis is the batch axis: call the model on all replicas at
 * once (`model.apply`, `model.execute`, or `predict` with `batchSize` at least the replica
 * count).
 */
export class ObservableLayer extends tfl.layers.Layer {
  /** The name under which the class is registered for serialisation. */
  static readonly className = 'PartonfitObservable';
  /** The observable's layout (no values). */
  readonly observable: ObservableLayout;
  /** The formulations in use. */
  readonly formulations: Formulations;
  /** The FK transpose storage in use. */
  readonly fkTranspose: FkTransposeStorage;
  private pendingValues: ObservableTensors | undefined;
  private convolutions: FkConvolution[][] = [];
  private fkWeights: tfl.LayerVariable[][] = [];

  constructor(args: ObservableLayerArgs) {
    super(args);
    validateObservable(args.observable);
    this.observable = observableLayout(args.observable);
    const hasAllValues = args.observable.operands.every((operand) => operand.every(hasValues));
    this.pendingValues = hasAllValues ? (args.observable as ObservableTensors) : undefined;
    this.formulations = {
      dis: oneOf(
        args.disFormulation ?? DEFAULT_DIS_FORMULATION,
        DIS_FORMULATIONS,
        'disFormulation',
      ),
      hadronic: oneOf(
        args.hadronicFormulation ?? DEFAULT_HADRONIC_FORMULATION,
        HADRONIC_FORMULATIONS,
        'hadronicFormulation',
      ),
    };
    this.fkTranspose = oneOf(args.fkTranspose ?? 'auto', FK_TRANSPOSE_STORAGES, 'fkTranspose');
    this.inputSpec = [new tfl.InputSpec({ ndim: 3 })];
  }

  override build(inputShape: tfl.Shape | tfl.Shape[]): void {
    const [, xPoints, flavours] = pdfShape(inputShape, this.observable.name);
    for (const operand of this.observable.operands) {
      for (const table of operand) {
        if (xPoints !== null && table.xOffset + table.nx > xPoints) {
          throw new ShapeError({
            quantity: `observable ${this.observable.name}, table ${table.name}: pdf`,
            expected: [null, table.xOffset + table.nx, flavours],
            actual: [-1, xPoints, flavours ?? -1],
            axes: `(replicas, x, flavour): x nodes [${table.xOffset}, ${table.xOffset + table.nx}) are read`,
          });
        }
      }
    }
    this.fkWeights = this.observable.operands.map((operand, i) =>
      operand.map((table, j) =>
        this.addWeight(
          `fk_${i}_${j}`,
          fkTensorShape(table, this.formulations),
          'float32',
          tfl.initializers.zeros(),
          undefined,
          false,
        ),
      ),
    );
    this.convolutions = this.observable.operands.map((operand, i) =>
      operand.map((table, j) => {
        const convolution = new FkConvolution(table, this.formulations, this.fkTranspose);
        const values = this.pendingValues?.operands[i]?.[j];
        if (values !== undefined) {
          const weight = this.fkWeights[i][j];
          const laidOut = fkTensorValues(values, this.formulations);
          const shape = fkTensorShape(table, this.formulations);
          tf.tidy(() => {
            weight.write(tf.tensor(laidOut, shape, 'float32'));
          });
          convolution.prepare(weight.read(), laidOut);
        }
        return convolution;
      }),
    );
    this.pendingValues = undefined;
    this.built = true;
  }

  override computeOutputShape(inputShape: tfl.Shape | tfl.Shape[]): tfl.Shape {
    const [replicas] = pdfShape(inputShape, this.observable.name);
    return [replicas, this.observable.ndata];
  }

  /**
   * @param inputs - the PDF `(replicas, x, flavour)`
   * @returns the predictions `(replicas, data)`
   */
  override call(inputs: tf.Tensor | tf.Tensor[]): tf.Tensor2D {
    return tf.tidy(() => {
      const pdf = (Array.isArray(inputs) ? inputs[0] : inputs) as tf.Tensor3D;
      const operands = this.convolutions.map((tables, i) => {
        const predictions = tables.map((convolution, j) =>
          convolution.apply(pdf, this.fkWeight(i, j)),
        );
        return predictions.length === 1 ? predictions[0] : tf.concat(predictions, 1);
      });
      return combineOperands(this.observable.operation, operands);
    });
  }

  override getConfig(): tf.serialization.ConfigDict {
    return {
      ...super.getConfig(),
      observable: layoutToConfig(this.observable),
      disFormulation: this.formulations.dis,
      hadronicFormulation: this.formulations.hadronic,
      fkTranspose: this.fkTranspose,
    };
  }

  /** Rebuilds the layer from {@link ObservableLayer.getConfig}, possibly after a save and load. */
  static override fromConfig<T extends tf.serialization.Serializable>(
    cls: tf.serialization.SerializableConstructor<T>,
    config: tf.serialization.ConfigDict,
  ): T {
    return new cls({ ...config, observable: layoutFromConfig(config.observable) });
  }

  override dispose(): ReturnType<tfl.layers.Layer['dispose']> {
    const result = super.dispose();
    if (result.refCountAfterDispose === 0) {
      for (const convolution of this.convolutions.flat()) convolution.dispose();
      this.convolutions = [];
    }
    return result;
  }

  private fkWeight(operand: number, table: number): tf.Tensor {
    return this.fkWeights[operand][table].read();
  }
}
tf.serialization.registerClass(ObservableLayer);

/**
 * The prediction layer of one observable, see {@link ObservableLayer}: PDF
 * `(replicas, x, flavour)` → `(replicas, data)`.
 *
 * @example
 * ```ts
 * import * as tf from '@tensorflow/tfjs-core';
 * import { loadRuncard } from '@partonfit/core';
 * import { prepareFitInputs } from '@partonfit/fktables';
 * import { observableLayer } from '@partonfit/layers';
 *
 * const runcardFile = 'examples/closure.yml';
 * const { runcard } = await loadRuncard(runcardFile);
 * const { inputs } = await prepareFitInputs(runcard, { runcardFile, replicas: [1, 2], cacheFolder: null });
 * const layer = observableLayer({ observable: inputs.datasets[0].observable });
 * const pdf = tf.ones([2, inputs.xGrid.length, 14]); // (replicas, x, flavour)
 * const predictions = layer.apply(pdf) as tf.Tensor2D;
 * console.log(predictions.shape); // (replicas, data)
 * ```
 */
export function observableLayer(args: ObservableLayerArgs): ObservableLayer {
  return new ObservableLayer(args);
}

function pdfShape(inputShape: tfl.Shape | tfl.Shape[], name: string): tfl.Shape {
  const shape = (Array.isArray(inputShape[0]) ? inputShape[0] : inputShape) as tfl.Shape;
  if (shape.length !== 3 || (shape[2] !== null && shape[2] !== EVOLUTION_BASIS_SIZE)) {
    throw new ShapeError({
      quantity: `observable ${name}: pdf`,
      expected: [null, null, EVOLUTION_BASIS_SIZE],
      actual: shape.map((size) => size ?? -1),
      axes: '(replicas, x, flavour)',
    });
  }
  return shape;
}
