export { gaussLegendre, type QuadratureRule } from './gauss-legendre.js';
