/** Where a command writes: standard output for results, standard error for problems. */
export interface Terminal {
  readonly out: (text: string) => void;
  readonly error: (text: string) => void;
  /**
   * Present on an interactive terminal: replaces the current status line (a progress display).
   * Absent when output goes to a file or a pipe; commands then print plain periodic lines.
   */
  readonly status?: (line: string) => void;
}

/** The process's own standard output and error; a status line when stderr is a terminal. */
export const processTerminal: Terminal = {
  out: (text) => process.stdout.write(text),
  error: (text) => process.stderr.write(text),
  ...(process.stderr.isTTY
    ? { status: (line: string) => process.stderr.write(`\r\u001b[2K${line}`) }
    : {}),
};

/**
 * Shows a progress line: on an interactive terminal it replaces the status line; otherwise it
 * goes to standard error as a plain line when `plain` (the command decides how often).
 */
export function showProgress(terminal: Terminal, line: string, plain: boolean): void {
  if (terminal.status !== undefined) terminal.status(line);
  else if (plain) terminal.error(`${line}\n`);
}
