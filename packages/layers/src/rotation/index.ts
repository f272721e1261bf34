/**
 * Flavour rotations: from the fitted flavours to the 14-flavour FK evolution basis.
 *
 * @packageDocumentation
 */
export { FlavourRotation, flavourRotation, type FlavourRotationArgs } from './flavour-rotation.js';
