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
