import type { z } from 'zod';
import type { runcardSchema } from './schema.js';

/**
 * A validated runcard with every default filled in. Keys are n3fit's, so a physicist reads them
 * as in any n3fit runcard; see `runcardSchema` for each key's default.
 */
export type Runcard = z.output<typeof runcardSchema>;

/** One entry of `dataset_inputs`. */
export type DatasetInput = Runcard['dataset_inputs'][number];

/** The `parameters` section: network, optimiser, stopping, Lagrange multipliers. */
export type FitParameters = Runcard['parameters'];

/** One entry of `fitting.basis`: a fitted flavour and its preprocessing ranges. */
export type BasisFlavourSettings = Runcard['fitting']['basis'][number];
