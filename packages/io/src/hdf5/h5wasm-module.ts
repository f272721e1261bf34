import h5wasm from 'h5wasm/node';

/**
 * Runs `work` (synchronous h5wasm calls) with h5wasm's throwing error handler active, so that an
 * HDF5 failure becomes a JavaScript Error carrying HDF5's message instead of a diagnostic printed
 * on stderr and a silent failure; the default handler is restored afterwards. h5wasm's state is
 * global, which is safe here because `work` runs to completion without yielding.
 */
export async function withHdf5<T>(work: () => T): Promise<T> {
  const module = await h5wasm.ready;
  module.activate_throwing_error_handler();
  try {
    return work();
  } finally {
    module.deactivate_throwing_error_handler();
  }
}

/**
 * The innermost reason of an HDF5 error stack, e.g. `truncated file: eof = 600, …`: the text
 * after `in H5Function():` on the stack's last entry; the first line when there is no stack.
 */
export function hdf5Reason(cause: unknown): string {
  const message = cause instanceof Error ? cause.message : String(cause);
  const entries = [...message.matchAll(/#\d+: .* in \w+\(\): (.*)/g)];
  return entries.at(-1)?.[1]?.trim() ?? message.split('\n')[0];
}
