import { InputFileError } from '@partonfit/core';

/** The InputFileError `run` throws; anything else thrown, or nothing, fails the test. */
export function inputFileError(run: () => unknown): InputFileError {
  try {
    run();
  } catch (error) {
    if (InputFileError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an InputFileError, nothing was thrown');
}

/** The InputFileError `promise` rejects with; anything else, or resolving, fails the test. */
export async function inputFileRejection(promise: Promise<unknown>): Promise<InputFileError> {
  try {
    await promise;
  } catch (error) {
    if (InputFileError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an InputFileError, the promise resolved');
}
