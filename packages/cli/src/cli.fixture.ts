import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { partonfitCommand } from './partonfit-command.js';
import { runCli } from './run-cli.js';

/** Runs `partonfit <args>` and captures its exit code, standard output and standard error. */
export async function runCaptured(...args: string[]) {
  let out = '';
  let error = '';
  const code = await runCli(args, {
    out: (text) => (out += text),
    error: (text) => (error += text),
  });
  return { code, out, error };
}

/**
 * Runs `partonfit fit <runcard> --replicas <replicas> --backend cpu --output <output> <extra>`,
 * the way the CLI tests fit the closure runcard.
 */
export function fitOnCpu(runcard: string, replicas: string, output: string, ...extra: string[]) {
  return runCaptured(
    'fit',
    runcard,
    '--replicas',
    replicas,
    '--backend',
    'cpu',
    '--output',
    output,
    ...extra,
  );
}

/** The built `partonfit <args>` in a process of its own, standard error piped. */
export function startPartonfit(args: readonly string[]): ChildProcessByStdio<null, null, Readable> {
  const [node = process.execPath, ...main] = partonfitCommand();
  return spawn(node, [...main, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
}

/** The exit code and standard error of a process of {@link startPartonfit}, once it ended. */
export function processEnd(
  child: ChildProcessByStdio<null, null, Readable>,
): Promise<{ code: number | null; error: string }> {
  let error = '';
  child.stderr.on('data', (chunk: Buffer) => (error += chunk.toString()));
  return new Promise((resolve) => {
    child.on('close', (code) => {
      resolve({ code, error });
    });
  });
}
