import { statSync } from 'node:fs';
import type { DownloadedFile } from '../download/download-file.js';

/** What `partonfit get` did. */
export interface GetResult {
  /** The theory's or set's folder in the data folder. */
  readonly folder: string;
  /** The archive's address; undefined when the folder was already there. */
  readonly url: string | undefined;
  /**
   * The download; undefined when the folder was already there or a complete archive from an
   * earlier, interrupted run was unpacked.
   */
  readonly download: DownloadedFile | undefined;
}

/** Whether `folder` exists as a folder (only ever created complete, by a rename). */
export function presentFolder(folder: string): boolean {
  try {
    return statSync(folder).isDirectory();
  } catch {
    return false;
  }
}
