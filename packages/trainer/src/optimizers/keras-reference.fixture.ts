import type { OptimizerName } from '@partonfit/core';

/** Settings of the float64 reference; the hyperparameters are Keras 3's defaults, spelt out. */
export interface ReferenceSettings {
  readonly name: OptimizerName;
  readonly learningRate: number;
  readonly clipnorm: number | undefined;
  readonly momentum?: number;
  readonly nesterov?: boolean;
  readonly centered?: boolean;
}

/** One element's update: reads and writes its statistics, returns the new weight. */
type ElementUpdate = (
  weight: number,
  gradient: number,
  slots: Float64Array[],
  at: number,
) => number;

/**
 * Keras 3's optimisers as plain float64 loops over replica-first arrays, element by element, for
 * comparison with the tensor implementation. Written from the Keras 3 formulas
 * (`keras/src/optimizers/*.py`, `BaseOptimizer._clip_by_norm`), each replica's slice of each
 * variable clipped on its own.
 */
export class KerasReference {
  /** Statistics by Keras name, one array per variable. */
  readonly slots: Record<string, Float64Array[]> = {};
  private step = 0;
  private nadamProduct = 1;

  constructor(
    private readonly settings: ReferenceSettings,
    private readonly shapes: readonly (readonly number[])[],
  ) {
    for (const [name, initial] of this.slotSpec()) {
      this.slots[name] = shapes.map((shape) =>
        new Float64Array(shape.reduce((a, b) => a * b, 1)).fill(initial),
      );
    }
  }

  /** Applies one update to `weights` (in place) from `gradients`, both one array per variable. */
  update(weights: Float64Array[], gradients: readonly Float64Array[]): void {
    this.step += 1;
    const elementUpdate = this.elementUpdate(this.step);
    const names = this.slotSpec().map(([name]) => name);
    weights.forEach((weight, index) => {
      const replicas = this.shapes[index][0];
      const gradient = this.clip(gradients[index], replicas);
      const slots = names.map((name) => this.slots[name][index]);
      for (let at = 0; at < weight.length; at++) {
        weight[at] = elementUpdate(weight[at], gradient[at], slots, at);
      }
    });
  }

  private clip(gradient: Float64Array, replicas: number): Float64Array {
    const { clipnorm } = this.settings;
    if (clipnorm === undefined) return gradient;
    const per = gradient.length / replicas;
    const clipped = new Float64Array(gradient.length);
    for (let replica = 0; replica < replicas; replica++) {
      let squares = 0;
      for (let i = 0; i < per; i++) squares += gradient[replica * per + i] ** 2;
      const scale = clipnorm / Math.max(Math.sqrt(squares), clipnorm);
      for (let i = 0; i < per; i++) {
        clipped[replica * per + i] = gradient[replica * per + i] * scale;
      }
    }
    return clipped;
  }

  private slotSpec(): [string, number][] {
    const { name, momentum = 0, centered = false } = this.settings;
    switch (name) {
      case 'SGD':
        return momentum > 0 ? [['momentum', 0]] : [];
      case 'RMSprop':
        return [
          ['velocity', 0],
          ...(momentum > 0 ? [['momentum', 0] as [string, number]] : []),
          ...(centered ? [['average_gradient', 0] as [string, number]] : []),
        ];
      case 'Adam':
      case 'Nadam':
        return [
          ['momentum', 0],
          ['velocity', 0],
        ];
      case 'Amsgrad':
        return [
          ['momentum', 0],
          ['velocity', 0],
          ['velocity_hat', 0],
        ];
      case 'Adamax':
        return [
          ['momentum', 0],
          ['norm', 0],
        ];
      case 'Adagrad':
        return [['accumulator', 0.1]];
      case 'Adadelta':
        return [
          ['accumulated_grad', 0],
          ['accumulated_delta_var', 0],
        ];
    }
  }

  private elementUpdate(t: number): ElementUpdate {
    const {
      name,
      learningRate: lr,
      momentum = 0,
      nesterov = false,
      centered = false,
    } = this.settings;
    const epsilon = 1e-7;
    const beta1 = 0.9;
    const beta2 = 0.999;
    switch (name) {
      case 'SGD':
        return (w, g, [m], at) => {
          if (momentum === 0) return w - lr * g;
          m[at] = momentum * m[at] - lr * g;
          return nesterov ? w + momentum * m[at] - lr * g : w + m[at];
        };
      case 'RMSprop': {
        const rho = 0.9;
        return (w, g, slots, at) => {
          const [v] = slots;
          v[at] = rho * v[at] + (1 - rho) * g * g;
          let denominator = v[at] + epsilon;
          if (centered) {
            const a = slots[slots.length - 1];
            a[at] = rho * a[at] + (1 - rho) * g;
            denominator = v[at] - a[at] ** 2 + epsilon;
          }
          const increment = (lr * g) / Math.sqrt(denominator);
          if (momentum === 0) return w - increment;
          const p = slots[1];
          p[at] = momentum * p[at] + increment;
          return w - p[at];
        };
      }
      case 'Adam':
      case 'Amsgrad': {
        const alpha = (lr * Math.sqrt(1 - beta2 ** t)) / (1 - beta1 ** t);
        return (w, g, [m, v, vHat], at) => {
          m[at] = beta1 * m[at] + (1 - beta1) * g;
          v[at] = beta2 * v[at] + (1 - beta2) * g * g;
          let second = v[at];
          if (name === 'Amsgrad') {
            vHat[at] = Math.max(vHat[at], second);
            second = vHat[at];
          }
          return w - (alpha * m[at]) / (Math.sqrt(second) + epsilon);
        };
      }
      case 'Adamax':
        return (w, g, [m, u], at) => {
          m[at] = beta1 * m[at] + (1 - beta1) * g;
          u[at] = Math.max(beta2 * u[at], Math.abs(g));
          return w - (lr * m[at]) / ((1 - beta1 ** t) * (u[at] + epsilon));
        };
      case 'Adagrad':
        return (w, g, [a], at) => {
          a[at] = a[at] + g * g;
          return w - (lr * g) / Math.sqrt(a[at] + epsilon);
        };
      case 'Adadelta': {
        const rho = 0.95;
        return (w, g, [grads, deltas], at) => {
          grads[at] = rho * grads[at] + (1 - rho) * g * g;
          const delta = (-Math.sqrt(deltas[at] + epsilon) * g) / Math.sqrt(grads[at] + epsilon);
          deltas[at] = rho * deltas[at] + (1 - rho) * delta * delta;
          return w + lr * delta;
        };
      }
      case 'Nadam': {
        const uNow = beta1 * (1 - 0.5 * 0.96 ** t);
        const uNext = beta1 * (1 - 0.5 * 0.96 ** (t + 1));
        this.nadamProduct *= uNow;
        const productNow = this.nadamProduct;
        const productNext = productNow * uNext;
        return (w, g, [m, v], at) => {
          m[at] = beta1 * m[at] + (1 - beta1) * g;
          v[at] = beta2 * v[at] + (1 - beta2) * g * g;
          const mHat = (uNext * m[at]) / (1 - productNext) + ((1 - uNow) * g) / (1 - productNow);
          const vHat = v[at] / (1 - beta2 ** t);
          return w - (lr * mHat) / (Math.sqrt(vHat) + epsilon);
        };
      }
    }
  }
}
