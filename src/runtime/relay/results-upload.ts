/**
 * Results pushed home (docs/registry.md): at the very end of a run, once every process of the
 * agent's user and of the runner is gone and the results were handed over, the entrypoint streams
 * the results folder (and the archive as `archive/`) as a ustar/pax tarball to the orchestrator
 * with the trial's token. Only regular files and folders are packed, read with O_NOFOLLOW; a link,
 * FIFO or socket the agent left in the archive is skipped and named in the log.
 */
import { closeSync, constants, fstatSync, openSync, readdirSync, readSync } from "node:fs";
import { join } from "node:path";
import { log } from "../log.ts";
import { TCP_CONNECT_RETRY_MS, TCP_CONNECT_WAIT_MS } from "./socket-relay.ts";
import type { UploadConfig } from "./upload-config.ts";

const BLOCK = 512;
const CHUNK = 1 << 20;
const MAX_OCTAL_SIZE = 0o77777777777;

function put(block: Uint8Array, offset: number, length: number, bytes: Uint8Array): void {
  block.set(bytes.subarray(0, length), offset);
}

const ascii = (text: string) => new TextEncoder().encode(text);
const oct = (n: number, width: number) => ascii(`${Math.floor(n).toString(8).padStart(width - 1, "0")}\0`);

function paxRecords(records: Record<string, string>): Uint8Array {
  let body = "";
  for (const [k, v] of Object.entries(records)) {
    const rest = ` ${k}=${v}\n`;
    const restBytes = Buffer.byteLength(rest);
    let len = restBytes + 1;
    while (String(len).length + restBytes !== len) len = String(len).length + restBytes;
    body += `${len}${rest}`;
  }
  return new TextEncoder().encode(body);
}

function header(name: Uint8Array, type: "0" | "5" | "x", size: number, mode: number, mtime: number): Uint8Array {
  const block = new Uint8Array(BLOCK);
  put(block, 0, 100, name);
  put(block, 100, 8, oct(mode, 8));
  put(block, 108, 8, oct(0, 8));
  put(block, 116, 8, oct(0, 8));
  put(block, 124, 12, oct(size, 12));
  put(block, 136, 12, oct(mtime, 12));
  put(block, 156, 1, ascii(type));
  put(block, 257, 8, ascii("ustar\u000000"));
  block.fill(32, 148, 156);
  let sum = 0;
  for (const b of block) sum += b;
  put(block, 148, 8, ascii(`${sum.toString(8).padStart(6, "0")}\0 `));
  return block;
}

const padding = (size: number) => new Uint8Array((BLOCK - (size % BLOCK)) % BLOCK);

/** The header blocks of one entry: a pax header first when the name or size does not fit ustar. */
function headers(path: string, type: "0" | "5", size: number, mode: number, mtime: number): Uint8Array[] {
  const name = new TextEncoder().encode(type === "5" ? `${path}/` : path);
  const records: Record<string, string> = {};
  if (name.length > 100) records.path = type === "5" ? `${path}/` : path;
  if (size > MAX_OCTAL_SIZE) records.size = String(size);
  const out: Uint8Array[] = [];
  if (Object.keys(records).length > 0) {
    const body = paxRecords(records);
    out.push(header(ascii("PaxHeader"), "x", body.length, 0o644, mtime), body, padding(body.length));
  }
  out.push(header(name.length > 100 ? ascii("PaxHeaders/long-name") : name, type, size > MAX_OCTAL_SIZE ? 0 : size, mode, mtime));
  return out;
}

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;

