/** The typed arrays an {@link Hdf5Dataset} can hold: HDF5 `<d`, `<f`, `<i` (int32), `<B` (uint8). */
export type Hdf5Data = Float64Array | Float32Array | Int32Array | Uint8Array;

/**
 * An HDF5 dataset: its shape and its values in C (row-major) order, the layout HDF5 uses.
 * A scalar dataset has shape `[]` and one value.
 */
export interface Hdf5Dataset {
  readonly shape: readonly number[];
  readonly data: Hdf5Data;
}

/** The attribute values partonfit writes and reads on the root of a file. */
export type Hdf5AttributeValue = string | number | readonly number[];

/** What {@link writeHdf5File} writes. */
export interface Hdf5Contents {
  /**
   * The datasets by slash path (`replica_1/dense/kernel`); the groups on the path are created as
   * needed.
   */
  readonly datasets: Readonly<Record<string, Hdf5Dataset>>;
  /** Attributes of the root group (numbers are stored as float64, exact for integers < 2⁵³). */
  readonly attributes?: Readonly<Record<string, Hdf5AttributeValue>>;
}

/** What {@link readHdf5File} returns. */
export interface Hdf5FileContents {
  /** Every dataset of the file by slash path, in the file's order. */
  readonly datasets: Map<string, Hdf5Dataset>;
  /** The root group's attributes; numeric arrays come back as number[]. */
  readonly attributes: Record<string, string | number | number[]>;
}
