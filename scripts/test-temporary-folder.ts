import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * vitest's global setup: every test run gets its own temporary folder (`$TMPDIR` for the test
 * workers and every program they start), removed when the run ends, so that the folders tests
 * make with `mkdtemp(tmpdir())` never pile up in the system's temporary folder.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const folder = await mkdtemp(join(tmpdir(), 'partonfit-test-run-'));
  process.env.TMPDIR = folder;
  return async () => {
    await rm(folder, { recursive: true, force: true });
  };
}
