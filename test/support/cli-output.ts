import { Writable } from 'node:stream';

/** A CLI output that keeps the printed lines and what the progress bars drew. */
export function captureCliOutput() {
  const lines: string[] = [];
  let drawn = '';
  const progress = new Writable({
    write(chunk, _encoding, done) {
      drawn += String(chunk);
      done();
    },
  });
  return { output: { log: (line: string) => lines.push(line), progress }, lines, drawn: () => drawn };
}
