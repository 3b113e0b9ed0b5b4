/**
 * Load test of `ssebench catalog serve` against nginx serving the same response bytes as static
 * files, both on 127.0.0.1, measured in the same run with wrk (Debian packages wrk, nginx-light).
 *
 *   bun run build && bun scripts/bench-catalog.ts [--seconds 10] [--connections 64] [--manifest FILE]
 *
 * Without --manifest it generates a pilot-sized catalog (55 tasks × 60 files). The two servers are
 * measured alternately for --rounds rounds (the machine is shared; alternating spreads its noise
 * over both) and the medians are printed: req/s, p99 latency, total errors, and the ratio
 * catalog/nginx (goal ≥ 0.8, zero errors).
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { writeSyntheticCatalog } from "./synthetic-catalog.ts";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "10" },
    connections: { type: "string", default: "64" },
    rounds: { type: "string", default: "3" },
    manifest: { type: "string" },
  },
});
const root = resolve(import.meta.dir, "..");
const work = mkdtempSync(join(tmpdir(), "bench-catalog-"));
chmodSync(work, 0o755); // nginx workers run as nobody

for (const tool of ["wrk", "nginx"]) {
  if (Bun.spawnSync(["sh", "-c", `command -v ${tool}`]).exitCode !== 0) {
    console.error(`bench-catalog: ${tool} is missing (apt-get install wrk nginx-light)`);
    process.exit(1);
  }
}

let manifestPath = values.manifest;
if (!manifestPath) {
  manifestPath = writeSyntheticCatalog(work, 55, 60);
}

async function freePort(): Promise<number> {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
  const port = probe.port as number;
  await probe.stop(true);
  return port;
}

async function waitFor(url: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await fetch(url).then((r) => r.ok, () => false)) return;
    await Bun.sleep(50);
  }
  throw new Error(`${url} did not come up`);
}

const catalogPort = await freePort();
const catalog = Bun.spawn(
  [join(root, "dist/ssebench"), "catalog", "serve", "--host", "127.0.0.1", "--port", String(catalogPort), "--manifest", manifestPath],
  { stdout: "ignore", stderr: "inherit" },
);
const catalogUrl = `http://127.0.0.1:${catalogPort}`;
await waitFor(`${catalogUrl}/healthz`);
const tasks = (await (await fetch(`${catalogUrl}/tasks`)).json()) as { id: string }[];
const taskId = tasks[Math.floor(tasks.length / 2)]?.id ?? "";

// nginx serves the catalog's own response bytes as static files.
const www = join(work, "www");
mkdirSync(join(www, "task"), { recursive: true });
const listBytes = Buffer.from(await (await fetch(`${catalogUrl}/tasks`)).arrayBuffer());
const taskBytes = Buffer.from(await (await fetch(`${catalogUrl}/tasks/${taskId}`)).arrayBuffer());
writeFileSync(join(www, "tasks-list"), listBytes);
writeFileSync(join(www, "task", taskId), taskBytes);
const nginxPort = await freePort();
writeFileSync(
  join(work, "nginx.conf"),
  `worker_processes auto;
pid ${work}/nginx.pid;
error_log ${work}/nginx-error.log;
daemon off;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${work}/tmp-body;
  proxy_temp_path ${work}/tmp-proxy;
  fastcgi_temp_path ${work}/tmp-fastcgi;
  uwsgi_temp_path ${work}/tmp-uwsgi;
  scgi_temp_path ${work}/tmp-scgi;
  types { }
  default_type application/json;
  server {
    listen 127.0.0.1:${nginxPort};
    root ${www};
    location / { }
  }
}
`,
);
const nginx = Bun.spawn(["nginx", "-c", join(work, "nginx.conf")], { stdout: "ignore", stderr: "inherit" });
const nginxUrl = `http://127.0.0.1:${nginxPort}`;
await waitFor(`${nginxUrl}/tasks-list`);

interface WrkResult {
  rps: number;
  p99: number;
  errors: number;
}

/** wrk latency "12.34ms" / "1.20s" / "850.00us" in milliseconds. */
function millis(text: string | undefined): number {
  const m = /^([\d.]+)(us|ms|s)$/.exec(text ?? "");
  if (!m) return Number.NaN;
  return Number(m[1]) * (m[2] === "us" ? 0.001 : m[2] === "s" ? 1000 : 1);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

function summarise(runs: WrkResult[]): WrkResult {
  return { rps: median(runs.map((r) => r.rps)), p99: median(runs.map((r) => r.p99)), errors: runs.reduce((n, r) => n + r.errors, 0) };
}

function parseWrk(out: string): WrkResult {
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? Number.NaN);
  const p99 = millis(/\s99%\s+(\S+)/.exec(out)?.[1]);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  const errors = non2xx + (socket ? socket.slice(1).reduce((n, v) => n + Number(v), 0) : 0);
  return { rps, p99, errors };
}

function wrk(url: string): WrkResult {
  const threads = "2";
  const run = Bun.spawnSync(["wrk", `-t${threads}`, `-c${values.connections}`, `-d${values.seconds}s`, "--latency", url]);
  if (run.exitCode !== 0) throw new Error(`wrk ${url} failed: ${run.stderr.toString()}`);
  return parseWrk(run.stdout.toString());
}

const rows: string[][] = [];
try {
  for (const [name, catalogPath, nginxPath] of [
    [`/tasks/{id} (${taskBytes.length} B)`, `/tasks/${taskId}`, `/task/${taskId}`],
    [`/tasks (${listBytes.length} B)`, "/tasks", "/tasks-list"],
  ] as const) {
    const oursRuns: WrkResult[] = [];
    const theirsRuns: WrkResult[] = [];
    for (let round = 0; round < Number(values.rounds); round++) {
      oursRuns.push(wrk(catalogUrl + catalogPath));
      theirsRuns.push(wrk(nginxUrl + nginxPath));
    }
    const [ours, theirs] = [summarise(oursRuns), summarise(theirsRuns)];
    const ms = (v: number) => `${v.toFixed(1)} ms`;
    rows.push([name, ours.rps.toFixed(0), ms(ours.p99), String(ours.errors), theirs.rps.toFixed(0), ms(theirs.p99), String(theirs.errors), (ours.rps / theirs.rps).toFixed(2)]);
  }
} finally {
  catalog.kill("SIGTERM");
  nginx.kill("SIGTERM");
  await Promise.all([catalog.exited, nginx.exited]);
  rmSync(work, { recursive: true, force: true });
}

const header = ["endpoint", "catalog req/s", "p99", "errors", "nginx req/s", "p99", "errors", "ratio"];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(" | ")} |`;
console.log(`wrk -t2 -c${values.connections} -d${values.seconds}s, median of ${values.rounds} alternating rounds, 127.0.0.1, ${tasks.length} tasks`);
console.log([line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n"));
