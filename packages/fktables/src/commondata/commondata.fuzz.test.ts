import { readFileSync } from 'node:fs';
import { damageText, FUZZ_MUTATIONS, fuzzParser } from '@partonfit/testing';
import { hasSharedData, SHARED_DATA } from '@partonfit/testing/shared-data';
import { describe, expect, it } from 'vitest';
import { readCentralValues, readKinematics, readUncertainties } from './data-files.js';
import { applyVariant, parseSetMetadata } from './metadata.js';
import { YamlSource } from './yaml-source.js';

const SET = `${SHARED_DATA}commondata/SLAC_NC_NOTFIXED_P/`;
const hasSet = hasSharedData(
  'commondata/SLAC_NC_NOTFIXED_P',
  'fuzz test of the commondata YAML readers',
);

/** Points kept of the set's 211, so that each damaged copy parses in well under a millisecond. */
const NDATA = 12;

/** A file of the set cut to its first {@link NDATA} list items (`- …` at the top level). */
function firstPoints(name: string): string {
  const lines = readFileSync(`${SET}${name}`, 'utf8').split('\n');
  const items = lines.flatMap((line, i) => (line.startsWith('- ') ? [i] : []));
  const end = items[NDATA] ?? lines.length;
  return `${lines.slice(0, end).join('\n')}\n`;
}

describe.skipIf(!hasSet)('the commondata readers on damaged files', () => {
  const VARIABLES = ['x', 'Q2', 'y'];

  it.each([
    [
      'metadata.yaml',
      31,
      (source: YamlSource) => {
        const set = parseSetMetadata(source);
        return set.observableNames.map((name) => {
          const observable = set.observable(name);
          return [...(observable?.variants ?? [])].map(([variant, settings]) =>
            observable === undefined ? undefined : applyVariant(observable, variant, settings),
          );
        });
      },
    ],
    ['data_legacy_EM-F2.yaml', 32, (source: YamlSource) => readCentralValues(source, NDATA)],
    ['kinematics_EM-F2.yaml', 33, (source: YamlSource) => readKinematics(source, VARIABLES, NDATA)],
    [
      'uncertainties_legacy_EM-F2.yaml',
      34,
      (source: YamlSource) => readUncertainties(source, new Float64Array(NDATA).fill(0.3)),
    ],
  ] as const)(
    `should read each of ${FUZZ_MUTATIONS} damaged copies of %s or name the problem`,
    async (name, seed, read) => {
      const outcome = await fuzzParser({
        original:
          name === 'metadata.yaml' ? readFileSync(`${SET}${name}`, 'utf8') : firstPoints(name),
        damage: damageText,
        parse: (damaged) => read(YamlSource.parse(`${SET}${name}`, damaged)),
        seed,
      });
      expect(outcome.refused).toBeGreaterThan(FUZZ_MUTATIONS / 10);
    },
  );
});
