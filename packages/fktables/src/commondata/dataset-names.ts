import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { joinKey, YamlSource } from './yaml-source.js';

/** Where a legacy dataset name leads: the current dataset name and, maybe, a variant. */
export interface LegacyNameTarget {
  /** The current dataset name, e.g. `HERA_CC_318GEV_EM-SIGMARED`. */
  readonly dataset: string;
  /** The variant that reproduces the legacy data, e.g. `legacy`. */
  readonly variant: string | undefined;
}

/** The file of a commondata folder that maps legacy names to current ones. */
export const DATASET_NAMES_FILE = 'dataset_names.yml';

/**
 * Reads `<commondataFolder>/dataset_names.yml`: legacy name → `NEW_NAME` or
 * `{ dataset: NEW_NAME, variant: VARIANT }`. An absent file maps nothing.
 *
 * @throws InputFileError - if the file is not such a mapping
 */
export async function readLegacyNames(
  commondataFolder: string,
): Promise<Map<string, LegacyNameTarget>> {
  const file = join(commondataFolder, DATASET_NAMES_FILE);
  const names = new Map<string, LegacyNameTarget>();
  if (!existsSync(file)) return names;
  const source = await YamlSource.read(file, 'legacy dataset names');
  for (const [legacy, node] of source.entries(source.map(source.root, ''), '')) {
    if (node.kind === 'scalar') {
      names.set(legacy, { dataset: source.text(node, legacy), variant: undefined });
      continue;
    }
    const entry = source.map(node, legacy);
    const variant = source.get(entry, 'variant');
    names.set(legacy, {
      dataset: source.text(source.required(entry, 'dataset', legacy), joinKey(legacy, 'dataset')),
      variant: source.isNull(variant)
        ? undefined
        : source.text(variant, joinKey(legacy, 'variant')),
    });
  }
  return names;
}
