import { mkdir, readFile } from 'node:fs/promises';
import { isAbsolute, join, normalize } from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import { InputFileError, InvalidArgumentError, isMapping } from '@partonfit/core';
import { writeFileAtomic } from '@partonfit/io';

/** The files of a saved model: `model.json` (topology and weights manifest) and its weights. */
export const MODEL_FILES = { json: 'model.json', weights: 'weights.bin' } as const;

/** Bytes per value of the unquantised weight types. */
const BYTES: Readonly<Partial<Record<string, number>>> = {
  float32: 4,
  int32: 4,
  bool: 1,
  complex64: 8,
};

/** The bytes the manifest's weights need, or undefined when they cannot be counted ahead. */
function manifestBytes(specs: readonly tf.io.WeightsManifestEntry[]): number | undefined {
  let total = 0;
  for (const spec of specs) {
    const bytes = BYTES[spec.dtype];
    if (bytes === undefined || spec.quantization !== undefined) return undefined;
    total += bytes * spec.shape.reduce((product, axis) => product * axis, 1);
  }
  return total;
}

async function readModelJson(file: string): Promise<tf.io.ModelJSON> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    throw new InputFileError({ file, problem: 'cannot read the file', cause });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new InputFileError({ file, problem: 'not valid JSON', cause });
  }
  if (!isMapping(json) || !isMapping(json.modelTopology)) {
    throw new InputFileError({ file, key: 'modelTopology', problem: 'missing or not an object' });
  }
  const manifest = json.weightsManifest;
  const groupsOk =
    Array.isArray(manifest) &&
    manifest.every(
      (group) =>
        isMapping(group) &&
        Array.isArray(group.paths) &&
        group.paths.every((path) => typeof path === 'string') &&
        Array.isArray(group.weights),
    );
  if (!groupsOk) {
    throw new InputFileError({
      file,
      key: 'weightsManifest',
      problem: 'expected a list of {paths, weights} groups',
    });
  }
  return json as unknown as tf.io.ModelJSON;
}

/** A weights file named by the manifest, which must stay inside the model's folder. */
function weightsPath(folder: string, jsonFile: string, path: string): string {
  const relative = normalize(path);
  if (isAbsolute(relative) || relative.startsWith('..')) {
    throw new InputFileError({
      file: jsonFile,
      key: 'weightsManifest',
      problem: `weights path '${path}' leaves the model's folder`,
    });
  }
  return join(folder, relative);
}

async function readWeights(
  folder: string,
  jsonFile: string,
  manifest: tf.io.WeightsManifestConfig,
): Promise<ArrayBuffer> {
  const files = manifest.flatMap((group) =>
    group.paths.map((path) => weightsPath(folder, jsonFile, path)),
  );
  const buffers = await Promise.all(
    files.map(async (file) => {
      try {
        const bytes = await readFile(file);
        return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
      } catch (cause) {
        throw new InputFileError({ file, problem: 'cannot read the weights file', cause });
      }
    }),
  );
  const data = tf.io.CompositeArrayBuffer.join(buffers);
  const needed = manifestBytes(tf.io.getWeightSpecs(manifest));
  if (needed !== undefined && needed !== data.byteLength) {
    throw new InputFileError({
      file: files.join(', '),
      problem: `holds ${data.byteLength} bytes but ${jsonFile} lists weights of ${needed} bytes`,
    });
  }
  return data;
}

/**
 * A tfjs `IOHandler` that saves a model into a folder as `model.json` (topology and weights
 * manifest, tfjs's layers-model format) and `weights.bin` (all weights, little-endian float32 in
 * manifest order), and loads it back: the file-system counterpart of tfjs-node's `file://`
 * handler, which cannot be installed here.
 *
 * Saving creates the folder, writes `weights.bin` and then `model.json`, each atomically
 * (temporary file, flush, rename): a reader never sees a half-written file, and `model.json`
 * appears only once its weights are complete. Loading checks that the weight files hold exactly
 * the bytes the manifest lists.
 *
 * @example
 * ```ts
 * import { mkdtemp } from 'node:fs/promises';
 * import { tmpdir } from 'node:os';
 * import { join } from 'node:path';
 * import * as tfl from '@tensorflow/tfjs-layers';
 * import { modelFolderHandler } from '@partonfit/trainer';
 *
 * const folder = join(await mkdtemp(join(tmpdir(), 'replica-')), 'tfjs');
 * const model = tfl.sequential({ layers: [tfl.layers.dense({ units: 3, inputShape: [2] })] });
 * await model.save(modelFolderHandler(folder));
 * const again = await tfl.loadLayersModel(modelFolderHandler(folder));
 * console.log(again.outputs[0].shape); // [null, 3]
 * ```
 *
 * @throws (from `load`) InputFileError naming the file (and key) for a missing or unreadable
 *   file, invalid JSON, a malformed manifest, or weights of the wrong size; (from `save`)
 *   InvalidArgumentError for a binary (non-JSON) topology
 */
export function modelFolderHandler(folder: string): tf.io.IOHandler {
  const jsonFile = join(folder, MODEL_FILES.json);
  return {
    save: async (artifacts: tf.io.ModelArtifacts): Promise<tf.io.SaveResult> => {
      if (artifacts.modelTopology instanceof ArrayBuffer) {
        throw new InvalidArgumentError({
          argument: 'modelTopology',
          problem: 'a binary topology cannot be saved as model.json; save a LayersModel',
        });
      }
      const weights = new Uint8Array(tf.io.CompositeArrayBuffer.join(artifacts.weightData));
      const modelJson: tf.io.ModelJSON = {
        modelTopology: artifacts.modelTopology ?? {},
        format: artifacts.format ?? 'layers-model',
        generatedBy: artifacts.generatedBy ?? `TensorFlow.js tfjs-core v${tf.version_core}`,
        convertedBy: artifacts.convertedBy ?? null,
        weightsManifest: [{ paths: [MODEL_FILES.weights], weights: artifacts.weightSpecs ?? [] }],
        ...(artifacts.trainingConfig === undefined
          ? {}
          : { trainingConfig: artifacts.trainingConfig }),
        ...(artifacts.userDefinedMetadata === undefined
          ? {}
          : { userDefinedMetadata: artifacts.userDefinedMetadata }),
      };
      await mkdir(folder, { recursive: true });
      await writeFileAtomic(join(folder, MODEL_FILES.weights), weights);
      await writeFileAtomic(jsonFile, `${JSON.stringify(modelJson)}\n`);
      return {
        modelArtifactsInfo: {
          dateSaved: new Date(),
          modelTopologyType: 'JSON',
          modelTopologyBytes: JSON.stringify(modelJson.modelTopology).length,
          weightSpecsBytes: JSON.stringify(modelJson.weightsManifest[0].weights).length,
          weightDataBytes: weights.byteLength,
        },
      };
    },
    load: async (): Promise<tf.io.ModelArtifacts> => {
      const modelJson = await readModelJson(jsonFile);
      return tf.io.getModelArtifactsForJSON(modelJson, async (manifest) => [
        tf.io.getWeightSpecs(manifest),
        await readWeights(folder, jsonFile, manifest),
      ]);
    },
  };
}
