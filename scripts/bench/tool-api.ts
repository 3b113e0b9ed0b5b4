/**
 * The agent's tool API, as root (it switches uids): bun scripts/bench/tool-api.ts [--runs N]
 *
 * 1. MCP round trip of a no-op call: tools/call test_patch at difficulty 4 (nothing to run),
 *    against a plain HTTP round trip to the same listener (GET /sse/v1/capabilities, baseline).
 * 2. What a test_patch adds over running the same scripts directly: difficulty 2 runs build and
 *    functional tests on the runtime tests' demo task; the baseline copies the tree and runs
 *    the same two scripts as root in this script (same run, same machine).
 * 3. start → agent exec (the listener opens before the agent starts), prepared image; with
 *    --compare BIN also for another build of the entrypoint (e.g. one without the tool API).
 * Needs dist/ssebench-entrypoint (bun run build).
 */
import { chmodSync, cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { entrypointBin } from "../../test/helpers/cli.ts";
import { dropUsers, ensureUsers, newRun } from "../../test/runtime/harness.ts";

const { values } = parseArgs({ options: { runs: { type: "string", default: "30" }, compare: { type: "string" } } });
const runs = Number(values.runs);
ensureUsers();

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.9))]!;
const fmt = (xs: number[]) => `median ${median(xs).toFixed(2)}, p90 ${p90(xs).toFixed(2)} ms`;
const timed = async (fn: () => Promise<unknown>) => {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
};

function freePort(): number {
  const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = s.port;
  s.stop(true);
  return port;
}

/** An entrypoint whose agent sleeps, with its tool API at `difficulty`; stopped with SIGTERM. */
async function withApi(difficulty: string, fn: (url: string, dirs: ReturnType<typeof newRun>) => Promise<void>): Promise<void> {
  const port = freePort();
  const dirs = newRun({ env: { SSE_TOOL_PORT: String(port), SSE_DIFFICULTY: difficulty, TIMEOUT: "3600" } });
  const proc = Bun.spawn([entrypointBin, "--", "/bin/sleep", "3600"], { env: dirs.env, stdout: "ignore", stderr: "ignore" });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/sse/v1/capabilities`)).ok) break;
    } catch {
      if (i > 500) throw new Error("the tool API did not come up");
      await Bun.sleep(10);
    }
  }
  try {
    await fn(url, dirs);
  } finally {
    proc.kill("SIGTERM");
    await proc.exited;
    dirs.cleanup();
  }
}

let id = 0;
const mcpCall = async (url: string) => {
  const res = await fetch(`${url}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method: "tools/call", params: { name: "test_patch", arguments: {} } }),
  });
  const body = (await res.json()) as { result?: { content: { text: string }[] } };
  if (!body.result) throw new Error(`MCP call failed: ${JSON.stringify(body)}`);
  return body.result.content[0]!.text;
};

const noop: number[] = [];
const plain: number[] = [];
let firstMcp = 0;
await withApi("4", async (url) => {
  firstMcp = await timed(() => mcpCall(url));
  for (let i = 0; i < runs; i++) {
    plain.push(await timed(() => fetch(`${url}/sse/v1/capabilities`).then((r) => r.arrayBuffer())));
    noop.push(await timed(() => mcpCall(url)));
  }
});

const viaApi: number[] = [];
const direct: number[] = [];
await withApi("2", async (url, dirs) => {
  const text = await mcpCall(url);
  if (!text.startsWith("test_patch result: every check that ran passed.")) throw new Error(`unexpected test_patch result:\n${text}`);
  const script = (name: string) => join(dirs.taskRoot, "scripts", name);
  const scratch = join(dirs.base, "direct");
  for (let i = 0; i < Math.max(5, Math.round(runs / 3)); i++) {
    viaApi.push(await timed(() => mcpCall(url)));
    direct.push(
      await timed(async () => {
        for (const s of ["build.sh", "test.sh"]) {
          rmSync(scratch, { recursive: true, force: true });
          cpSync(dirs.source, scratch, { recursive: true });
          const p = Bun.spawn([script(s)], { cwd: scratch, env: { PATH: dirs.env.PATH!, SSE_TASK_ROOT: dirs.taskRoot }, stdout: "ignore", stderr: "ignore" });
          if ((await p.exited) !== 0) throw new Error(`${s} failed`);
        }
      }),
    );
  }
});

