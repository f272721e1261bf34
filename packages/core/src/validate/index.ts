export { isMapping } from './is-mapping.js';
export {
  oneOf,
  positiveInteger,
  type OneOfOptions,
  type PositiveIntegerOptions,
} from './validators.js';
