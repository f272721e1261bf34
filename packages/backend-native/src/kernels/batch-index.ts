import { sizeOf } from './native-kernel.js';

/**
 * For every entry of a broadcast batch, the flat index of the operand's matrix that entry
 * reads: the operand's batch dimensions are aligned on the right with `outBatch` and its size-1
 * dimensions broadcast (NumPy rules), so an operand `(2, 1)` under `outBatch` `(2, 3)` gives
 * `[0, 0, 0, 1, 1, 1]`.
 *
 * @param operandBatch - the operand's batch dimensions (its shape without the matrix axes)
 * @param outBatch - the broadcast batch dimensions of the result
 * @returns one index per entry of `outBatch`, `(batch)`
 */
export function batchIndex(
  operandBatch: readonly number[],
  outBatch: readonly number[],
): Int32Array {
  const rank = outBatch.length;
  const offset = rank - operandBatch.length;
  const strides = new Array<number>(rank).fill(0);
  let stride = 1;
  for (let d = rank - 1; d >= offset; d--) {
    const dim = operandBatch[d - offset] ?? 1;
    strides[d] = dim === 1 ? 0 : stride;
    stride *= dim;
  }
  const index = new Int32Array(sizeOf(outBatch));
  const position = new Array<number>(rank).fill(0);
  let flat = 0;
  for (let entry = 0; entry < index.length; entry++) {
    index[entry] = flat;
    for (let d = rank - 1; d >= 0; d--) {
      flat += strides[d] ?? 0;
      position[d] = (position[d] ?? 0) + 1;
      if ((position[d] ?? 0) < (outBatch[d] ?? 1)) break;
      flat -= (position[d] ?? 0) * (strides[d] ?? 0);
      position[d] = 0;
    }
  }
  return index;
}

/**
 * {@link batchIndex}, or null when the operand needs no index: it holds one matrix (shared by
 * every entry) or one per entry in order.
 */
export function operandIndex(
  operandBatch: readonly number[],
  outBatch: readonly number[],
): Int32Array | null {
  const matrices = sizeOf(operandBatch);
  if (matrices === 1 || matrices === sizeOf(outBatch)) return null;
  return batchIndex(operandBatch, outBatch);
}
