import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLOSURE_RUNCARD } from '@partonfit/testing';
import { runCaptured as run } from './cli.fixture.js';

/** Why small file systems cannot be mounted here, or undefined when they can. */
function mountUnavailable(): string | undefined {
  if (process.getuid?.() !== 0) return 'mounting a small tmpfs needs root';
  const probe = join(tmpdir(), `partonfit-mount-probe-${process.pid}`);
  try {
    execFileSync('mkdir', ['-p', probe]);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe]);
    return undefined;
  } catch {
    return 'mount -t tmpfs is not permitted here';
  }
}

const unavailable = mountUnavailable();
if (unavailable !== undefined) {
  console.warn(`skipping the read-only and full-disk tests: ${unavailable}`);
}

describe.skipIf(unavailable !== undefined)('partonfit fit on a file system it cannot write', () => {
  const mounted: string[] = [];

  async function tmpfs(options: string): Promise<string> {
    const folder = await mkdtemp(join(tmpdir(), 'partonfit-tmpfs-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', folder]);
    mounted.push(folder);
    return folder;
  }

  afterAll(async () => {
    for (const folder of mounted) {
      execFileSync('umount', [folder]);
      await rm(folder, { recursive: true });
    }
  });

  it('should refuse a read-only output before any work, naming the folder', async () => {
    const output = await tmpfs('size=1m,ro');
    const result = await run('fit', CLOSURE_RUNCARD, '--output', output);
    expect(result.code).toBe(1);
    expect(result.error).toContain(
      `partonfit fit: cannot create the folder ${join(output, 'closure')}: the file system is read-only (EROFS)\n`,
    );
    expect(result.error).not.toContain('fitting');
    expect(result.error).not.toMatch(/\n\s+at /);
  });

  it('should refuse an existing fit folder remounted read-only before training', async () => {
    const output = await tmpfs('size=1m');
    await mkdir(join(output, 'closure'));
    execFileSync('mount', ['-o', 'remount,ro', output]);
    const result = await run('fit', CLOSURE_RUNCARD, '--output', output);
    expect(result.code).toBe(1);
    expect(result.error).toMatch(
      /closure\/\.partonfit-write-probe-\w+: the file system is read-only \(EROFS\)\n/,
    );
    expect(result.error).not.toContain('fitting');
  });

  it('should refuse a full disk before any work', async () => {
    const output = await tmpfs('size=64k');
    await writeFile(join(output, 'filler'), new Uint8Array(64 * 1024)).catch(() => undefined);
    const result = await run('fit', CLOSURE_RUNCARD, '--output', output);
    expect(result.code).toBe(1);
    expect(result.error).toMatch(/no space left on the device \(ENOSPC\)\n/);
    expect(result.error).not.toContain('fitting');
    expect(result.error).not.toMatch(/\n\s+at /);
  });
});
