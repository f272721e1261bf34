import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { buildEvolutionOperator, type EvolutionOperator } from './evolution-operator.js';
import { toyTheoryCard, toyTheoryCardText, X_GRID } from './toy-proton.fixture.js';

const DIST = new URL('../dist/', import.meta.url);
const Q_GRID = [1.4, 3, 4.92, 4.92, 50];
const OVERRIDES = '';

/** The sha256 of an operator's block structure and bytes. */
function digest(operator: EvolutionOperator): string {
  const hash = createHash('sha256');
  for (const blocks of operator.blocks) {
    for (const { output, input, matrix } of blocks) {
      hash.update(`${output}<-${input}`);
      hash.update(new Uint8Array(matrix.buffer, matrix.byteOffset, matrix.byteLength));
    }
  }
  return hash.digest('hex');
}

describe('buildEvolutionOperatorInParallel in worker threads (the built package)', () => {
  it('should build in two workers the operator this thread builds alone', async () => {
    const worker = new URL('operator-part-worker.js', DIST);
    expect(existsSync(worker), `${fileURLToPath(worker)}: build the package first`).toBe(true);
    // The child reads the toy card and grids from its environment and prints the digest of its operator.
    const script = `
      import { createHash } from 'node:crypto';
      import { buildEvolutionOperatorInParallel, parseTheoryCard } from ${JSON.stringify(new URL('index.js', DIST).href)};
      const { card, xGrid, qGrid } = JSON.parse(process.env.TOY_OPERATOR);
      const operator = await buildEvolutionOperatorInParallel(
        parseTheoryCard(card, 'toy-theory.yaml'), { xGrid, qGrid });
      const hash = createHash('sha256');
      for (const blocks of operator.blocks) for (const { output, input, matrix } of blocks) {
        hash.update(output + '<-' + input);
        hash.update(new Uint8Array(matrix.buffer, matrix.byteOffset, matrix.byteLength));
      }
      console.log(hash.digest('hex'));`;
    const input = JSON.stringify({
      card: toyTheoryCardText(OVERRIDES),
      xGrid: [...X_GRID],
      qGrid: Q_GRID,
    });
    const folder = await mkdtemp(join(tmpdir(), 'partonfit-parallel-operator-'));
    const file = join(folder, 'build-operator.mjs');
    await writeFile(file, script);
    const { stdout } = await promisify(execFile)(process.execPath, [file], {
      env: { ...process.env, TOY_OPERATOR: input },
    });
    await rm(folder, { recursive: true });
    const operator = buildEvolutionOperator(toyTheoryCard(OVERRIDES), {
      xGrid: X_GRID,
      qGrid: Q_GRID,
    });
    expect(stdout.trim()).toBe(digest(operator));
  });
});
