import { afterAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "../../src/agents/cli-process.ts";
import { tempDir } from "../helpers/cli.ts";

const dir = tempDir("ssebench-cli-process-");
afterAll(() => dir.cleanup());

/** The pipes this process holds open (`pipe:[inode]`). */
function openPipes(): string[] {
  return readdirSync("/proc/self/fd").flatMap((fd) => {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      return target.startsWith("pipe:") ? [target] : [];
    } catch {
      return [];
    }
  });
}

async function run(script: string, stdin?: string): Promise<{ lines: string[]; code: number; raw: string }> {
  const lines: string[] = [];
  const rawFile = join(dir.path, "raw.jsonl");
  const exit = await runCli({ argv: ["bash", "-c", script], env: { PATH: process.env.PATH ?? "/usr/bin:/bin" }, cwd: dir.path, stdin, rawFile, onLine: (l) => lines.push(l) });
  return { lines, code: exit.code, raw: readFileSync(rawFile, "utf8") };
}

describe("running an agent CLI", () => {
  test("the prompt arrives through a pipe (a CLI that reads only piped input finds it), whole even when larger than a pipe's buffer", async () => {
    const big = "x".repeat(300_000);
    const r = await run('[ -p /dev/stdin ] && echo pipe; wc -c | tr -d " "', big);
    expect(r.lines).toEqual(["pipe", "300000"]);
    expect(r.raw).toBe("pipe\n300000\n");
  });

  test("a CLI that exits without reading its prompt ends the run; no descriptor of the pipe is left open", async () => {
    const before = new Set(openPipes());
    const r = await run("exit 0", "y".repeat(300_000));
    expect(r.code).toBe(0);
    expect(openPipes().filter((p) => !before.has(p))).toEqual([]);
  });

  test("without a prompt stdin is closed; lines are read as they come and the exit status is the CLI's", async () => {
    const r = await run("cat; printf 'a\\n\\nb'; exit 3");
    expect(r).toMatchObject({ lines: ["a", "b"], code: 3 });
  });
});
