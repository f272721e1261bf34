import * as tf from '@tensorflow/tfjs-core';
import * as tfl from '@tensorflow/tfjs-layers';
import { type Chi2Structure, InvalidArgumentError, oneOf, ShapeError } from '@partonfit/core';
import { CachedTranspose, type LayerArgs } from '../ops/index.js';
import {
  covarianceChi2,
  eigenbasisChi2,
  PER_REPLICA_PRODUCTS,
  type PerReplicaProduct,
} from './chi2-forms.js';
import {
  chi2Layout,
  chi2LayoutFromConfig,
  chi2LayoutToConfig,
  hasStructureValues,
  symmetrizeWeights,
  validateChi2Structure,
  type Chi2StructureLayout,
} from './chi2-layout.js';

/** How per-replica covariance blocks multiply unless told otherwise (see the losses benchmark). */
export const DEFAULT_PER_REPLICA_PRODUCT: PerReplicaProduct = 'batched';

/** Arguments of {@link Chi2Loss}. */
export interface Chi2LossArgs extends LayerArgs {
  /**
   * The weights that turn residuals into χ² (from `@partonfit/fktables`): covariance blocks
   * or an eigenbasis, shared `(1, …)` or per replica `(replicas, …)`. A layout without values
   * (a saved config) leaves the weights at zero until the saved weights are loaded.
   */
  readonly structure: Chi2Structure | Chi2StructureLayout;
  /**
   * The data the predictions are compared with, float32 row-major `(dataReplicas, data)`:
   * per-replica pseudodata `(replicas, data)`, or central data `(1, data)` shared by every
   * replica (the experimental χ²). Omitted only when rebuilding from a config.
   */
  readonly data?: Float32Array;
  /** Rows of `data`: the replica count or 1. Default: `data.length / structure.ndata`. */
  readonly dataReplicas?: number;
  /** How per-replica covariance blocks multiply; default {@link DEFAULT_PER_REPLICA_PRODUCT}. */
  readonly perReplicaProduct?: PerReplicaProduct;
}

/**
 * The χ² of every replica: predictions `(replicas, data)` → χ² `(replicas)`, never summed over
 * replicas, χ²_r = (D_r − T_r)ᵀ W_r (D_r − T_r) block by block.
 *
 * The data D (per-replica pseudodata, or central data shared by all replicas for the
 * experimental χ²) and the structure's weights are constants held as non-trainable weights:
 * `data` `(dataReplicas, data)`; per covariance block `weights_<b>` `(replicas, size, size)`,
 * stored symmetrised ((W + Wᵀ)/2, the same quadratic form); per eigenbasis block
 * `rotation_<b>` `(size, modes)` and `weights_<b>` `(replicas, modes)`. `model.save` writes them
 * with the weights, so a reloaded model gives identical χ²; the config records only the layout.
 * {@link Chi2Loss.assignData} replaces the data (e.g. new pseudodata) without rebuilding.
 *
 * Cost per step: one plain 2-D product per shared block (forward only — the backward of the
 * symmetric form is 2·W·res, already computed), one batched product per per-replica covariance
 * block, and for an eigenbasis one plain 2-D product forward and one backward (with the stored
 * rotation transpose).
 */
export class Chi2Loss extends tfl.layers.Layer {
  /** The name under which the class is registered for serialisation. */
  static readonly className = 'PartonfitChi2';
  /** The structure's layout (no values). */
  readonly structure: Chi2StructureLayout;
  /** Rows of the data: the replica count or 1. */
  readonly dataReplicas: number;
  /** How per-replica covariance blocks multiply. */
  readonly perReplicaProduct: PerReplicaProduct;
  private pending: { structure?: Chi2Structure; data?: Float32Array } = {};
  private dataWeight: tfl.LayerVariable | undefined;
  private blockWeights: tfl.LayerVariable[] = [];
  private rotations: tfl.LayerVariable[] = [];
  private rotationTransposes: CachedTranspose[] = [];

