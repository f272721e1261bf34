/**
 * The public servers `partonfit get` downloads from: the one place their addresses live.
 *
 * NNPDF theories (upstream validphys's `nnprofile_default.yaml`, `theory_urls`): each base
 * address publishes an index `theorydata.json`, `{"files": ["theory_200.tgz", …]}`, and the
 * archives it lists beside it (`<base>theory_<ID>.tgz`). An archive holds one folder,
 * `theory_<ID>/`, with `fastkernel/` (legacy theories: `FK_<SET>.dat`, each itself a gzip tar
 * holding `theory_<ID>/fastkernel/FK_<SET>.dat`; current theories: `<name>.pineappl.lz4`) and,
 * in legacy theories, `cfactor/` and `compound/`. The bases are tried in order, as upstream's
 * loader does. No checksums are published: an archive is checked by unpacking it completely
 * (gzip CRC-32 and length, tar header checksums, every nested FK archive too) and by its layout.
 *
 * LHAPDF sets (upstream's `lhapdf_urls`, LHAPDF's own `lhapdf get`): `<base><set>.tar.gz`, one
 * folder `<set>/` holding `<set>.info` and the members `<set>_<nnnn>.dat`. No checksums either.
 *
 * Both are overridden by environment variables (for mirrors and for tests):
 * `PARTONFIT_THEORY_URLS` (base addresses separated by spaces or commas) and
 * `PARTONFIT_LHAPDF_URL` (one base address).
 *
 * @packageDocumentation
 */

/** NNPDF's theory servers, in the order they are tried. */
export const NNPDF_THEORY_URLS: readonly string[] = [
  'https://nnpdf.nikhef.nl/nnpdf/theories/',
  'https://nnpdf.web.cern.ch/nnpdf/tables/',
  'https://nnpdf.web.cern.ch/nnpdf/tables_box/',
];

/** The name of the index each theory server publishes. */
export const THEORY_INDEX = 'theorydata.json';

/** LHAPDF's server of current PDF sets. */
export const LHAPDF_URL = 'https://lhapdfsets.web.cern.ch/current/';

/** The environment variable that replaces {@link NNPDF_THEORY_URLS}. */
export const THEORY_URLS_VARIABLE = 'PARTONFIT_THEORY_URLS';

/** The environment variable that replaces {@link LHAPDF_URL}. */
export const LHAPDF_URL_VARIABLE = 'PARTONFIT_LHAPDF_URL';

/** Where `partonfit get` downloads from. */
export interface Servers {
  /** Base addresses of NNPDF theory servers, each ending in `/`, tried in order. */
  readonly theoryUrls: readonly string[];
  /** Base address of the LHAPDF set server, ending in `/`. */
  readonly lhapdfUrl: string;
}

function withSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}

/**
 * The servers to download from: {@link NNPDF_THEORY_URLS} and {@link LHAPDF_URL}, each replaced
 * by its environment variable when that is set and not empty.
 *
 * @example
 * ```ts
 * import { defaultServers } from '@partonfit/distribution';
 *
 * console.log(defaultServers({}).lhapdfUrl); // https://lhapdfsets.web.cern.ch/current/
 * ```
 */
export function defaultServers(env: NodeJS.ProcessEnv = process.env): Servers {
  const theoryUrls = (env[THEORY_URLS_VARIABLE] ?? '').split(/[\s,]+/).filter((url) => url !== '');
  const lhapdfUrl = env[LHAPDF_URL_VARIABLE] ?? '';
  return {
    theoryUrls: (theoryUrls.length > 0 ? theoryUrls : NNPDF_THEORY_URLS).map(withSlash),
    lhapdfUrl: withSlash(lhapdfUrl === '' ? LHAPDF_URL : lhapdfUrl),
  };
}
