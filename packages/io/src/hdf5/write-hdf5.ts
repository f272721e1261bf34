import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { InvalidArgumentError, ShapeError } from '@partonfit/core';
import h5wasm from 'h5wasm/node';
import { withHdf5 } from './h5wasm-module.js';
import type { Hdf5Contents, Hdf5Data, Hdf5Dataset } from './hdf5-dataset.js';

/** The HDF5 type string h5wasm writes for each typed array. */
function dtypeOf(data: Hdf5Data): string {
  if (data instanceof Float64Array) return '<d';
  if (data instanceof Float32Array) return '<f';
  if (data instanceof Int32Array) return '<i';
  return '<B';
}

/** The dataset paths checked: non-empty segments, none also used as a group. */
function checkPaths(datasets: Readonly<Record<string, Hdf5Dataset>>): void {
  const paths = Object.keys(datasets);
  for (const path of paths) {
    if (path.split('/').some((segment) => segment === '' || segment === '.' || segment === '..')) {
      throw new InvalidArgumentError({
        argument: 'datasets',
        problem: `'${path}' is not a slash path of names (no leading, trailing or double '/')`,
      });
    }
    const group = paths.find((other) => other.startsWith(`${path}/`));
    if (group !== undefined) {
      throw new InvalidArgumentError({
        argument: 'datasets',
        problem: `'${path}' cannot be a dataset and the group of '${group}'`,
      });
    }
    const { shape, data } = datasets[path];
    const size = shape.reduce((product, axis) => product * axis, 1);
    if (!shape.every((axis) => Number.isInteger(axis) && axis >= 0) || size !== data.length) {
      throw new ShapeError({
        quantity: `dataset ${path} (${data.length} values)`,
        expected: [data.length],
        actual: [...shape],
      });
    }
  }
}

/** Writes the contents into a new HDF5 file at `file` (which must not be open elsewhere). */
function writeContents(file: string, contents: Hdf5Contents): void {
  const output = new h5wasm.File(file, 'w');
  try {
    const groups = new Set<string>();
    for (const [path, { shape, data }] of Object.entries(contents.datasets)) {
      const segments = path.split('/');
      for (let depth = 1; depth < segments.length; depth++) {
        const group = segments.slice(0, depth).join('/');
        if (!groups.has(group)) output.create_group(group);
        groups.add(group);
      }
      output.create_dataset({ name: path, data, shape: [...shape], dtype: dtypeOf(data) });
    }
    for (const [name, value] of Object.entries(contents.attributes ?? {})) {
      if (typeof value === 'string') output.create_attribute(name, value);
      else if (typeof value === 'number') output.create_attribute(name, value, [], '<d');
      else output.create_attribute(name, Float64Array.from(value), [value.length], '<d');
    }
  } finally {
    output.close();
  }
}

/**
 * Writes datasets and root attributes to an HDF5 file atomically: the file is written under a
 * temporary name in the same folder, flushed to disk, and renamed over `file`, so readers (and a
 * crash) see either the old file or the complete new one. h5wasm's Node build writes through to
 * the real file system.
 *
 * @param file - the final path; its folder must exist
 * @param contents - datasets by slash path (groups created as needed) and root attributes
 * @throws InvalidArgumentError for a malformed path or a path used both as dataset and group
 * @throws ShapeError when a dataset's data length is not the product of its shape
 *
 * @example
 * ```ts
 * import { mkdtemp } from 'node:fs/promises';
 * import { tmpdir } from 'node:os';
 * import { join } from 'node:path';
 * import { writeHdf5File } from '@partonfit/io';
 *
 * const folder = await mkdtemp(join(tmpdir(), 'weights-'));
 * const kernel = new Float32Array(2 * 25).fill(0.5);
 * await writeHdf5File(join(folder, 'weights.h5'), {
 *   datasets: { 'dense_0/kernel': { shape: [2, 25], data: kernel } },
 *   attributes: { replica: 1 },
 * });
 * ```
 */
export async function writeHdf5File(file: string, contents: Hdf5Contents): Promise<void> {
  checkPaths(contents.datasets);
  const absolute = resolve(file);
  const temporary = join(
    dirname(absolute),
    `.${basename(absolute)}.${randomBytes(6).toString('hex')}.tmp`,
  );
  // creating the temporary file first turns a missing folder or a permission problem into the
  // file system's own error, before h5wasm (which reports failures only on stderr) is involved
  await (await open(temporary, 'wx')).close();
  try {
    await withHdf5(() => {
      writeContents(temporary, contents);
    });
    const handle = await open(temporary, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, absolute);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
