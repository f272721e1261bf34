/**
 * Instrumentation of a training loop: host read-backs counted on the tfjs engine, tensors and
 * bytes alive after each step, resident memory.
 *
 * @packageDocumentation
 */
export { MemoryTrace, thinSeries, type MemorySample } from './memory-trace.js';
export { installReadCounter, type ReadCounter } from './read-counter.js';
