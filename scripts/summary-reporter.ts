import type { Reporter, TestModule } from 'vitest/node';

/**
 * Closes a test run with one plain line, `tests: N passed, N failed, N skipped`, so that CI
 * logs state the count of tests run without parsing vitest's formatted summary. Skipped tests
 * (for example those needing `../shared/data` when it is absent) are counted separately and
 * never as passed.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: readonly TestModule[]): void {
    const counts = { passed: 0, failed: 0, skipped: 0, pending: 0 };
    for (const testModule of testModules) {
      const failedBefore = counts.failed;
      for (const test of testModule.children.allTests()) {
        counts[test.result().state] += 1;
      }
      // A module that failed to load has no failed test of its own: count it as one failure.
      if (testModule.state() === 'failed' && counts.failed === failedBefore) counts.failed += 1;
    }
    process.stdout.write(
      `\ntests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped + counts.pending} skipped\n`,
    );
  }
}
