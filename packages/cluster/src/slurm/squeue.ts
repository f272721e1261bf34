import { runSlurmCommand } from './run-slurm-command.js';

/** A task of a job array as SLURM's queue shows it: `PENDING`, `RUNNING`, `REQUEUED`, … */
export type QueueState = string;

/**
 * The states of the array tasks of `jobId` still in SLURM's queue, by task index (`squeue -r`:
 * pending tasks listed one by one). Tasks that have ended are not in the queue.
 *
 * @throws SchedulerError when `squeue` cannot be run
 */
export async function queuedArrayTasks(jobId: string): Promise<Map<number, QueueState>> {
  const text = await runSlurmCommand('squeue', ['-h', '-r', '-j', jobId, '-o', '%K %T']);
  const states = new Map<number, QueueState>();
  for (const line of text.split('\n')) {
    const match = /^\s*(\d+)\s+(\S+)/.exec(line);
    if (match !== null) states.set(Number(match[1]), match[2]);
  }
  return states;
}
