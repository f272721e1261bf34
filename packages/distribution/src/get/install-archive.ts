import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { InputFileError, PartonfitError } from '@partonfit/core';
import type { TarMember } from '../archive/tar-unpacker.js';
import { unpackArchive } from '../archive/unpack-archive.js';
import {
  downloadFile,
  type DownloadedFile,
  type DownloadProgress,
} from '../download/download-file.js';

/** What `partonfit get` is doing, for a progress display. */
export type GetEvent =
  | { readonly kind: 'download'; readonly progress: DownloadProgress }
  | { readonly kind: 'unpack'; readonly archive: string }
  | { readonly kind: 'check'; readonly folder: string };

/** Receives {@link GetEvent}s. */
export type GetReporter = (event: GetEvent) => void;

/** What an archive must hold, checked on its unpacked copy before it is moved into place. */
export type LayoutCheck = (
  root: string,
  members: readonly TarMember[],
  archive: string,
) => Promise<void>;

/** What {@link installArchive} needs. */
export interface InstallRequest {
  /** The archive's address. */
  readonly url: string;
  /** What it is, for messages (e.g. `theory 200's archive`). */
  readonly what: string;
  /** The folder to create, e.g. `<data>/theories/theory_200`. */
  readonly target: string;
  /** Checks the archive's one top-level folder once unpacked. */
  readonly checkLayout: LayoutCheck;
  readonly report?: GetReporter | undefined;
}

const UNPACK_PREFIX = (target: string) => `.${basename(target)}.unpack-`;

/** Removes unpack folders that a killed `partonfit get` of the same target left behind. */
async function removeStaleUnpackFolders(target: string): Promise<void> {
  const parent = dirname(target);
  const prefix = UNPACK_PREFIX(target);
  const names = await readdir(parent);
  await Promise.all(
    names
      .filter((name) => name.startsWith(prefix))
      .map((name) => rm(join(parent, name), { recursive: true, force: true })),
  );
}

/** The one top-level folder of an archive's members. */
function topFolder(members: readonly TarMember[], archive: string): string {
  const tops = new Set(members.map((member) => member.name.split('/')[0]));
  const folders = [...tops].filter((top) =>
    members.some(
      (member) =>
        member.name.startsWith(`${top}/`) || (member.name === top && member.kind === 'directory'),
    ),
  );
  if (tops.size !== 1 || folders.length !== 1) {
    throw new InputFileError({
      file: archive,
      problem: `expected one top-level folder, the archive holds ${tops.size === 0 ? 'nothing' : [...tops].join(', ')}`,
    });
  }
  return folders[0];
}

/**
 * Downloads an archive beside `target` (resumable: `<target>.<ext>.part`), unpacks it into a
 * temporary folder beside `target`, checks its layout and renames its one top-level folder to
 * `target`. Until that rename nothing is at `target`, so a half-downloaded or half-unpacked
 * archive is never used. An archive that does not unpack or fails the layout check is deleted
 * with the temporary folder: nothing is left behind. A complete archive left by an earlier run
 * killed while unpacking is unpacked without downloading it again.
 *
 * @returns the download, or undefined when an earlier run's complete archive was used
 * @throws DownloadError when the download fails (the part file stays to resume), InputFileError
 *   naming the archive when it is corrupt or not laid out as expected
 */
export async function installArchive(request: InstallRequest): Promise<DownloadedFile | undefined> {
  const { url, target, report } = request;
  const parent = dirname(target);
  await mkdir(parent, { recursive: true });
  await removeStaleUnpackFolders(target);
  const archive = join(parent, basename(new URL(url).pathname));
  const download = existsSync(archive)
    ? undefined
    : await downloadFile(url, archive, {
        what: request.what,
        onProgress: (progress) => report?.({ kind: 'download', progress }),
      });
  const temporary = await mkdtemp(join(parent, UNPACK_PREFIX(target)));
  try {
    report?.({ kind: 'unpack', archive });
    const members = await unpackArchive(archive, temporary);
    const root = join(temporary, topFolder(members, archive));
    report?.({ kind: 'check', folder: root });
    await request.checkLayout(root, members, archive);
    await rename(root, target).catch((error: unknown) => {
      // Another `partonfit get` of the same target finished first: its copy is as good.
      if (!existsSync(target)) throw error;
    });
  } catch (error) {
    if (InputFileError.isInstance(error)) await rm(archive, { force: true });
    if (PartonfitError.isInstance(error)) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new InputFileError({ file: target, problem: `cannot install (${reason})`, cause: error });
  } finally {
    await rm(temporary, { recursive: true, force: true });
  }
  await rm(archive, { force: true });
  return download;
}
