import type { PreprocessingFlavour } from './exponents.js';

/**
 * The EVOL-basis preprocessing ranges of upstream's `n3fit/runcards/examples/nnpdf40-like.yml`
 * (`fitting.basis`), all non-trainable as in NNPDF4.0.
 */
export const NNPDF40_BASIS: readonly PreprocessingFlavour[] = [
  { fl: 'sng', trainable: false, smallx: [1.089, 1.119], largex: [1.475, 3.119] },
  { fl: 'g', trainable: false, smallx: [0.7504, 1.098], largex: [2.814, 5.669] },
  { fl: 'v', trainable: false, smallx: [0.479, 0.7384], largex: [1.549, 3.532] },
  { fl: 'v3', trainable: false, smallx: [0.1073, 0.4397], largex: [1.733, 3.458] },
  { fl: 'v8', trainable: false, smallx: [0.5507, 0.7837], largex: [1.516, 3.356] },
  { fl: 't3', trainable: false, smallx: [-0.4506, 0.9305], largex: [1.745, 3.424] },
  { fl: 't8', trainable: false, smallx: [0.5877, 0.8687], largex: [1.522, 3.515] },
  { fl: 't15', trainable: false, smallx: [1.089, 1.141], largex: [1.492, 3.222] },
];
