/**
 * Sidecar mode on the host (docs/container-contract.md §13): the compiled entrypoint in
 * `--mode sidecar` as root and its supervisor (`sidecar-agent`) as the agent's real uid, meeting in
 * a socket folder, as the two containers of a run do (the e2e tests run them in containers). The
 * agent's fix is graded by the task's side; its output, brief, tool API and model reach it through
 * the supervisor; its time limit, its leftovers, a forged second connection and a sidecar that
 * never connects are handled by the task's side.
 */
import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { MODEL_KEY_FILE, MODEL_SOCKET } from "../../src/contract/model.ts";
import { SIDECAR_SOCKETS } from "../../src/contract/sidecar.ts";
import { Gateway } from "../../src/gateway/server.ts";
import { sidecarMsg } from "../../src/runtime/sidecar/messages.ts";
import { entrypointBin } from "../helpers/cli.ts";
import { scriptedModel } from "../gateway/support.ts";
import { dropUsers, ensureUsers, type EntrypointRun, liveProcessesOf, newRun, type RunDirs, runEntrypoint, SLEEP, sleepsLeft, uidOf, users } from "./harness.ts";

let dirs: RunDirs | undefined;
setDefaultTimeout(90_000);
beforeAll(ensureUsers);
afterAll(dropUsers);
afterEach(() => dirs?.cleanup());

/** A run folder with a socket folder for the sidecar (SSE_SIDECAR_DIR). */
function sidecarRun(env: Record<string, string> = {}, plugins: Parameters<typeof newRun>[0] = {}): RunDirs & { sockets: string } {
  const d = newRun({ ...plugins, env: { ...env } });
  const sockets = join(d.base, "sockets");
  mkdirSync(sockets, { mode: 0o700 });
  d.env.SSE_SIDECAR_DIR = sockets;
  return { ...d, sockets };
}

async function socketAppears(path: string, within = 30_000): Promise<void> {
  const until = Date.now() + within;
  while (!existsSync(path)) {
    if (Date.now() > until) throw new Error(`${path} did not appear`);
    await Bun.sleep(20);
  }
}

