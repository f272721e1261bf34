export { PartonfitError, type PartonfitErrorOptions } from './partonfit-error.js';
export { RuncardError, type RuncardIssue } from './runcard-error.js';
export { BackendUnavailableError } from './backend-unavailable-error.js';
export { InputFileError } from './input-file-error.js';
export { UnsupportedInputError } from './unsupported-input-error.js';
export { ShapeError } from './shape-error.js';
export { LinearAlgebraError } from './linear-algebra-error.js';
export { InvalidArgumentError } from './invalid-argument-error.js';
export { FileSystemError } from './file-system-error.js';
