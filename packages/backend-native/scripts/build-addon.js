// The install script: compiles the N-API addon with node-gyp against the system CBLAS, or, when
// none is found (or PARTONFIT_CBLAS=none), with the addon's own GEMM kernels. It never fails the
// install: whatever goes wrong is written to build/status.json (read when the package loads, so
// `initBackend('auto')` can say in one line why `native` was skipped) and the full output to
// build/build.log; a successful build records there which BLAS and vector path the addon runs.
// Run `npm run build:addon -w @partonfit/backend-native` to retry with the output on the terminal.
//
// `--out <folder>` builds a variant of the addon into <folder>/build/Release/partonfit_native.node
// (with its own status.json and build.log) and leaves the package's build alone; load it with
// PARTONFIT_NATIVE_ADDON=<that file>. E.g. the AVX2-only build without a CBLAS:
//   PARTONFIT_CBLAS=none PARTONFIT_NATIVE_ISA=avx2 node scripts/build-addon.js --out /tmp/variant
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NATIVE_ISAS, NO_CBLAS, cblasFlags, nativeIsa } from './cblas-flags.js';

const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outIndex = process.argv.indexOf('--out');
const outFolder = outIndex === -1 ? undefined : process.argv[outIndex + 1];
if (outIndex !== -1 && (outFolder === undefined || outFolder.startsWith('--'))) {
  process.stderr.write('build-addon.js: --out needs a folder\n');
  process.exit(2);
}
/** Where node-gyp runs: the package, or the staged copy of its build files in --out. */
const buildRoot = outFolder === undefined ? packageRoot : resolve(outFolder);
const buildDir = join(buildRoot, 'build');
mkdirSync(buildRoot, { recursive: true });
const addonPath = join(buildDir, 'Release', 'partonfit_native.node');
const verbose = process.argv.includes('--verbose');
const log = [];

const BLAS_HINT =
  'apt-get install libopenblas-dev, or set PARTONFIT_CBLAS / PARTONFIT_CBLAS_LIBS, then npm rebuild @partonfit/backend-native';

function run(command, args, options = {}) {
  log.push(`$ ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, {
    cwd: buildRoot,
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
    ? `@partonfit/backend-native: built ${addonPath} with BLAS ${status.blas}, ${status.vectorPath} kernels${
        status.noCblas === undefined ? '' : ` (${status.noCblas})`
      }`
    : `@partonfit/backend-native: ${status.reason} — the 'native' backend is unavailable, the install continues`;
  process.stderr.write(`${line}\n`);
  process.exit(0);
}

/** Why the C++ compiler cannot be used, or undefined when it can. */
function compilerFailure() {
  const compiler = process.env.CXX || 'c++';
  const version = run(compiler, ['--version']);
  if (version.error || version.status !== 0) {
    return `not built: no C++ compiler '${compiler}' (apt-get install g++ make python3)`;
  }
  return undefined;
}

/** Why the CBLAS of `flags` cannot be used, or undefined when it can. */
function cblasFailure(flags) {
  const compiler = process.env.CXX || 'c++';
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
    if (compiled.status !== 0) return `no CBLAS found: ${BLAS_HINT}`;
    const ran = run(join(probeDir, 'probe'), []);
    if (ran.status !== 0) return `the CBLAS found does not run: ${BLAS_HINT}`;
    return undefined;
  } finally {
    rmSync(probeDir, { recursive: true, force: true });
  }
}

/**
 * The build files of the package in `buildRoot` for an --out build: binding.gyp copied, the
 * sources, scripts and node-addon-api linked, so that node-gyp's paths resolve as in the package.
 */
function stageBuildFiles() {
  mkdirSync(join(buildRoot, 'node_modules'), { recursive: true });
  copyFileSync(join(packageRoot, 'binding.gyp'), join(buildRoot, 'binding.gyp'));
  const nodeAddonApi = dirname(
    createRequire(import.meta.url).resolve('node-addon-api/package.json'),
  );
  const links = [
    [join(packageRoot, 'native'), join(buildRoot, 'native')],
    [join(packageRoot, 'scripts'), join(buildRoot, 'scripts')],
    [nodeAddonApi, join(buildRoot, 'node_modules', 'node-addon-api')],
  ];
  for (const [target, link] of links) {
    rmSync(link, { recursive: true, force: true });
    symlinkSync(target, link, 'dir');
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
const isa = nativeIsa();
if (isa === undefined) {
  finish({
    built: false,
    reason: `not built: PARTONFIT_NATIVE_ISA=${process.env.PARTONFIT_NATIVE_ISA} is not one of ${Object.keys(NATIVE_ISAS).join(', ')}`,
  });
}
const noCompiler = compilerFailure();
if (noCompiler !== undefined) finish({ built: false, reason: noCompiler });

const env = { ...process.env };
let flags = cblasFlags(env);
log.push(`CBLAS flags from ${flags.source}: cflags '${flags.cflags}', libs '${flags.libs}'`);
const noCblas = flags.own ? undefined : cblasFailure(flags);
if (noCblas !== undefined) {
  // Without a usable CBLAS the addon is built with its own GEMM and GEMV kernels.
  env.PARTONFIT_CBLAS = NO_CBLAS;
  flags = cblasFlags(env);
  log.push(`${noCblas}; building with partonfit's own kernels`);
}

const nodeGyp = nodeGypCommand();
if (nodeGyp === undefined) {
  finish({ built: false, reason: 'not built: node-gyp not found (npm install -g node-gyp)' });
}
if (buildRoot !== packageRoot) stageBuildFiles();
const [node, script] = nodeGyp;
// every core compiles a translation unit of its own: the install takes half the time on two cores
const built = run(node, [script, 'rebuild', '--jobs', 'max', ...nodedirArgs()], { env });
if (built.status !== 0 || !existsSync(addonPath)) {
  finish({
    built: false,
    reason: `not built: node-gyp failed (see ${join(buildDir, 'build.log')})`,
  });
}
// The probe's output is read here, so it is piped even with --verbose.
const loaded = run(
  process.execPath,
  ['-p', `JSON.stringify(require(${JSON.stringify(addonPath)}).info())`],
  { stdio: ['ignore', 'pipe', 'pipe'] },
);
if (loaded.status !== 0) {
  const firstError = (loaded.stderr ?? '').split('\n').find((line) => /error/i.test(line)) ?? '';
  finish({ built: false, reason: `built but cannot load: ${firstError.trim()}` });
}
const info = JSON.parse(loaded.stdout);
finish({
  built: true,
  blas: info.blas,
  vectorPath: info.vectorPath,
  isa,
  flags: flags.own ? flags.source : `${flags.libs} (${flags.source})`,
  ...(noCblas === undefined ? {} : { noCblas }),
});
