/**
 * A push parser of ustar/pax tarballs that treats its input as hostile: only regular files and
 * folders, names checked component by component, every header's checksum verified, pax headers
 * bounded, and limits on the bytes and entries, checked before any data is passed on. Anything
 * else stops the parse with one TarRefused line. No I/O: the sink writes.
 */
import { uploadMsg as m } from "./messages.ts";

export class TarRefused extends Error {}

export interface TarLimits {
  /** sum of the regular files' sizes */
  maxBytes: number;
  /** files and folders */
  maxFiles: number;
}

export interface TarSink {
  dir(path: string, mode: number): void;
  fileStart(path: string, size: number, mode: number): void;
  fileData(chunk: Uint8Array): void;
  fileEnd(): void;
}

const BLOCK = 512;
const MAX_PAX_BYTES = 64 * 1024;
const MAX_PATH_BYTES = 4096;
const MAX_NAME_BYTES = 255;
/** zero padding after the end marker (tar pads to its record size, 10240 bytes by default) */
const MAX_TRAILER_BYTES = 1024 * 1024;

const TYPE_NAMES: Record<string, string> = {
  "1": "a hard link",
  "2": "a symbolic link",
  "3": "a character device",
  "4": "a block device",
  "6": "a FIFO",
  "7": "a contiguous file",
  L: "a GNU long name",
  K: "a GNU long link name",
  S: "a GNU sparse file",
  V: "a GNU volume label",
  M: "a GNU multi-volume part",
  D: "a GNU dump folder",
};

const utf8 = new TextDecoder("utf-8", { fatal: true });

function field(block: Uint8Array, offset: number, length: number): Uint8Array {
  const raw = block.subarray(offset, offset + length);
  const nul = raw.indexOf(0);
  return nul === -1 ? raw : raw.subarray(0, nul);
}

function octal(block: Uint8Array, offset: number, length: number, what: string): number {
  const raw = block.subarray(offset, offset + length);
  if ((raw[0] ?? 0) & 0x80) throw new TarRefused(m.base256(what));
  const text = new TextDecoder().decode(field(block, offset, length)).trim();
  if (text === "") return 0;
  if (!/^[0-7]+$/.test(text)) throw new TarRefused(m.badNumber(what, text));
  return Number.parseInt(text, 8);
}

function checksumOk(block: Uint8Array): boolean {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : (block[i] as number);
  return octal(block, 148, 8, "header checksum") === sum;
}

/** The checked relative path of an entry ("" for the archive's own root folder "./"). */
export function checkedPath(name: string): string {
  if (name.includes("\0")) throw new TarRefused(m.badName(JSON.stringify(name), "has a NUL byte"));
  if (name.startsWith("/")) throw new TarRefused(m.badName(name, "is an absolute path"));
  let rel = name;
  while (rel.startsWith("./")) rel = rel.slice(2);
  while (rel.endsWith("/")) rel = rel.slice(0, -1);
  if (rel === "" || rel === ".") return "";
  if (Buffer.byteLength(rel) > MAX_PATH_BYTES) throw new TarRefused(m.badName(`${rel.slice(0, 80)}…`, `is longer than ${MAX_PATH_BYTES} bytes`));
  for (const part of rel.split("/")) {
    if (part === "..") throw new TarRefused(m.badName(name, "goes up with '..'"));
    if (part === "" || part === ".") throw new TarRefused(m.badName(name, "has an empty or '.' component"));
    if (Buffer.byteLength(part) > MAX_NAME_BYTES) throw new TarRefused(m.badName(name, `has a component longer than ${MAX_NAME_BYTES} bytes`));
  }
  return rel;
}

/** pax extended header records `<len> <key>=<value>\n`: the keys this reader honours. */
function parsePax(data: Uint8Array): { path?: string; size?: number } {
  const out: { path?: string; size?: number } = {};
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(32, at);
    if (space === -1) throw new TarRefused(m.badPax());
    const lenText = new TextDecoder().decode(data.subarray(at, space));
    if (!/^[1-9][0-9]*$/.test(lenText)) throw new TarRefused(m.badPax());
    const len = Number(lenText);
    const end = at + len;
    if (end > data.length || data[end - 1] !== 10) throw new TarRefused(m.badPax());
    let record: string;
    try {
      record = utf8.decode(data.subarray(space + 1, end - 1));
    } catch {
      throw new TarRefused(m.badPax());
    }
    const eq = record.indexOf("=");
    if (eq <= 0) throw new TarRefused(m.badPax());
    const key = record.slice(0, eq);
    const value = record.slice(eq + 1);
    if (key === "path") out.path = value;
    else if (key === "size") {
      if (!/^[0-9]{1,16}$/.test(value)) throw new TarRefused(m.badNumber("pax size", value));
      out.size = Number(value);
    } else if (key === "linkpath" || key.startsWith("GNU.sparse")) throw new TarRefused(m.paxKey(key));
    at = end;
  }
  return out;
}

type State = "header" | "pax" | "data" | "padding" | "done";

export class TarParser {
  private state: State = "header";
  private block = new Uint8Array(BLOCK);
  private filled = 0;
  private remaining = 0;
  private padding = 0;
  private pax: Uint8Array | undefined;
  private paxFilled = 0;
  private paxIsGlobal = false;
  private pending: { path?: string; size?: number } = {};
  private zeroBlocks = 0;
  private trailer = 0;
  private current = "";
  entries = 0;
  bytes = 0;

