export { formatReplicaSelection, parseReplicaSelection } from './replica-selection.js';
