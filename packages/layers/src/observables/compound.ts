import * as tf from '@tensorflow/tfjs-core';
import { InvalidArgumentError, OPERAND_COUNTS, type ObservableOperation } from '@partonfit/core';

/**
 * Combines the operands of a compound observable (upstream validphys's `OP`):
 * NULL a; ADD a + b; RATIO a / b; ASY (a − b)/(a + b); SMN (a + b)/(c + d);
 * COM (a₁ + … + a₁₀)/(b₁ + … + b₁₀); SMT a₁ + … + a₁₀.
 *
 * @param operands - each `(replicas, data)` or `(replicas, 1)` (broadcast, e.g. a normalising
 *   total cross section)
 * @returns `(replicas, data)`
 */
export function combineOperands(
  operation: ObservableOperation,
  operands: readonly tf.Tensor2D[],
): tf.Tensor2D {
  if (operands.length !== OPERAND_COUNTS[operation]) {
    throw new InvalidArgumentError({
      argument: 'operands',
      problem: `operation ${operation} takes ${OPERAND_COUNTS[operation]} operand(s), got ${operands.length}`,
    });
  }
  const at = (index: number): tf.Tensor2D => operands[index];
  const total = (from: number, to: number): tf.Tensor2D =>
    operands.slice(from, to).reduce((sum, operand) => tf.add(sum, operand));
  switch (operation) {
    case 'NULL':
      return at(0);
    case 'ADD':
      return tf.add(at(0), at(1));
    case 'RATIO':
      return tf.div(at(0), at(1));
    case 'ASY':
      return tf.div(tf.sub(at(0), at(1)), tf.add(at(0), at(1)));
    case 'SMN':
      return tf.div(total(0, 2), total(2, 4));
    case 'COM':
      return tf.div(total(0, 10), total(10, 20));
    case 'SMT':
      return total(0, 10);
  }
}
