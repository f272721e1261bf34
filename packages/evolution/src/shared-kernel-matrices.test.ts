import { describe, expect, it } from 'vitest';
import { logLagrangeBasis } from './interpolation.js';
import { kernelMatrixPlan, localKernelMatrices } from './kernel-matrices.js';
import {
  abandonSharedKernels,
  sharedKernelMatrices,
  sharedKernelMemory,
} from './shared-kernel-matrices.js';
import { X_GRID } from './toy-proton.fixture.js';

const basis = logLagrangeBasis(
  X_GRID.filter((_, i) => i % 4 === 0 || i === X_GRID.length - 1),
  4,
);
const n = basis.xGrid.length;
const plan = kernelMatrixPlan(2, [4, 5], true);

describe('sharedKernelMatrices', () => {
  it('should give the matrices computed on one thread, bit for bit, from two shares', () => {
    const memory = sharedKernelMemory(plan.kernels.length, n);
    // Each share computes its kernels when it is made; the second one's are there for the first.
    const first = sharedKernelMatrices(plan, basis, memory, 0, 2);
    sharedKernelMatrices(plan, basis, memory, 1, 2);
    const local = localKernelMatrices(plan, basis);
    for (const nf of [4, 5]) {
      first.splitting(nf).forEach((matrices, k) => {
        const expected = local.splitting(nf)[k];
        expect(matrices.singlet).toEqual(expected.singlet);
        expect(matrices.nsPlus).toEqual(expected.nsPlus);
        expect(matrices.nsMinus).toEqual(expected.nsMinus);
        expect(matrices.nsValence).toEqual(expected.nsValence);
      });
    }
    expect(first.matching()).toEqual(local.matching());
    // The NNLO kernels are not all the LO ones: the matrices compared are distinct.
    expect(first.splitting(5)[2].nsPlus).not.toEqual(first.splitting(5)[0].nsPlus);
  });

  it('should stop waiting for the other share once the computation is abandoned', () => {
    const memory = sharedKernelMemory(plan.kernels.length, n);
    const alone = sharedKernelMatrices(plan, basis, memory, 0, 2);
    abandonSharedKernels(memory);
    expect(() => alone.splitting(4)).toThrow(/the threads computing the kernel matrices/);
  });
});
