#!/usr/bin/env node
// Launcher for the `partonfit` command: runs the built CLI (npm run build creates dist/).
import { existsSync } from 'node:fs';

const cli = new URL('../dist/main.js', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write(
    'partonfit: the @partonfit/cli package is not built yet; run `npm run build` first.\n',
  );
  process.exit(1);
}
await import(cli.href);
