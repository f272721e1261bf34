import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const DIST = new URL('../../dist/', import.meta.url);
const CORE = new URL('../../../core/dist/index.js', import.meta.url);
const CLOSURE = fileURLToPath(new URL('../../../../examples/closure.yml', import.meta.url));

describe('prepareFitInputs writing its cache in a worker thread (the built package)', () => {
  it('should return before the cache is written, then read the same inputs from it', async () => {
    const worker = new URL('fit-inputs/cache-writer-worker.js', DIST);
    expect(existsSync(worker), `${fileURLToPath(worker)}: build the package first`).toBe(true);
    // The child prepares the closure inputs cold, asks again at once (which waits for the
    // background write) and prints what it saw and whether both inputs hash the same (keys with
    // undefined values left out: the cache does not keep them).
    const script = `
      import { createHash } from 'node:crypto';
      import { existsSync } from 'node:fs';
      import { loadRuncard } from ${JSON.stringify(CORE.href)};
      import { prepareFitInputs } from ${JSON.stringify(new URL('index.js', DIST).href)};
      const [runcardFile, cacheFolder] = process.argv.slice(2);
      const { runcard } = await loadRuncard(runcardFile);
      const options = { runcardFile, replicas: [1, 2], cacheFolder };
      const cold = await prepareFitInputs(runcard, options);
      const cached = await prepareFitInputs(runcard, options);
      await cold.cacheWritten;
      const digest = (value, hash = createHash('sha256')) => {
        if (ArrayBuffer.isView(value)) {
          hash.update(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
        } else if (value !== null && typeof value === 'object') {
          for (const key of Object.keys(value).sort()) {
            if (value[key] !== undefined) {
              hash.update(key);
              digest(value[key], hash);
            }
          }
        } else {
          hash.update(String(value));
        }
        return hash;
      };
      console.log(JSON.stringify({
        cold: cold.cached,
        cached: cached.cached,
        onDisk: existsSync(cold.cacheFile),
        same: digest(cold.inputs).digest('hex') === digest(cached.inputs).digest('hex'),
      }));`;
    const folder = await mkdtemp(join(tmpdir(), 'partonfit-background-cache-'));
    const file = join(folder, 'prepare.mjs');
    await writeFile(file, script);
    const { stdout } = await promisify(execFile)(process.execPath, [
      file,
      CLOSURE,
      join(folder, 'cache'),
    ]);
    await rm(folder, { recursive: true });
    expect(JSON.parse(stdout)).toEqual({ cold: false, cached: true, onDisk: true, same: true });
  });
});