  constructor(args: Chi2LossArgs) {
    super(args);
    validateChi2Structure(args.structure);
    this.structure = chi2Layout(args.structure);
    const ndata = this.structure.ndata;
    this.dataReplicas =
      args.dataReplicas ?? (args.data === undefined ? 0 : args.data.length / ndata);
    if (!Number.isInteger(this.dataReplicas) || this.dataReplicas < 1) {
      throw new InvalidArgumentError({
        argument: 'data',
        problem:
          args.data === undefined
            ? 'give the data, or dataReplicas when rebuilding from a config'
            : `length ${args.data.length} is not a multiple of ndata = ${ndata}`,
      });
    }
    if (args.data !== undefined) checkData(args.data, this.dataReplicas, ndata);
    this.perReplicaProduct = oneOf(
      args.perReplicaProduct ?? DEFAULT_PER_REPLICA_PRODUCT,
      PER_REPLICA_PRODUCTS,
      'perReplicaProduct',
    );
    if (hasStructureValues(args.structure)) this.pending.structure = args.structure;
    if (args.data !== undefined) this.pending.data = args.data;
    this.inputSpec = [new tfl.InputSpec({ ndim: 2 })];
  }

  override build(inputShape: tfl.Shape | tfl.Shape[]): void {
    const shape = predictionsShape(inputShape, this.structure.ndata);
    this.checkReplicas(shape[0]);
    const { ndata, replicas } = this.structure;
    this.dataWeight = this.constant('data', [this.dataReplicas, ndata], this.pending.data);
    const values = this.pending.structure;
    this.blockWeights = [];
    this.rotations = [];
    if (this.structure.kind === 'eigenbasis') {
      const given = values?.kind === 'eigenbasis' ? values.blocks : undefined;
      this.structure.blocks.forEach((block, b) => {
        const shape = [block.size, block.modes];
        this.rotations.push(this.constant(`rotation_${b}`, shape, given?.[b]?.rotation));
        this.blockWeights.push(
          this.constant(`weights_${b}`, [replicas, block.modes], given?.[b]?.weights),
        );
        this.rotationTransposes.push(new CachedTranspose());
      });
    } else {
      const given = values?.kind === 'covariance' ? values.blocks : undefined;
      this.structure.blocks.forEach((block, b) => {
        const weights = given?.[b]?.weights;
        this.blockWeights.push(
          this.constant(
            `weights_${b}`,
            [replicas, block.size, block.size],
            weights === undefined ? undefined : symmetrizeWeights(weights, replicas, block.size),
          ),
        );
      });
    }
    this.pending = {};
    this.built = true;
  }

  override computeOutputShape(inputShape: tfl.Shape | tfl.Shape[]): tfl.Shape {
    return [predictionsShape(inputShape, this.structure.ndata)[0]];
  }

  /**
   * @param inputs - the predictions `(replicas, data)`
   * @returns χ² per replica `(replicas)`
   */
  override call(inputs: tf.Tensor | tf.Tensor[]): tf.Tensor1D {
    return tf.tidy(() => {
      const predictions = (Array.isArray(inputs) ? inputs[0] : inputs) as tf.Tensor2D;
      this.checkReplicas(predictions.shape[0]);
      const residuals = tf.sub<tf.Tensor2D>(this.readData(), predictions);
      const { ndata } = this.structure;
      if (this.structure.kind === 'covariance') {
        const blocks = this.structure.blocks.map((block, b) => ({
          ...block,
          weights: this.blockWeights[b].read() as tf.Tensor3D,
        }));
        return covarianceChi2(residuals, blocks, ndata, this.perReplicaProduct);
      }
      const blocks = this.structure.blocks.map((block, b) => {
        const rotation = this.rotations[b].read() as tf.Tensor2D;
        return {
          ...block,
          rotation,
          rotationTransposed: this.rotationTransposes[b].of(rotation),
          weights: this.blockWeights[b].read() as tf.Tensor2D,
        };
      });
      return eigenbasisChi2(residuals, blocks, ndata);
    });
  }

  /**
   * Replaces the data (e.g. new pseudodata) without rebuilding the layer or the model.
   *
   * @param data - float32 row-major `(dataReplicas, data)`
   */
  assignData(data: Float32Array): void {
    checkData(data, this.dataReplicas, this.structure.ndata);
    if (this.dataWeight === undefined) {
      this.pending.data = data;
      return;
    }
    const weight = this.dataWeight;
    tf.tidy(() => {
      weight.write(tf.tensor2d(data, [this.dataReplicas, this.structure.ndata], 'float32'));
    });
  }

  override getConfig(): tf.serialization.ConfigDict {
    return {
      ...super.getConfig(),
      structure: chi2LayoutToConfig(this.structure),
      dataReplicas: this.dataReplicas,
      perReplicaProduct: this.perReplicaProduct,
    };
  }

