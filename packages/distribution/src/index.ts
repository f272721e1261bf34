/**
 * @partonfit/distribution — `partonfit get`: NNPDF theories and LHAPDF sets downloaded from
 * their public servers into partonfit's data folder, resumable, checked, unpacked atomically.
 *
 * @packageDocumentation
 */
export { checkGzip, unpackArchive } from './archive/unpack-archive.js';
export { TarUnpacker, type TarMember } from './archive/tar-unpacker.js';
export * from './download/index.js';
export { DownloadError } from './download-error.js';
export {
  defaultServers,
  LHAPDF_URL,
  LHAPDF_URL_VARIABLE,
  NNPDF_THEORY_URLS,
  THEORY_INDEX,
  THEORY_URLS_VARIABLE,
  type Servers,
} from './servers.js';
export { getTheory, findTheoryUrl, type GetOptions } from './get/get-theory.js';
export { getLhapdfSet } from './get/get-lhapdf-set.js';
export { type GetResult } from './get/get-result.js';
export { installArchive, type GetEvent, type GetReporter } from './get/install-archive.js';
