export { asNdarray, matrixAsNdarray, npyAsNdarray } from './as-ndarray.js';
