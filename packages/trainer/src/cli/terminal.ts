/** Where a command writes: standard output for results, standard error for problems. */
export interface Terminal {
  readonly out: (text: string) => void;
  readonly error: (text: string) => void;
}

/** The process's own standard output and error. */
export const processTerminal: Terminal = {
  out: (text) => process.stdout.write(text),
  error: (text) => process.stderr.write(text),
};