  constructor(
    private readonly sink: TarSink,
    private readonly limits: TarLimits,
  ) {}

  write(chunk: Uint8Array): void {
    let at = 0;
    while (at < chunk.length) {
      if (this.state === "data") {
        const n = Math.min(this.remaining, chunk.length - at);
        this.sink.fileData(chunk.subarray(at, at + n));
        at += n;
        this.remaining -= n;
        if (this.remaining === 0) this.endFile();
      } else if (this.state === "pax") {
        const pax = this.pax as Uint8Array;
        const n = Math.min(pax.length - this.paxFilled, chunk.length - at);
        pax.set(chunk.subarray(at, at + n), this.paxFilled);
        this.paxFilled += n;
        at += n;
        if (this.paxFilled === pax.length) {
          const parsed = parsePax(pax);
          if (!this.paxIsGlobal) this.pending = parsed;
          this.pax = undefined;
          this.toPadding(pax.length);
        }
      } else if (this.state === "padding") {
        const n = Math.min(this.padding, chunk.length - at);
        at += n;
        this.padding -= n;
        if (this.padding === 0) this.state = "header";
      } else if (this.state === "done") {
        for (let i = at; i < chunk.length; i++) if (chunk[i] !== 0) throw new TarRefused(m.afterEnd());
        this.trailer += chunk.length - at;
        if (this.trailer > MAX_TRAILER_BYTES) throw new TarRefused(m.afterEnd());
        at = chunk.length;
      } else {
        const n = Math.min(BLOCK - this.filled, chunk.length - at);
        this.block.set(chunk.subarray(at, at + n), this.filled);
        this.filled += n;
        at += n;
        if (this.filled === BLOCK) {
          this.filled = 0;
          this.header(this.block);
        }
      }
    }
  }

  /** The end of the input: anything but a complete archive is truncated. */
  end(): void {
    if (this.state !== "done") throw new TarRefused(m.truncated(this.state === "data" ? this.current : undefined));
  }

  private toPadding(size: number): void {
    this.padding = (BLOCK - (size % BLOCK)) % BLOCK;
    this.state = this.padding === 0 ? "header" : "padding";
  }

  private endFile(): void {
    this.sink.fileEnd();
    this.toPadding(this.pendingSize);
  }

  private pendingSize = 0;

  private header(block: Uint8Array): void {
    if (block.every((b) => b === 0)) {
      if (this.pending.path !== undefined || this.pending.size !== undefined) throw new TarRefused(m.truncated());
      if (++this.zeroBlocks === 2) this.state = "done";
      return;
    }
    if (this.zeroBlocks > 0) throw new TarRefused(m.afterEnd());
    if (new TextDecoder().decode(block.subarray(257, 262)) !== "ustar") throw new TarRefused(m.notUstar());
    if (!checksumOk(block)) throw new TarRefused(m.badChecksum());
    const type = String.fromCharCode(block[156] as number);
    const size = octal(block, 124, 12, "size");
    if (type === "x" || type === "g") {
      if (size > MAX_PAX_BYTES) throw new TarRefused(m.paxTooLarge(MAX_PAX_BYTES));
      this.paxIsGlobal = type === "g";
      if (size === 0) return;
      this.pax = new Uint8Array(size);
      this.paxFilled = 0;
      this.state = "pax";
      return;
    }
    const pending = this.pending;
    this.pending = {};
    let name: string;
    try {
      if (pending.path !== undefined) name = pending.path;
      else {
        const posix = new TextDecoder().decode(block.subarray(257, 263)) === "ustar\0";
        const prefix = posix ? utf8.decode(field(block, 345, 155)) : "";
        const base = utf8.decode(field(block, 0, 100));
        name = prefix ? `${prefix}/${base}` : base;
      }
    } catch {
      throw new TarRefused(m.badName("(an entry)", "is not UTF-8"));
    }
    const shown = name.length > 200 ? `${name.slice(0, 200)}…` : name;
    const what = TYPE_NAMES[type];
    if (what) throw new TarRefused(m.notAllowed(shown, what));
    if (type !== "0" && type !== "\0" && type !== "5") throw new TarRefused(m.notAllowed(shown, `of type '${type}'`));
    const path = checkedPath(name);
    const mode = octal(block, 100, 8, "mode") & 0o7777;
    const entrySize = pending.size ?? size;
    if (type === "5") {
      if (entrySize !== 0) throw new TarRefused(m.folderWithData(shown));
      if (path === "") return;
      this.count();
      this.sink.dir(path, mode);
      return;
    }
    if (path === "") throw new TarRefused(m.badName(name, "names the archive's root as a file"));
    this.count();
    this.bytes += entrySize;
    if (this.bytes > this.limits.maxBytes) throw new TarRefused(m.tooManyBytes(this.limits.maxBytes));
    this.current = path;
    this.pendingSize = entrySize;
    this.sink.fileStart(path, entrySize, mode);
    if (entrySize === 0) {
      this.sink.fileEnd();
      this.state = "header";
      return;
    }
    this.remaining = entrySize;
    this.state = "data";
  }

  private count(): void {
    if (++this.entries > this.limits.maxFiles) throw new TarRefused(m.tooManyFiles(this.limits.maxFiles));
  }
}
