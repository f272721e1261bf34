// The install script: compiles the N-API addon with node-gyp against the system CBLAS. It never
// fails the install: whatever goes wrong is written to build/status.json (read when the package
// loads, so `initBackend('auto')` can say in one line why `native` was skipped) and the full
// output to build/build.log. Run `npm run build:addon -w @partonfit/backend-native` to retry
// with the output on the terminal.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cblasFlags } from './cblas-flags.js';

const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const buildDir = join(packageRoot, 'build');
const addonPath = join(buildDir, 'Release', 'partonfit_native.node');
const verbose = process.argv.includes('--verbose');
const log = [];

const BLAS_HINT =
  'apt-get install libopenblas-dev, or set PARTONFIT_CBLAS / PARTONFIT_CBLAS_LIBS, then npm rebuild @partonfit/backend-native';

function run(command, args, options = {}) {
  log.push(`$ ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, {
    cwd: packageRoot,
    encoding: 'utf8',
    stdio: verbose ? ['ignore', 'inherit', 'inherit'] : ['ignore', 'pipe', 'pipe'],
    ...options,
  });
  log.push(result.stdout ?? '', result.stderr ?? '');
  if (result.error) log.push(String(result.error));
  return result;
}

function finish(status) {
  mkdirSync(buildDir, { recursive: true });
  writeFileSync(join(buildDir, 'build.log'), log.join('\n'));
  writeFileSync(join(buildDir, 'status.json'), `${JSON.stringify(status, null, 2)}\n`);
  const line = status.built
    ? `@partonfit/backend-native: built against ${status.blas}`
    : `@partonfit/backend-native: ${status.reason} — the 'native' backend is unavailable, the install continues`;
  process.stderr.write(`${line}\n`);
  process.exit(0);
}

function compilerProbe(flags) {
  const compiler = process.env.CXX || 'c++';
  const version = run(compiler, ['--version']);
  if (version.error || version.status !== 0) {
    return `not built: no C++ compiler '${compiler}' (apt-get install g++ make python3)`;
  }
  const probeDir = mkdtempSync(join(tmpdir(), 'partonfit-cblas-'));
  try {
    const source = join(probeDir, 'probe.cc');
    const header = process.env.PARTONFIT_CBLAS_HEADER || 'cblas.h';
    writeFileSync(
      source,
      `#include <${header}>\nint main() { float a = 1, b = 2, c = 0;\n` +
        '  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 1, 1, 1, 1.0f, &a, 1, &b, 1, 0.0f, &c, 1);\n' +
        '  return c == 2.0f ? 0 : 1; }\n',
    );
    const words = (text) => text.split(/\s+/).filter((word) => word.length > 0);
    const compiled = run(compiler, [
      ...words(flags.cflags.replace(/-DPARTONFIT_CBLAS_HEADER=\S*/, '')),
      source,
      '-o',
      join(probeDir, 'probe'),
      ...words(flags.libs),
    ]);
    if (compiled.status !== 0) return `not built: no CBLAS found (${BLAS_HINT})`;
    const ran = run(join(probeDir, 'probe'), []);
    if (ran.status !== 0) return `not built: the CBLAS found does not run (${BLAS_HINT})`;
    return undefined;
  } finally {
    rmSync(probeDir, { recursive: true, force: true });
  }
}

/** node-gyp: the one npm runs scripts with, an installed one, or npm's bundled copy. */
function nodeGypCommand() {
  const candidates = [process.env.npm_config_node_gyp];
  try {
    candidates.push(createRequire(import.meta.url).resolve('node-gyp/bin/node-gyp.js'));
  } catch {
    // not installed as a package; try npm's bundled copy below
  }
  candidates.push(
    join(
      dirname(process.execPath),
      '..',
      'lib',
      'node_modules',
      'npm',
      'node_modules',
      'node-gyp',
      'bin',
      'node-gyp.js',
    ),
  );
  const script = candidates.find((candidate) => candidate && existsSync(candidate));
  return script === undefined ? undefined : [process.execPath, script];
}

/** Node's headers next to the running node (e.g. /usr/include/node), so nothing is downloaded. */
function nodedirArgs() {
  if (process.env.npm_config_nodedir) return [];
  const prefix = resolve(dirname(process.execPath), '..');
  return existsSync(join(prefix, 'include', 'node', 'node_api.h')) ? [`--nodedir=${prefix}`] : [];
}

if (process.env.PARTONFIT_NATIVE_SKIP) {
  finish({ built: false, reason: 'not built: PARTONFIT_NATIVE_SKIP was set at install' });
}
const flags = cblasFlags();
log.push(`CBLAS flags from ${flags.source}: cflags '${flags.cflags}', libs '${flags.libs}'`);
const probeFailure = compilerProbe(flags);
if (probeFailure !== undefined) finish({ built: false, reason: probeFailure });

const nodeGyp = nodeGypCommand();
if (nodeGyp === undefined) {
  finish({ built: false, reason: 'not built: node-gyp not found (npm install -g node-gyp)' });
}
const [node, script] = nodeGyp;
const built = run(node, [script, 'rebuild', ...nodedirArgs()]);
if (built.status !== 0 || !existsSync(addonPath)) {
  finish({
    built: false,
    reason:
      'not built: node-gyp failed (see node_modules/@partonfit/backend-native/build/build.log)',
  });
}
const loaded = run(process.execPath, ['-e', `require(${JSON.stringify(addonPath)}).info()`]);
if (loaded.status !== 0) {
  const firstError = (loaded.stderr ?? '').split('\n').find((line) => /error/i.test(line)) ?? '';
  finish({ built: false, reason: `built but cannot load: ${firstError.trim()}` });
}
finish({ built: true, blas: `${flags.libs} (${flags.source})` });
