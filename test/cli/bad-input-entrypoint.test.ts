/**
 * `ssebench-entrypoint agent-driver NAME` and `relay HOST:PORT SOCKET` with bad arguments or a bad
 * task brief: one line, exit 2 for the command line, 1 for a brief that does not read; no stack.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { driverMsg } from "../../src/agents/messages.ts";
import { msg } from "../../src/runtime/messages.ts";
import { entrypointBin, runBinary, tempDir } from "../helpers/cli.ts";

const scratch = tempDir("ssebench-bad-entrypoint-");
afterAll(() => scratch.cleanup());
const entrypoint = (args: string[], env: Record<string, string> = {}) => runBinary(entrypointBin, args, { env });
const DRIVERS = ["claude-code", "codex", "opencode", "gemini-cli", "qwen-code", "pi", "cline", "kilo"];

describe("ssebench-entrypoint agent-driver", () => {
  test("an unknown name, or none, lists the drivers; exit 2", async () => {
    for (const [args, name] of [[["nosuch"], "nosuch"], [[], ""]] as const) {
      const r = await entrypoint(["agent-driver", ...args]);
      expect(r.stderr.trim()).toBe(driverMsg.unknownDriver(name, DRIVERS));
      expect(r.exitCode).toBe(2);
    }
  });

  test("a known name with extra arguments names them, not the agent; exit 2", async () => {
    const r = await entrypoint(["agent-driver", "codex", "extra"]);
    expect(r.stderr.trim()).toBe(driverMsg.extraArgs(["extra"]));
    expect(r.exitCode).toBe(2);
  });

  test("a task brief that is missing, not JSON or not an object is one line naming it; exit 1", async () => {
    const bad = join(scratch.path, "bad.json");
    writeFileSync(bad, "{bad");
    const list = join(scratch.path, "list.json");
    writeFileSync(list, "[]");
    const missing = join(scratch.path, "missing.json");
    const cases: [string, string][] = [
      [missing, `ENOENT: no such file or directory, open '${missing}'`],
      [bad, "JSON Parse error: Expected '}'"],
      [list, "not a JSON object"],
    ];
    for (const [file, detail] of cases) {
      const r = await entrypoint(["agent-driver", "codex"], { SSE_ARCHIVE: scratch.path, SSE_TASK_FILE: file });
      expect(r.stderr.trim()).toBe(driverMsg.badTaskFile(file, detail));
      expect(r.exitCode).toBe(1);
    }
  });
});

describe("ssebench-entrypoint relay", () => {
  test("a port past 65535 is a malformed command line, exit 2", async () => {
    const r = await entrypoint(["relay", "127.0.0.1:99999", join(scratch.path, "x.sock")]);
    expect(r.stderr.trim()).toBe(msg.relayBadPort("99999"));
    expect(r.exitCode).toBe(2);
  });

  test("a missing socket or an extra argument is the usage line, exit 2", async () => {
    for (const args of [["127.0.0.1:0"], ["127.0.0.1:0", "/tmp/x.sock", "extra"], ["host:abc", "/tmp/x.sock"]]) {
      const r = await entrypoint(["relay", ...args]);
      expect(r.stderr.trim()).toBe(msg.relayUsage());
      expect(r.exitCode).toBe(2);
    }
  });
});
