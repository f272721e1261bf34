import { describe, expect, it } from 'vitest';
import { validBackendOption } from './backend-option.js';
import type { Terminal } from './terminal.js';

function capturingTerminal(): Terminal & { errors: string[] } {
  const errors: string[] = [];
  return {
    errors,
    out: () => undefined,
    error: (text: string) => {
      errors.push(text);
    },
  };
}

describe('validBackendOption', () => {
  it('should accept an absent value and every backend request, silently', () => {
    const terminal = capturingTerminal();
    for (const value of [undefined, 'auto', 'tensorflow', 'native', 'wasm', 'cpu']) {
      expect(validBackendOption(value, terminal)).toBe(true);
    }
    expect(terminal.errors).toEqual([]);
  });

  it('should refuse anything else, listing the accepted values', () => {
    const terminal = capturingTerminal();
    expect(validBackendOption('gpu', terminal)).toBe(false);
    expect(terminal.errors).toEqual([
      "--backend: expected one of auto, tensorflow, native, wasm, cpu, got 'gpu'\n",
    ]);
  });
});
