import { runBench } from './cli/run-bench.js';

process.exitCode = await runBench(process.argv.slice(2));
