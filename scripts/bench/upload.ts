/**
 * What a pushed-home result costs the orchestrator: the receiver (HTTP on loopback, hostile-input
 * parse, O_EXCL|O_NOFOLLOW writes, the move into the run folder) against GNU tar extracting the
 * same tarball from a pipe, measured in the same run, interleaved. Prints MB/s and the ratio.
 *
 *   bun scripts/bench/upload.ts [--files N] [--mb M] [--rounds R]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startResultsReceiver } from "../../src/run/backends/upload/receiver.ts";

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const files = arg("--files", 2000);
const mb = arg("--mb", 64);
const rounds = arg("--rounds", 5);

const root = mkdtempSync(join(tmpdir(), "ssebench-bench-upload-"));
const src = join(root, "src");
const per = Math.floor((mb * 1024 * 1024) / files);
for (let i = 0; i < files; i++) {
  const dir = join(src, i % 2 ? "archive" : "grading", `d${i % 40}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `f${i}.log`), Buffer.alloc(per, i % 251));
}
const tar = Bun.spawnSync(["tar", "--format=pax", "-C", src, "-cf", "-", "."], { maxBuffer: 4 * mb * 1024 * 1024 });
if (tar.exitCode !== 0) throw new Error(`tar: ${tar.stderr}`);
const body = new Uint8Array(tar.stdout);

const receiver = startResultsReceiver({ listen: { hostname: "127.0.0.1", port: 0 } });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const ours: number[] = [];
const gnu: number[] = [];
for (let r = 0; r < rounds; r++) {
  const runDir = join(root, `run-${r}`);
  mkdirSync(runDir);
  const up = receiver.expect(`bench-${r}`, runDir);
  const { url, token } = JSON.parse(up.secretText) as { url: string; token: string };
  let t = performance.now();
  const res = await fetch(url, { method: "PUT", headers: { authorization: `Bearer ${token}` }, body });
  if (res.status !== 201) throw new Error(`receiver: ${res.status} ${await res.text()}`);
  ours.push(performance.now() - t);
  const out = join(root, `tar-${r}`);
  mkdirSync(out);
  t = performance.now();
  const x = Bun.spawn(["tar", "-C", out, "-xf", "-"], { stdin: body });
  if ((await x.exited) !== 0) throw new Error("tar -x failed");
  gnu.push(performance.now() - t);
  rmSync(runDir, { recursive: true, force: true });
  rmSync(out, { recursive: true, force: true });
}
await receiver.close();
rmSync(root, { recursive: true, force: true });
const rate = (ms: number) => ((body.length / 1024 / 1024) / (ms / 1000)).toFixed(0);
console.log(`tarball: ${files} files, ${(body.length / 1024 / 1024).toFixed(1)} MiB; ${rounds} interleaved rounds, medians`);
console.log(`receiver (HTTP on loopback, checks, O_EXCL writes, move): ${median(ours).toFixed(0)} ms (${rate(median(ours))} MiB/s)`);
console.log(`GNU tar -x from a pipe (baseline):                       ${median(gnu).toFixed(0)} ms (${rate(median(gnu))} MiB/s)`);
console.log(`ratio receiver / tar: ${(median(ours) / median(gnu)).toFixed(2)}x`);
