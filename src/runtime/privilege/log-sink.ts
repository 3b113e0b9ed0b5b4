/**
 * A child's output log with a bound (docs/container-contract.md §2 `SSE_MAX_LOG_MB`): the first
 * half of the bound goes to the file as it comes, the last half is kept in memory and written
 * after a line saying how much was cut between them. An agent printing gigabytes costs the disk
 * no more than the bound, and the output it ends with is still there.
 */
import { closeSync, openSync, writeSync } from "node:fs";

let maxLogBytes = 16 * 2 ** 20;

export function setMaxLogBytes(bytes: number): void {
  maxLogBytes = bytes;
}

export const cutLine = (bytes: number) => `\n[ssebench: ${bytes} bytes of output cut here; the log keeps its first and last ${maxLogBytes / 2} bytes]\n`;

export class LogSink {
  private readonly fd: number;
  private readonly head = Math.floor(maxLogBytes / 2);
  private readonly tailMax = maxLogBytes - Math.floor(maxLogBytes / 2);
  private written = 0;
  private tail: Uint8Array[] = [];
  private tailSize = 0;
  private cut = 0;
  private open = 0;
  private closed = false;
  private resolve!: () => void;
  /** Resolves once every stream ended and the kept tail is written. */
  readonly done = new Promise<void>((r) => (this.resolve = r));

  /** `header`: a first line of the harness's own, counted in the bound's head. */
  constructor(path: string, header?: string) {
    this.fd = openSync(path, "a", 0o644);
    if (header) this.add(new TextEncoder().encode(`${header}\n`));
  }

  /** Reads `stream` into the log (several streams may share one sink). */
  drain(stream: ReadableStream<Uint8Array>): void {
    this.open++;
    void (async () => {
      try {
        for await (const chunk of stream) this.add(chunk);
      } catch {
        // a broken pipe ends the stream like EOF
      }
      if (--this.open === 0) this.close();
    })();
  }

  private add(chunk: Uint8Array): void {
    if (this.written < this.head) {
      const n = Math.min(chunk.length, this.head - this.written);
      writeSync(this.fd, chunk, 0, n);
      this.written += n;
      chunk = chunk.subarray(n);
      if (chunk.length === 0) return;
    }
    this.tail.push(chunk);
    this.tailSize += chunk.length;
    while (this.tailSize - (this.tail[0]?.length ?? 0) >= this.tailMax) {
      const dropped = this.tail.shift()!;
      this.tailSize -= dropped.length;
      this.cut += dropped.length;
    }
  }

  /** Also for a sink no stream was given to (the child did not start). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    let tail = Buffer.concat(this.tail);
    if (tail.length > this.tailMax) {
      this.cut += tail.length - this.tailMax;
      tail = tail.subarray(tail.length - this.tailMax);
    }
    if (this.cut > 0) writeSync(this.fd, cutLine(this.cut));
    if (tail.length > 0) writeSync(this.fd, tail);
    closeSync(this.fd);
    this.resolve();
  }
}
