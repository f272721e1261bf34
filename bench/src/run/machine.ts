import { execFileSync } from 'node:child_process';
import { cpus, loadavg, release, totalmem } from 'node:os';
import { version_core } from '@tensorflow/tfjs-core';
import type { MachineResult } from '../report/result-schema.js';

/** The checkout's short commit hash, or null outside a git checkout. */
function gitCommit(): string | null {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return null;
  }
}

/** The 1-, 5- and 15-minute load averages, rounded to 0.01. */
export function loadAverage(): number[] {
  return loadavg().map((load) => Math.round(100 * load) / 100);
}

/** The machine and software, with the load average at `start` (the end is filled in later). */
export function machineInfo(start: number[]): MachineResult {
  const processors = cpus();
  return {
    cpuModel: processors.at(0)?.model.trim() ?? 'unknown',
    cores: Math.max(processors.length, 1),
    memoryGb: Math.round(totalmem() / 2 ** 30),
    platform: process.platform,
    arch: process.arch,
    osRelease: release(),
    node: process.version,
    tfjs: version_core,
    commit: gitCommit(),
    loadAverage: { start, end: start },
  };
}