  /** Rebuilds the layer from {@link Chi2Loss.getConfig}, possibly after a save and load. */
  static override fromConfig<T extends tf.serialization.Serializable>(
    cls: tf.serialization.SerializableConstructor<T>,
    config: tf.serialization.ConfigDict,
  ): T {
    return new cls({ ...config, structure: chi2LayoutFromConfig(config.structure) });
  }

  override dispose(): ReturnType<tfl.layers.Layer['dispose']> {
    const result = super.dispose();
    if (result.refCountAfterDispose === 0) {
      for (const transpose of this.rotationTransposes) transpose.dispose();
      this.rotationTransposes = [];
    }
    return result;
  }

  private readData(): tf.Tensor2D {
    if (this.dataWeight === undefined) {
      throw new InvalidArgumentError({ argument: this.name, problem: 'called before it is built' });
    }
    return this.dataWeight.read() as tf.Tensor2D;
  }

  private checkReplicas(replicas: number | null): void {
    const held = [this.structure.replicas, this.dataReplicas].filter((count) => count > 1);
    const mismatch = held.find((count) => replicas !== null && count !== replicas);
    if (mismatch !== undefined) {
      throw new ShapeError({
        quantity: `${this.name}: predictions`,
        expected: [mismatch, this.structure.ndata],
        actual: [replicas ?? -1, this.structure.ndata],
        axes: '(replicas, data): the structure or data holds this many replicas',
      });
    }
  }

  private constant(name: string, shape: number[], values: Float32Array | undefined) {
    const weight = this.addWeight(
      name,
      shape,
      'float32',
      tfl.initializers.zeros(),
      undefined,
      false,
    );
    if (values !== undefined) {
      tf.tidy(() => {
        weight.write(tf.tensor(values, shape, 'float32'));
      });
    }
    return weight;
  }
}
tf.serialization.registerClass(Chi2Loss);

/**
 * The per-replica χ² layer, see {@link Chi2Loss}: predictions `(replicas, data)` → χ²
 * `(replicas)`.
 *
 * @example
 * ```ts
 * import * as tf from '@tensorflow/tfjs-core';
 * import { loadRuncard } from '@partonfit/core';
 * import { prepareFitInputs } from '@partonfit/fktables';
 * import { chi2Loss } from '@partonfit/layers';
 *
 * const runcardFile = 'examples/closure.yml';
 * const { runcard } = await loadRuncard(runcardFile);
 * const { inputs } = await prepareFitInputs(runcard, { runcardFile, replicas: [1, 2], cacheFolder: null });
 * // training χ²: per-replica pseudodata and the training split's structure
 * const training = chi2Loss({ structure: inputs.training, data: inputs.pseudodata });
 * // experimental χ²: central data (1, data) and the shared experimental structure
 * const experimental = chi2Loss({
 *   structure: inputs.experimental,
 *   data: Float32Array.from(inputs.centralData),
 *   dataReplicas: 1,
 * });
 * const predictions = tf.tensor2d(inputs.pseudodata, [2, inputs.ndata]); // (replicas, data)
 * console.log(await (training.apply(predictions) as tf.Tensor1D).data()); // [0, 0]
 * console.log(await (experimental.apply(predictions) as tf.Tensor1D).data()); // (replicas)
 * ```
 */
export function chi2Loss(args: Chi2LossArgs): Chi2Loss {
  return new Chi2Loss(args);
}

function checkData(data: Float32Array, replicas: number, ndata: number): void {
  if (data.length !== replicas * ndata) {
    throw new ShapeError({
      quantity: 'chi2 data',
      expected: [replicas * ndata],
      actual: [data.length],
      axes: '(dataReplicas · data)',
    });
  }
  const bad = data.findIndex((value) => !Number.isFinite(value));
  if (bad >= 0) {
    throw new InvalidArgumentError({
      argument: 'chi2 data',
      problem: `value [${bad}] is ${data[bad]}`,
    });
  }
}

function predictionsShape(inputShape: tfl.Shape | tfl.Shape[], ndata: number): tfl.Shape {
  const shape = (Array.isArray(inputShape[0]) ? inputShape[0] : inputShape) as tfl.Shape;
  if (shape.length !== 2 || (shape[1] !== null && shape[1] !== ndata)) {
    throw new ShapeError({
      quantity: 'chi2 predictions',
      expected: [null, ndata],
      actual: shape.map((size) => size ?? -1),
      axes: '(replicas, data)',
    });
  }
  return shape;
}
