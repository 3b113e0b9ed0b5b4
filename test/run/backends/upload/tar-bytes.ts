/** Hand-made tar bytes for the receiver's tests: honest entries and every kind of hostile one. */
export interface RawEntry {
  name: string;
  type?: string;
  data?: string | Uint8Array;
  /** the size field, when it must differ from the data's length */
  size?: number;
  mode?: number;
  linkname?: string;
  prefix?: string;
  magic?: string;
  badChecksum?: boolean;
}

function put(block: Uint8Array, offset: number, length: number, text: string): void {
  block.set(new TextEncoder().encode(text).subarray(0, length), offset);
}

const oct = (n: number, width: number) => `${n.toString(8).padStart(width - 1, "0")}\0`;

export function header(e: RawEntry): Uint8Array {
  const data = typeof e.data === "string" ? new TextEncoder().encode(e.data) : (e.data ?? new Uint8Array(0));
  const block = new Uint8Array(512);
  put(block, 0, 100, e.name);
  put(block, 100, 8, oct(e.mode ?? 0o644, 8));
  put(block, 108, 8, oct(0, 8));
  put(block, 116, 8, oct(0, 8));
  put(block, 124, 12, oct(e.size ?? data.length, 12));
  put(block, 136, 12, oct(0, 12));
  put(block, 156, 1, e.type ?? "0");
  put(block, 157, 100, e.linkname ?? "");
  put(block, 257, 8, e.magic ?? "ustar\u000000");
  put(block, 345, 155, e.prefix ?? "");
  block.fill(32, 148, 156);
  let sum = 0;
  for (const b of block) sum += b;
  put(block, 148, 8, `${(e.badChecksum ? sum + 1 : sum).toString(8).padStart(6, "0")}\0 `);
  return block;
}

export function entry(e: RawEntry): Uint8Array[] {
  const data = typeof e.data === "string" ? new TextEncoder().encode(e.data) : (e.data ?? new Uint8Array(0));
  const pad = new Uint8Array((512 - (data.length % 512)) % 512);
  return [header(e), data, pad];
}

/** A pax 'x' header giving `records` to the next entry. */
export function pax(records: Record<string, string>): Uint8Array[] {
  let body = "";
  for (const [k, v] of Object.entries(records)) {
    const rest = ` ${k}=${v}\n`;
    let len = rest.length + 1;
    while (`${len}${rest}`.length !== len) len = `${len}${rest}`.length;
    body += `${len}${rest}`;
  }
  return entry({ name: "PaxHeader", type: "x", data: body });
}

export function tarball(parts: Uint8Array[][], end = true): Uint8Array {
  const all = [...parts.flat(), ...(end ? [new Uint8Array(1024)] : [])];
  const out = new Uint8Array(all.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of all) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
