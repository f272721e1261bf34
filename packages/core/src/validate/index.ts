export {
  oneOf,
  positiveInteger,
  type OneOfOptions,
  type PositiveIntegerOptions,
} from './validators.js';
