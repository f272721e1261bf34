import { execFile } from 'node:child_process';
import { SchedulerError } from './scheduler-error.js';

/**
 * Runs a SLURM client command and resolves to its standard output.
 *
 * @throws SchedulerError naming the command: not installed ("is SLURM installed?"), or its exit
 *   status and standard error when it fails
 */
export function runSlurmCommand(command: string, args: readonly string[]): Promise<string> {
  const line = [command, ...args].join(' ');
  return new Promise((resolve, reject) => {
    execFile(command, [...args], { encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error === null) {
        resolve(stdout);
        return;
      }
      const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
      reject(
        new SchedulerError({
          command: line,
          problem: missing
            ? `${command} not found: is SLURM installed on this machine? (use --dry-run to write the scripts only)`
            : `failed (${String(error.code ?? error.signal)}): ${stderr.trim() || stdout.trim()}`,
          cause: error,
        }),
      );
    });
  });
}
