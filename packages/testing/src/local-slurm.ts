import { execFile, execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { freePort } from './free-port.js';

/** The SLURM and munge programs a local cluster needs (Debian: slurmctld slurmd slurm-client munge). */
const PROGRAMS = ['munged', 'slurmctld', 'slurmd', 'sbatch', 'squeue', 'scontrol', 'sinfo'];

function onPath(program: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Why a one-node SLURM cluster cannot be started here (not root, programs missing), or
 * undefined when it can. For `describe.skipIf`, with the reason printed.
 */
export function localSlurmUnavailable(): string | undefined {
  if (process.getuid?.() !== 0)
    return 'the local SLURM cluster needs root (its daemons run as root)';
  const missing = PROGRAMS.filter((program) => !onPath(program));
  if (missing.length > 0) {
    return `${missing.join(', ')} not installed (Debian: apt-get install slurmctld slurmd slurm-client munge)`;
  }
  return undefined;
}

function run(program: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(program, [...args], { env, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error === null) resolve(stdout);
      else reject(new Error(`${program} ${args.join(' ')}: ${stderr || error.message}`));
    });
  });
}

/** A running one-node SLURM cluster of this machine, all of it in a temporary folder. */
export interface LocalSlurm {
  /** The temporary folder: configuration, state, logs, PID files. */
  readonly folder: string;
  /** The environment its clients need (`SLURM_CONF`). */
  readonly env: { readonly SLURM_CONF: string };
  /** Stops munged, slurmctld and slurmd by their PIDs and removes the folder. */
  readonly stop: () => Promise<void>;
}

async function pidOf(file: string): Promise<number | undefined> {
  try {
    return Number((await readFile(file, 'utf8')).trim());
  } catch {
    return undefined;
  }
}

async function waitFor(check: () => Promise<boolean>, what: string, seconds = 30): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the local SLURM cluster: no ${what} within ${seconds} s`);
}

/**
 * Starts a real one-node SLURM cluster on localhost (munged, slurmctld, slurmd) configured in a
 * temporary folder (`SLURM_CONF`, munge key and socket, free ports), nothing under `/etc`: the
 * facts of `local-slurm.md` in the project's shared reference. The caller stops it with `stop()`.
 *
 * @throws Error when a daemon does not come up (its log's path is in the message)
 */
export async function startLocalSlurm(): Promise<LocalSlurm> {
  const folder = await mkdtemp(join(tmpdir(), 'pf-slurm-'));
  await chmod(folder, 0o755);
  for (const sub of ['state', 'spool']) await mkdir(join(folder, sub));
  const key = join(folder, 'munge.key');
  await writeFile(key, randomBytes(1024), { mode: 0o400 });
  const socket = join(folder, 'munge.socket');
  const file = (name: string) => join(folder, name);
  const [controllerPort, nodePort] = [await freePort(), await freePort()];
  const host = hostname();
  const conf = file('slurm.conf');
  await writeFile(
    conf,
    [
      'ClusterName=partonfit',
      `SlurmctldHost=${host}`,
      'AuthType=auth/munge',
      'CredType=cred/munge',
      `AuthInfo=socket=${socket}`,
      'ProctrackType=proctrack/linuxproc',
      'TaskPlugin=task/none',
      'SlurmUser=root',
      'SlurmdUser=root',
      `SlurmctldPort=${controllerPort}`,
      `SlurmdPort=${nodePort}`,
      `SlurmctldPidFile=${file('slurmctld.pid')}`,
      `SlurmdPidFile=${file('slurmd.pid')}`,
      `StateSaveLocation=${file('state')}`,
      `SlurmdSpoolDir=${file('spool')}`,
      `SlurmctldLogFile=${file('slurmctld.log')}`,
      `SlurmdLogFile=${file('slurmd.log')}`,
      'SchedulerType=sched/backfill',
      'SchedulerParameters=sched_interval=1',
      'SelectType=select/cons_tres',
      'SelectTypeParameters=CR_Core',
      'ReturnToService=2',
      'MinJobAge=3600',
      'KillWait=30',
      'JobAcctGatherType=jobacct_gather/none',
      'MpiDefault=none',
      `NodeName=${host} CPUs=2 RealMemory=2000 State=UNKNOWN`,
      `PartitionName=debug Nodes=${host} Default=YES MaxTime=INFINITE State=UP`,
      '',
    ].join('\n'),
  );
  const env = { ...process.env, SLURM_CONF: conf };
  const pids = ['munged.pid', 'slurmctld.pid', 'slurmd.pid'].map(file);
  const stop = async () => {
    // Jobs first (their processes are the daemons' children), then the daemons, newest first.
    await run('scancel', ['--user', 'root'], env).catch(() => '');
    for (const pidFile of [...pids].reverse()) {
      const pid = await pidOf(pidFile);
      if (pid === undefined || !Number.isInteger(pid) || pid <= 0) continue;
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        continue;
      }
      await waitFor(
        () => {
          try {
            process.kill(pid, 0);
            return Promise.resolve(false);
          } catch {
            return Promise.resolve(true);
          }
        },
        `${pidFile} (${pid}) to stop`,
        15,
      ).catch(() => {
        process.kill(pid, 'SIGKILL');
      });
    }
    await rm(folder, { recursive: true, force: true });
  };
  try {
    await run(
      'munged',
      [
        '--force',
        `--key-file=${key}`,
        `--socket=${socket}`,
        `--pid-file=${pids[0]}`,
        `--log-file=${file('munged.log')}`,
        `--seed-file=${file('munged.seed')}`,
      ],
      env,
    );
    await run('slurmctld', [], env);
    await run('slurmd', [], env);
    await waitFor(
      async () => (await run('sinfo', ['-h', '-o', '%t'], env)).trim() === 'idle',
      `idle node in sinfo (logs ${file('slurmctld.log')}, ${file('slurmd.log')})`,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { folder, env: { SLURM_CONF: conf }, stop };
}
