/**
 * `--agent PATH` with an agent folder whose agent.yaml or Dockerfile is not a regular file: one
 * line naming the file, exit 1, before anything is built (never EISDIR's stack, never a build of
 * the file a symlink points at).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { msg } from "../../src/run/messages.ts";
import { ssebench, tempDir } from "../helpers/cli.ts";

const scratch = tempDir("ssebench-bad-agent-files-");
afterAll(() => scratch.cleanup());

function agentFolder(name: string): string {
  const dir = join(scratch.path, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "agent.yaml"), `name: ${name}\nuses_model: false\n`);
  return dir;
}

const run = (dir: string) => ssebench(["run", "--task", "htmlesc-quote-overflow", "--agent", dir, "--results", join(scratch.path, "results")]);

describe("an agent folder's files must be regular files", () => {
  test("a symlinked Dockerfile is refused, naming its target", async () => {
    const dir = agentFolder("linked");
    symlinkSync("/etc/passwd", join(dir, "Dockerfile"));
    const r = await run(dir);
    expect(r.stderr.trim()).toBe(msg.agentInvalid(join(dir, "Dockerfile"), msg.agentFileSymlink("/etc/passwd")));
    expect(r.exitCode).toBe(1);
  });

  test("a dangling Dockerfile symlink is refused the same way, not as a missing Dockerfile", async () => {
    const dir = agentFolder("dangling");
    symlinkSync("nowhere", join(dir, "Dockerfile"));
    const r = await run(dir);
    expect(r.stderr.trim()).toBe(msg.agentInvalid(join(dir, "Dockerfile"), msg.agentFileSymlink("nowhere")));
    expect(r.exitCode).toBe(1);
  });

  test("a folder named Dockerfile is refused", async () => {
    const dir = agentFolder("folderfile");
    mkdirSync(join(dir, "Dockerfile"));
    const r = await run(dir);
    expect(r.stderr.trim()).toBe(msg.agentInvalid(join(dir, "Dockerfile"), msg.agentFileNotFile()));
    expect(r.exitCode).toBe(1);
  });

  test("a folder named agent.yaml is refused, before --model is asked for", async () => {
    const dir = join(scratch.path, "yamlfolder");
    mkdirSync(join(dir, "agent.yaml"), { recursive: true });
    writeFileSync(join(dir, "Dockerfile"), "FROM scratch\n");
    const r = await run(dir);
    expect(r.stderr.trim()).toBe(msg.agentInvalid(join(dir, "agent.yaml"), msg.agentFileNotFile()));
    expect(r.exitCode).toBe(1);
  });

  test("an agent.yaml that is not YAML is named with its line, before --model is asked for", async () => {
    const dir = join(scratch.path, "badyaml");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "agent.yaml"), "name: [\n");
    writeFileSync(join(dir, "Dockerfile"), "FROM scratch\n");
    const r = await run(dir);
    expect(r.stderr.trim()).toBe(
      msg.agentInvalid(join(dir, "agent.yaml"), "Flow sequence in block collection must be sufficiently indented and end with a ] at line 2, column 1:"),
    );
    expect(r.exitCode).toBe(1);
  });
});
