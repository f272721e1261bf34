export { npyAsFloat64, npyAsIntegers } from './convert.js';
export { loadNpy, loadNpz } from './load.js';
export type { NpyArray, NpyData, NpyDtype, NpySource } from './npy-array.js';
export { parseNpy } from './parse-npy.js';
export { parseNpz } from './parse-npz.js';
