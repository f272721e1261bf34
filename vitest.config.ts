import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { integrationProject } from './vitest.shared.js';

export default defineConfig({
  test: {
    projects: ['packages/*/vitest.config.ts', 'bench', 'scripts/doctest', integrationProject()],
    reporters: ['default', './scripts/summary-reporter.ts'],
    globalSetup: ['./scripts/test-temporary-folder.ts'],
    // vitest's default (one worker fewer than the cores) leaves one of two cores idle while a
    // test file imports its modules or waits on a program it started.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
