import type { BincodeReader } from './bincode-reader.js';
import { readSubgridArray } from './subgrid-array.js';
import {
  importSubgrid,
  layoutOf,
  type Kinematic,
  type StoredImportSubgrid,
} from './import-subgrid-v1.js';
import { readPackedArray } from './packed-array.js';
import type {
  PineapplBinRemapper,
  PineapplChannelEntry,
  PineapplConvolution,
  PineapplGrid,
} from './pineappl-grid.js';
import { readScales } from './scale-func-form.js';

/**
 * The bincode serialisation of PineAPPL 1.x's `Grid` (file version 1), read into the plain
 * objects of file version 0: subgrids, bins with fill limits, orders, channels, particle-id basis,
 * convolutions, interpolations, kinematics, scales, metadata and the reference results.
 *
 * @packageDocumentation
 */

type StoredSubgrid = StoredImportSubgrid | { readonly type: 'EmptySubgridV1' | 'InterpSubgridV1' };

const CONV_TYPES = ['UnpolPDF', 'PolPDF', 'UnpolFF', 'PolFF'] as const;

/** `Interp`: min, max, nodes, order, then the `ReweightMeth`, `Map` and `InterpMeth` variants. */
function readInterp(reader: BincodeReader, key: string): void {
  reader.f64(`${key}.min`);
  reader.f64(`${key}.max`);
  reader.u64(`${key}.nodes`);
  reader.u64(`${key}.order`);
  reader.variant(`${key}.reweight`, 2);
  reader.variant(`${key}.map`, 2);
  reader.variant(`${key}.interp_meth`, 1);
}

function readSubgrid(reader: BincodeReader, key: string): StoredSubgrid {
  const type = reader.variant(`${key} (subgrid type)`, 3);
  if (type === 1) return { type: 'EmptySubgridV1' };
  const array = readPackedArray(reader, `${key}.array`);
  if (type === 0) {
    reader.vec(`${key}.interps`, 44, () => {
      readInterp(reader, `${key}.interps`);
    });
    reader.vec(`${key}.static_nodes`, 1, () => {
      if (reader.option(`${key}.static_nodes`)) reader.f64(`${key}.static_nodes`);
    });
    return { type: 'InterpSubgridV1' };
  }
  const nodeValues = reader.vec(`${key}.node_values`, 8, (dimension) =>
    reader.f64Vec(`${key}.node_values[${dimension}]`),
  );
  const shape = nodeValues.map((nodes) => nodes.length);
  if (shape.join() !== array.shape.join()) {
    throw reader.error(
      key,
      `array shape [${array.shape.join(', ')}] does not match the node values [${shape.join(', ')}]`,
    );
  }
  return { key, array, nodeValues };
}

interface Bins {
  readonly fillLimits: Float64Array;
  readonly remapper: PineapplBinRemapper;
}

/** `BinsWithFillLimits`: each bin's limits per dimension and normalisation, then the fill limits. */
function readBins(reader: BincodeReader): Bins {
  const normalizations: number[] = [];
  const limits: number[] = [];
  let dimensions: number | undefined;
  reader.vec('bwfl.bins', 16, (bin) => {
    const key = `bwfl.bins[${bin}]`;
    const count = reader.length(`${key}.limits`, 16);
    dimensions ??= count;
    if (count !== dimensions) {
      throw reader.error(`${key}.limits`, `${count} dimensions, bin 0 has ${dimensions}`);
    }
    for (let index = 0; index < 2 * count; index++) limits.push(reader.f64(`${key}.limits`));
    normalizations.push(reader.f64(`${key}.normalization`));
  });
  const fillLimits = reader.f64Vec('bwfl.fill_limits');
  return {
    fillLimits,
    remapper: {
      normalizations: Float64Array.from(normalizations),
      limits: Float64Array.from(limits),
    },
  };
}