/** start → agent exec through each binary, interleaved: wall time and the entrypoint's CPU time until the exec. */
async function toExec(bins: string[]): Promise<{ wall: number[]; cpu: number[] }[]> {
  const ticks = Number(Bun.spawnSync(["getconf", "CLK_TCK"]).stdout.toString().trim()) || 100;
  const setups = bins.map((bin) => {
    const dirs = newRun({ env: { SSE_DIFFICULTY: "2" } });
    if (Bun.spawnSync([bin, "prepare"], { env: dirs.env, stdout: "ignore", stderr: "ignore" }).exitCode !== 0) throw new Error(`${bin} prepare failed`);
    const stamp = join(dirs.base, "stamp");
    writeFileSync(stamp, "");
    writeFileSync(`${stamp}.cpu`, "");
    chmodSync(stamp, 0o666);
    chmodSync(`${stamp}.cpu`, 0o666);
    return { bin, dirs, stamp, wall: [] as number[], cpu: [] as number[] };
  });
  for (let i = 0; i < Math.max(10, runs); i++) {
    for (const s of setups) {
      const t0 = BigInt(Math.round((performance.timeOrigin + performance.now()) * 1e6));
      const p = Bun.spawn([s.bin, "--", "/bin/sh", "-c", `date +%s%N > ${s.stamp}; cat /proc/$PPID/stat > ${s.stamp}.cpu`], { env: s.dirs.env, stdout: "ignore", stderr: "ignore" });
      await p.exited;
      s.wall.push(Number(BigInt(readFileSync(s.stamp, "utf8").trim()) - t0) / 1e6);
      const f = readFileSync(`${s.stamp}.cpu`, "utf8").split(") ")[1]!.split(" ");
      s.cpu.push(((Number(f[11]) + Number(f[12])) * 1000) / ticks);
    }
  }
  for (const s of setups) s.dirs.cleanup();
  return setups;
}
const [execNow, execOther] = await toExec([entrypointBin, ...(values.compare ? [values.compare] : [])]);
dropUsers();

console.log(`agent tool API, ${runs} runs (machine: ${navigator.hardwareConcurrency} vCPU)`);
console.log(`plain HTTP round trip (GET /sse/v1/capabilities, baseline): ${fmt(plain)}`);
console.log(`MCP tools/call test_patch, nothing to run (difficulty 4):  ${fmt(noop)}  (${(median(noop) / median(plain)).toFixed(1)}× baseline)`);
console.log(`  first MCP call right after the listener opened (SDK load included): ${firstMcp.toFixed(1)} ms`);
console.log(`build + functional tests run directly (copy + 2 scripts):   ${fmt(direct)}`);
console.log(`the same through test_patch (difficulty 2, MCP):            ${fmt(viaApi)}  (${(median(viaApi) / median(direct)).toFixed(1)}× baseline, +${(median(viaApi) - median(direct)).toFixed(1)} ms)`);
console.log(`start → agent exec (tool API opened first):                ${fmt(execNow!.wall)}; entrypoint CPU before the exec ${fmt(execNow!.cpu)}`);
if (execOther) {
  console.log(`  the same with ${values.compare} (interleaved):          ${fmt(execOther.wall)}; CPU ${fmt(execOther.cpu)}`);
  console.log(`  this build: ${(median(execNow!.wall) - median(execOther.wall)).toFixed(1)} ms wall, ${(median(execNow!.cpu) - median(execOther.cpu)).toFixed(1)} ms CPU more`);
}
