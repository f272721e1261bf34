export { spreadReplicaMask } from './replica-mask.js';
