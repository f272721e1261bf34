import { access } from 'node:fs/promises';

/** Whether a file or folder exists (is accessible). */
export async function pathExists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