/** The tarball's pieces: `roots` are [folder, its name in the tarball ("" = the top)], each walked in name order. */
export function* tarEntries(roots: [string, string][], skipTop: Set<string>, skipped: string[]): Generator<Uint8Array> {
  function* walk(dir: string, rel: string): Generator<Uint8Array> {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch (e) {
      skipped.push(`${rel || "."}: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    for (const name of names) {
      if (rel === "" && skipTop.has(name)) continue;
      const path = rel ? `${rel}/${name}` : name;
      let fd: number;
      try {
        fd = openSync(join(dir, name), OPEN_FLAGS);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        skipped.push(`${path}: ${code === "ELOOP" ? "a symbolic link" : code === "ENXIO" ? "a socket" : e instanceof Error ? e.message : String(e)}`);
        continue;
      }
      try {
        const st = fstatSync(fd);
        const mode = st.mode & 0o755;
        const mtime = st.mtimeMs / 1000;
        if (st.isDirectory()) {
          yield* headers(path, "5", 0, mode, mtime);
          closeSync(fd);
          fd = -1;
          yield* walk(join(dir, name), path);
          continue;
        }
        if (!st.isFile()) {
          skipped.push(`${path}: ${st.isFIFO() ? "a FIFO" : "not a regular file or folder"}`);
          continue;
        }
        yield* headers(path, "0", st.size, mode, mtime);
        let sent = 0;
        while (sent < st.size) {
          const buf = Buffer.alloc(Math.min(CHUNK, st.size - sent));
          const n = readSync(fd, buf, 0, buf.length, null);
          // A file that shrank since fstat is padded: the header's size is a promise to the reader.
          if (n === 0) buf.fill(0);
          sent += n === 0 ? buf.length : n;
          yield n === 0 ? buf : buf.subarray(0, n);
        }
        yield padding(st.size);
      } finally {
        if (fd !== -1) closeSync(fd);
      }
    }
  }
  for (const [dir, name] of roots) {
    if (name) {
      let fd: number;
      try {
        fd = openSync(dir, OPEN_FLAGS | constants.O_DIRECTORY);
      } catch (e) {
        skipped.push(`${name}: ${e instanceof Error ? e.message : String(e)}`);
        continue;
      }
      const st = fstatSync(fd);
      closeSync(fd);
      yield* headers(name, "5", 0, st.mode & 0o755, st.mtimeMs / 1000);
    }
    yield* walk(dir, name);
  }
  yield new Uint8Array(2 * BLOCK);
}

/** Whether a TCP connection to host:port opens (and closes it at once). */
function accepts(hostname: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    Bun.connect({
      hostname,
      port,
      socket: { open: (s) => (s.end(), resolve(true)), data: () => {}, connectError: () => resolve(false), error: () => resolve(false) },
    }).catch(() => resolve(false));
  });
}

/**
 * Over TCP (a Swarm trial), the relay is started once the trial is placed, beside the container's
 * start: a trial that ends within a second or two may get here first, so it waits for the relay
 * (its name resolving, its port accepting), bounded, instead of failing the upload at once.
 */
async function relayReady(url: string, withinMs: number): Promise<void> {
  const { hostname, port } = new URL(url);
  const until = Date.now() + withinMs;
  for (let tries = 0; !(await accepts(hostname, Number(port) || 80)) && Date.now() < until; tries++) {
    if (tries === 0) log("INFO", "Waiting for the results relay", { to: `${hostname}:${port || 80}` });
    await Bun.sleep(TCP_CONNECT_RETRY_MS);
  }
}

/** Sends the results; true when the orchestrator accepted them. Never throws. */
export async function uploadResults(results: string, archive: string, upload: UploadConfig): Promise<boolean> {
  const skipped: string[] = [];
  const pieces = tarEntries(
    [
      [results, ""],
      [archive, "archive"],
    ],
    new Set(["archive"]),
    skipped,
  );
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = pieces.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
  });
  const started = performance.now();
  try {
    if (!upload.socket) await relayReady(upload.url, Math.min(upload.timeoutMs, TCP_CONNECT_WAIT_MS));
    const res = await fetch(upload.url, {
      method: "PUT",
      headers: { authorization: `Bearer ${upload.token}`, "content-type": "application/x-tar" },
      body,
      signal: AbortSignal.timeout(upload.timeoutMs),
      ...(upload.socket ? { unix: upload.socket } : {}),
    });
    for (const s of skipped) log("WARN", "Not uploaded", { entry: s });
    const text = await res.text();
    if (res.status !== 201) {
      let why = text.trim();
      try {
        why = (JSON.parse(text) as { error?: string }).error ?? why;
      } catch {
        // not JSON: the text as it came
      }
      log("ERROR", "The results upload failed", { status: res.status, err: why });
      return false;
    }
    log("INFO", "Results uploaded", { reply: text.trim(), ms: Math.round(performance.now() - started) });
    return true;
  } catch (e) {
    log("ERROR", "The results upload failed", { err: e instanceof Error ? e.message : String(e) });
    return false;
  }
}
