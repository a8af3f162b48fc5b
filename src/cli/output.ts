/** Where the CLI writes: the terminal, or a test's buffer. */
export interface CliOutput {
  log(line: string): void;
  /** Progress bars draw here (a TTY stream in real use). */
  readonly progress: NodeJS.WritableStream;
}