/** The supervisor as the agent's user, as the sidecar container starts it. */
function startSupervisor(sockets: string, argv: string[], extraEnv: Record<string, string> = {}): Bun.Subprocess<"ignore", "pipe", "pipe"> {
  const uid = uidOf(users.model);
  return Bun.spawn([entrypointBin, "sidecar-agent", "--", ...argv], {
    uid,
    gid: uid,
    env: { PATH: "/usr/local/bin:/usr/bin:/bin", SSE_SIDECAR_DIR: sockets, EP: entrypointBin, ...extraEnv },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
}

/** The task's entrypoint in sidecar mode and, once its sockets exist, the supervisor running `script`. */
async function runPair(d: RunDirs & { sockets: string }, script: string, during?: () => Promise<void>): Promise<{ run: EntrypointRun; supervisor: string }> {
  const task = runEntrypoint(d, ["--mode", "sidecar"]);
  await socketAppears(join(d.sockets, SIDECAR_SOCKETS.control));
  const sup = startSupervisor(d.sockets, ["/bin/sh", "-c", script]);
  await during?.();
  const [run, stderr] = await Promise.all([task, new Response(sup.stderr).text(), sup.exited]);
  return { run, supervisor: stderr };
}

/** A stand-in for a supervisor the agent took over: it connects, reads the start message, says `lines`. */
async function fakeSupervisor(sockets: string, lines: string[]): Promise<Socket> {
  const s = connect(join(sockets, SIDECAR_SOCKETS.control));
  await new Promise<void>((resolve) => s.once("data", () => resolve()));
  for (const line of lines) s.write(`${line}\n`);
  return s;
}

const fixFile = (d: RunDirs) => {
  const file = join(d.base, "fix.diff");
  writeFileSync(file, readFileSync(join(d.taskRoot, "diffs/patch.diff")), { mode: 0o644 });
  return file;
};

describe("sidecar mode: the task's side and the supervisor", () => {
  test("the agent's fix is graded passed in the task's side; its output, brief, variables and tool API come through the sockets", async () => {
    const d = sidecarRun();
    dirs = d;
    const fix = fixFile(d);
    const script = [
      "echo hello from the sidecar; echo to stderr >&2",
      'env | sort > "$SSE_ARCHIVE/env.txt"',
      'cp "$SSE_TASK_FILE" "$SSE_ARCHIVE/task.json"',
      '"$EP" check build > "$SSE_ARCHIVE/check.txt" 2>&1; echo "check status $?" >> "$SSE_ARCHIVE/check.txt"',
      `git apply ${fix}`,
    ].join("; ");
    const { run } = await runPair(d, script);
    expect(run.exitCode).toBe(0);
    expect(run.result.patch_result).toMatchObject({ status: "passed", build_success: true, pov_passed: 1, func_test_success: true, intent_test_success: true });
    expect(run.result.runtime_result).toMatchObject({ agent_timeout: false, agent_exit_code: 0 });
    const log = readFileSync(join(d.results, "agent.log"), "utf8");
    expect(log).toContain("hello from the sidecar");
    expect(log).toContain("to stderr");
    const env = Object.fromEntries(readFileSync(join(d.archive, "env.txt"), "utf8").trim().split("\n").map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]));
    expect(env).toMatchObject({ SSE_SOURCE: d.source, SSE_ARCHIVE: d.archive, USER: "model", LOGNAME: "model", TIMEOUT: "60", SSE_API_KEY: "sk-test-secret", SSE_MODEL_NAME: "test-model" });
    expect(env.HOME).toMatch(/^\/tmp\/ssebench-agent-[^/]+\/home$/);
    expect(env.SSE_TOOL_API).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(env.SSE_MCP_URL).toBe(`${env.SSE_TOOL_API}/mcp`);
    // The supervisor's own setting is not the agent's.
    expect(env.SSE_SIDECAR_DIR).toBeUndefined();
    expect(JSON.parse(readFileSync(join(d.archive, "task.json"), "utf8")).id).toBe("demo-calc");
    expect(readFileSync(join(d.archive, "check.txt"), "utf8")).toBe("check status 0\n");
    expect(readFileSync(join(d.results, "tool-calls.jsonl"), "utf8")).toContain('"call":"POST /sse/v1/check/build"');
  });

  test("an agent that changes nothing fails, and its exit status is the entrypoint's", async () => {
    dirs = sidecarRun();
    const { run } = await runPair(dirs as RunDirs & { sockets: string }, "exit 3");
    expect(run.exitCode).toBe(3);
    expect(run.result.runtime_result.agent_exit_code).toBe(3);
    expect(run.result.patch_result).toMatchObject({ status: "failed", pov_passed: 0, error_msg: "PoC failed: pocs/poc.txt", error_type: null });
  });

  test("the time limit: an agent that ignores TERM is killed after the grace, status 124, and graded", async () => {
    dirs = sidecarRun({ TIMEOUT: "2" });
    const { run } = await runPair(dirs as RunDirs & { sockets: string }, `trap '' TERM; sleep ${SLEEP + 2}; sleep ${SLEEP + 2}`);
    expect(run.exitCode).toBe(124);
    expect(run.result.runtime_result).toMatchObject({ agent_timeout: true, agent_exit_code: 124 });
    expect(run.result.patch_result.status).toBe("failed");
    expect(sleepsLeft(2)).toEqual([]);
  });

  test("what the agent left running (a setsid'd process, the supervisor itself) is gone before grading", async () => {
    const d = sidecarRun();
    dirs = d;
    const marker = join(d.archive, "late.txt");
    const script = `setsid sh -c 'while :; do echo x >> ${marker}; sleep 0.1; done' & sleep 0.5; exit 0`;
    const { run } = await runPair(d, script);
    expect(run.result.patch_result.status).toBe("failed");
    const size = statSync(marker).size;
    await Bun.sleep(500);
    expect(statSync(marker).size).toBe(size);
    expect(liveProcessesOf(uidOf(users.model))).toEqual([]);
  });

  test("only the first connection counts: a forged report on a second one is closed and changes nothing", async () => {
    const d = sidecarRun();
    dirs = d;
    const go = join(d.base, "go");
    let forged = "";
    const { run } = await runPair(d, `while [ ! -e ${go} ]; do sleep 0.05; done; exit 5`, async () => {
      await Bun.sleep(300);
      forged = await new Promise<string>((resolve) => {
        const s = connect(join(d.sockets, SIDECAR_SOCKETS.control), () => s.write('{"type":"exit","code":0,"timed_out":false}\n'));
        let got = "";
        s.on("data", (c) => (got += c));
        s.on("close", () => resolve(got === "" ? "closed" : got));
        s.on("error", () => resolve("closed"));
      });
      writeFileSync(go, "");
    });
    expect(forged).toBe("closed");
    expect(run.exitCode).toBe(5);
    expect(run.result.runtime_result.agent_exit_code).toBe(5);
  });

  test("a supervisor that says the agent started and then nothing (the agent took it over): the phase ends at the time limit anyway, graded", async () => {
    const d = sidecarRun({ TIMEOUT: "1" });
    dirs = d;
    const task = runEntrypoint(d, ["--mode", "sidecar"]);
    await socketAppears(join(d.sockets, SIDECAR_SOCKETS.control));
    const silent = await fakeSupervisor(d.sockets, ['{"type":"started"}']);
    const run = await task;
    silent.destroy();
    expect(run.exitCode).toBe(124);
    expect(run.result.runtime_result).toMatchObject({ agent_timeout: true, agent_exit_code: 124 });
    expect(run.result.patch_result.status).toBe("failed");
  });

  test("a supervisor that goes away once the agent started is the agent's doing: an exit (1), graded, never an infra error", async () => {
    const d = sidecarRun();
    dirs = d;
    const task = runEntrypoint(d, ["--mode", "sidecar"]);
    await socketAppears(join(d.sockets, SIDECAR_SOCKETS.control));
    (await fakeSupervisor(d.sockets, ['{"type":"started"}'])).end();
    const run = await task;
    expect(run.result.runtime_result).toMatchObject({ agent_timeout: false, agent_exit_code: 1 });
    expect(run.result.patch_result).toMatchObject({ status: "failed", error_type: null });
  });

  test("the sockets are the agent's user's alone; the folder can be crossed, not listed", async () => {
    const d = sidecarRun();
    dirs = d;
    let modes: string[] = [];
    await runPair(d, "sleep 0.3", async () => {
      const uid = uidOf(users.model);
      modes = [statSync(d.sockets), ...Object.values(SIDECAR_SOCKETS).filter((n) => n !== "model.sock").map((n) => statSync(join(d.sockets, n)))].map((st) => `${(st.mode & 0o777).toString(8)}:${st.uid === uid ? "agent" : st.uid}`);
    });
    expect(modes).toEqual(["711:0", "600:agent", "600:agent", "600:agent"]);
  });

  test("no plugin runs in sidecar mode, whatever plugins.yaml enables", async () => {
    const d = sidecarRun({}, { plugins: [{ name: "marker", hook: "before-agent", script: `touch ${join("/tmp", `sidecar-plugin-${process.pid}`)}` }] });
    dirs = d;
    await runPair(d, "exit 0");
    expect(existsSync(`/tmp/sidecar-plugin-${process.pid}`)).toBe(false);
    expect(existsSync(join(d.results, "plugin-results.json"))).toBe(false);
  });

  test("the model: the sidecar's 127.0.0.1 port reaches the run's gateway socket with the run's key", async () => {
    const d = sidecarRun({ SSE_MODEL_PORT: "0" });
    dirs = d;
    const modelDir = join(d.base, "model");
    mkdirSync(modelDir, { mode: 0o700 });
    const gateway = new Gateway();
    const served = gateway.issue("r", scriptedModel(), 10, modelDir);
    const access = gateway.serveRun(served, join(modelDir, MODEL_SOCKET));
    writeFileSync(join(modelDir, MODEL_KEY_FILE), `${served.key}\n`, { mode: 0o600 });
    d.env.SSE_MODEL_DIR = modelDir;
    delete d.env.SSE_BASE_URL;
    delete d.env.SSE_API_KEY;
    const body = JSON.stringify({ model: "scripted-test", messages: [{ role: "user", content: "hi" }] });
    const call = [
      'hp=${SSE_BASE_URL#http://}; exec 3<>"/dev/tcp/${hp%:*}/${hp#*:}"',
      `printf 'POST /v1/chat/completions HTTP/1.1\\r\\nHost: x\\r\\nAuthorization: Bearer %s\\r\\nContent-Type: application/json\\r\\nContent-Length: ${body.length}\\r\\nConnection: close\\r\\n\\r\\n%s' "$SSE_API_KEY" '${body}' >&3`,
      'cat <&3 > "$SSE_ARCHIVE/answer.txt"',
    ].join("; ");
    try {
      const { run } = await runPair(d, `exec bash -c '${call.replaceAll("'", "'\\''")}'`);
      expect(run.result.runtime_result.agent_exit_code).toBe(0);
      expect(readFileSync(join(d.archive, "answer.txt"), "utf8")).toStartWith("HTTP/1.1 200");
      expect(served.totals.answered).toBe(1);
    } finally {
      await access.close();
    }
  });

  test("a sidecar that never connects: SIGUSR1 from the host ends the wait, and the run is not graded (infra)", async () => {
    const d = sidecarRun();
    dirs = d;
    const task = runEntrypoint(d, ["--mode", "sidecar"], { onStart: (proc) => void socketAppears(join(d.sockets, SIDECAR_SOCKETS.control)).then(() => proc.kill("SIGUSR1")) });
    const run = await task;
    expect(run.exitCode).toBe(1);
    expect(run.result.patch_result).toMatchObject({ status: "error", error_type: "infra", error_msg: `Failed to start agent: ${sidecarMsg.gone()}` });
  });

  test("a sidecar that does not connect within SSE_SIDECAR_WAIT: not graded (infra), the message names the socket", async () => {
    const d = sidecarRun({ SSE_SIDECAR_WAIT: "0.5" });
    dirs = d;
    const run = await runEntrypoint(d, ["--mode", "sidecar"]);
    expect(run.result.patch_result).toMatchObject({ status: "error", error_type: "infra", error_msg: `Failed to start agent: ${sidecarMsg.noConnection(join(d.sockets, SIDECAR_SOCKETS.control), 0.5)}` });
  });

  test("an agent command that does not exist: not graded (infra), as in a sandbox", async () => {
    const d = sidecarRun();
    dirs = d;
    const task = runEntrypoint(d, ["--mode", "sidecar"]);
    await socketAppears(join(d.sockets, SIDECAR_SOCKETS.control));
    const sup = startSupervisor(d.sockets, ["no-such-agent"]);
    const [run] = await Promise.all([task, sup.exited]);
    expect(run.result.patch_result).toMatchObject({ status: "error", error_type: "infra", error_msg: `Failed to start agent: ${sidecarMsg.notFound("no-such-agent")}` });
  });

  test("the command lines: sidecar mode takes no agent argv; sidecar-agent needs one", async () => {
    const d = sidecarRun();
    dirs = d;
    const bad = await runEntrypoint(d, ["--mode", "sidecar", "--", "true"]);
    expect(bad.exitCode).toBe(2);
    const sup = Bun.spawnSync([entrypointBin, "sidecar-agent"], { stderr: "pipe" });
    expect(sup.exitCode).toBe(2);
    expect(sup.stderr.toString()).toBe(`${sidecarMsg.usage()}\n`);
  });
});

