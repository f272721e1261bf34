export { selectSameShape, spreadReplicaMask } from './replica-mask.js';
