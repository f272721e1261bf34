/** A compute backend of TensorFlow.js that partonfit can run on. */
export type BackendName = 'tensorflow' | 'native' | 'wasm' | 'cpu';

/** What a user may ask for: a backend by name, or `auto` for the fastest one installed. */
export type BackendRequest = 'auto' | BackendName;

/** The backend requests accepted on the command line and in code. */
export const BACKEND_REQUESTS: readonly BackendRequest[] = [
  'auto',
  'tensorflow',
  'native',
  'wasm',
  'cpu',
];

/** The version of TensorFlow.js the optional native packages must match. */
export const TFJS_VERSION = '4.22.0';

/** One package that provides a backend, tried in order of preference. */
export interface BackendCandidate {
  readonly backend: BackendName;
  /** The npm package that registers the backend when imported. */
  readonly packageName: string;
  /** What the package runs on, for reports. */
  readonly runsOn: string;
  /** The command that installs the package. */
  readonly installCommand: string;
  /** What the install and the package need beyond npm, if anything. */
  readonly requirements?: string;
}

/**
 * Backend packages in order of preference: the TensorFlow C library on a CUDA GPU, then on the
 * CPU (both optional peer dependencies whose install downloads libtensorflow 2.9.1 from Google's
 * storage), then partonfit's own C++ addon over the system BLAS or its own GEMM kernels
 * (compiled at install, skipped when the compiler was missing), then WebAssembly with SIMD, then
 * plain JavaScript.
 */
export const BACKEND_CANDIDATES: readonly BackendCandidate[] = [
  {
    backend: 'tensorflow',
    packageName: '@tensorflow/tfjs-node-gpu',
    runsOn: 'TensorFlow C library, NVIDIA GPU (CUDA)',
    installCommand: `npm install @tensorflow/tfjs-node-gpu@${TFJS_VERSION}`,
    requirements:
      'Linux x86-64 (or Windows) with an NVIDIA driver (>450.x), CUDA 11.2 and cuDNN 8.1; ' +
      'its install script downloads libtensorflow-gpu 2.9.1 (about 400 MB) from Google, so it ' +
      'needs internet access at install time, or TFJS_NODE_BASE_URI pointing at a mirror',
  },
  {
    backend: 'tensorflow',
    packageName: '@tensorflow/tfjs-node',
    runsOn: 'TensorFlow C library, CPU',
    installCommand: `npm install @tensorflow/tfjs-node@${TFJS_VERSION}`,
    requirements:
      'its install script downloads libtensorflow 2.9.1 from Google, so it needs internet ' +
      'access at install time, or TFJS_NODE_BASE_URI pointing at a mirror',
  },
  {
    backend: 'native',
    packageName: '@partonfit/backend-native',
    runsOn: 'C++ addon over the system CBLAS or its own GEMM kernels, all cores',
    installCommand: 'npm install @partonfit/backend-native',
    requirements:
      'compiled at install with node-gyp: a C++ compiler, make and python3, and optionally a ' +
      'CBLAS (Debian/Ubuntu: apt-get install g++ make python3 libopenblas-dev, then npm ' +
      'rebuild @partonfit/backend-native)',
  },
  {
    backend: 'wasm',
    packageName: '@tensorflow/tfjs-backend-wasm',
    runsOn: 'WebAssembly (XNNPACK, SIMD), one thread in Node',
    installCommand: `npm install @tensorflow/tfjs-backend-wasm@${TFJS_VERSION}`,
  },
  {
    backend: 'cpu',
    packageName: '@tensorflow/tfjs-backend-cpu',
    runsOn: 'plain JavaScript',
    installCommand: `npm install @tensorflow/tfjs-backend-cpu@${TFJS_VERSION}`,
  },
];
