import { join } from 'node:path';
import { dataFolder, InputFileError, InvalidArgumentError, lhapdfFolder } from '@partonfit/core';
import { loadLhapdfSet } from '@partonfit/io';
import type { TarMember } from '../archive/tar-unpacker.js';
import { defaultServers } from '../servers.js';
import { presentFolder, type GetResult } from './get-result.js';
import type { GetOptions } from './get-theory.js';
import { installArchive } from './install-archive.js';

/** LHAPDF set names: letters, digits and `_ . + -`, no path separators. */
const SET_NAME = /^[A-Za-z0-9][A-Za-z0-9_.+-]*$/;

/**
 * The layout of an LHAPDF set `<set>/`: the folder is named as the set, its `<set>.info` reads,
 * and every member it announces (`NumMembers`) is there as `<set>_<nnnn>.dat`.
 */
function checkSetLayout(name: string) {
  return async (root: string, members: readonly TarMember[], archive: string): Promise<void> => {
    const top = members[0]?.name.split('/')[0] ?? '';
    if (top !== name) {
      throw new InputFileError({
        file: archive,
        problem: `not laid out as the LHAPDF set ${name}: its folder is '${top}'`,
      });
    }
    const set = await loadLhapdfSet(root);
    const files = new Set(members.filter((m) => m.kind === 'file').map((m) => m.name));
    for (let member = 0; member < set.numMembers; member++) {
      const file = `${name}/${name}_${String(member).padStart(4, '0')}.dat`;
      if (!files.has(file)) {
        throw new InputFileError({
          file: archive,
          problem: `the LHAPDF set ${name} announces ${set.numMembers} members (NumMembers), ${file} is missing`,
        });
      }
    }
  };
}

/**
 * `partonfit get pdf <set>`: downloads the LHAPDF set `name` from LHAPDF's server into
 * `<data folder>/lhapdf/<set>/` (resumable, checked, unpacked atomically), unless it is already
 * there.
 *
 * @throws InvalidArgumentError for a name that is not an LHAPDF set name; DownloadError naming
 *   the address (offline, a set the server does not have: HTTP 404, a broken transfer);
 *   InputFileError naming the archive when it is corrupt or not laid out as the set
 */
export async function getLhapdfSet(name: string, options: GetOptions = {}): Promise<GetResult> {
  if (!SET_NAME.test(name)) {
    throw new InvalidArgumentError({
      argument: 'name',
      problem: `expected an LHAPDF set name such as NNPDF40_nnlo_as_01180, got '${name}'`,
    });
  }
  const target = join(lhapdfFolder(dataFolder(options.dataFolder)), name);
  if (presentFolder(target)) return { folder: target, url: undefined, download: undefined };
  const url = `${(options.servers ?? defaultServers()).lhapdfUrl}${name}.tar.gz`;
  const download = await installArchive({
    url,
    what: `LHAPDF set ${name}`,
    target,
    checkLayout: checkSetLayout(name),
    report: options.report,
  });
  return { folder: target, url, download };
}
