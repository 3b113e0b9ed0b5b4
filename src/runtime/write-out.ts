/**
 * Writes to stdout/stderr with write(2). `process.stdout` costs ~30 ms of CPU to set up in a
 * compiled Bun binary (the Node stream stack), which is most of the entrypoint's start-up.
 */
import { writeSync } from "node:fs";

export function writeOut(fd: 1 | 2, text: string): void {
  const data = Buffer.from(text);
  let offset = 0;
  for (let tries = 0; offset < data.length && tries < 1000; tries++) {
    try {
      offset += writeSync(fd, data, offset);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EAGAIN") return; // a closed stdout loses the line, never the run
      Bun.sleepSync(1);
    }
  }
}