/** `Reference`: reference results and uncertainties per bin, and the functions used; skipped. */
function skipReference(reader: BincodeReader): void {
  const skipValues = (key: string, variant: number): void => {
    if (variant === 0) reader.f64(key);
    else if (variant === 3) reader.vec(key, 8, () => reader.f64Vec(key));
    else reader.f64Vec(key);
  };
  reader.vec('reference.ref_res_unc', 16, () => {
    skipValues('reference.abs', reader.variant('reference.abs', 4));
    const relative = reader.variant('reference.rel', 4);
    skipValues('reference.rel', relative);
    if (relative > 0) reader.variant('reference.rel.comb_op', 2);
  });
  reader.vec('reference.ref_conv_fun', 8, () => reader.string('reference.ref_conv_fun'));
}

function readKinematics(reader: BincodeReader): Kinematic[] {
  return reader.vec('kinematics', 12, () => ({
    kind: reader.variant('kinematics', 2) === 0 ? 'Scale' : 'X',
    index: reader.u64('kinematics'),
  }));
}

/**
 * Reads the body of a file version 1 grid, after its 16-byte header, to the last byte.
 *
 * @throws InputFileError - naming the file, the field and the byte offset, for a truncated or
 *   corrupt grid, an unknown variant, inconsistent subgrids or bytes after the grid
 * @throws UnsupportedInputError - naming the file, for a grid with more than two convolutions
 */
export function readGridV1(reader: BincodeReader, file: string): PineapplGrid {
  const { shape: subgridShape, subgrids: stored } = readSubgridArray(reader, readSubgrid);
  const bins = readBins(reader);
  const orders = reader.vec('orders', 5, () => ({
    alphas: reader.u8('orders'),
    alpha: reader.u8('orders'),
    logxir: reader.u8('orders'),
    logxif: reader.u8('orders'),
    logxia: reader.u8('orders'),
  }));
  const channelPids = reader.vec('channels', 8, (channel) =>
    reader.vec(`channels[${channel}]`, 16, () => ({
      pids: reader.vec(`channels[${channel}].pids`, 4, () => reader.i32(`channels[${channel}]`)),
      factor: reader.f64(`channels[${channel}].factor`),
    })),
  );
  const pidBasis = reader.variant('pid_basis', 2) === 0 ? 'Pdg' : 'Evol';
  const convolutions: PineapplConvolution[] = reader.vec('convolutions', 8, () => ({
    type: CONV_TYPES[reader.variant('convolutions.conv_type', CONV_TYPES.length)],
    pid: reader.i32('convolutions.pid'),
  }));
  reader.vec('interps', 44, () => {
    readInterp(reader, 'interps');
  });
  const kinematics = readKinematics(reader);
  const scales = readScales(reader, kinematics);
  const metadata = new Map<string, string>();
  const entries = reader.length('metadata', 16);
  for (let index = 0; index < entries; index++) {
    const key = reader.string('metadata');
    metadata.set(key, reader.string(`metadata.${key}`));
  }
  reader.variant('more_members', 1);
  skipReference(reader);
  if (reader.remaining !== 0) {
    throw reader.error('Grid', `${reader.remaining} bytes follow the end of the grid`);
  }
  const layout = layoutOf(reader, file, kinematics, scales, convolutions.length);
  const channels = channelPids.map((terms, channel) =>
    terms.map(({ pids, factor }): PineapplChannelEntry => {
      if (pids.length !== convolutions.length) {
        throw reader.error(
          `channels[${channel}]`,
          `${pids.length} particle ids for ${convolutions.length} convolutions`,
        );
      }
      return { pid1: pids[0], pid2: pids[1] ?? 0, factor };
    }),
  );
  const subgrids = stored.map((subgrid) =>
    'type' in subgrid ? subgrid : importSubgrid(reader, layout, subgrid),
  );
  return {
    file,
    fileVersion: 1,
    subgridShape,
    subgrids,
    channels,
    binLimits: { kind: 'unequal', limits: bins.fillLimits },
    orders,
    remapper: bins.remapper,
    metadata,
    convolutions,
    pidBasis,
  };
}
