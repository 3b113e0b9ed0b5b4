/** models/*.yaml: the shipped models load; each problem is one line naming the file and line. */
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { msg } from "../../src/gateway/messages.ts";
import { listModelNames, loadModelFile } from "../../src/gateway/models.ts";
import { repoRoot, tempDir } from "../helpers/cli.ts";

const dir = tempDir("ssebench-models-");
afterAll(() => dir.cleanup());
const models = join(repoRoot, "models");

async function problem(text: string, env: Record<string, string> = { K: "x" }, name = "m"): Promise<string> {
  const file = join(dir.path, `${name}.yaml`);
  writeFileSync(file, text);
  try {
    await loadModelFile(file, env);
  } catch (e) {
    return (e as Error).message;
  }
  return "loaded";
}

const GOOD = "name: m\nprovider: openai\nupstream_model: u\nbase_url: https://api.example.org/v1\nkey_env: K\nwires: [chat]\nprice: {input: 1, output: 2}\n";

describe("model files", () => {
  test("the shipped models load (keys from the environment; the scripted one needs none)", async () => {
    expect(listModelNames(models)).toEqual(["claude-sonnet-4-6", "gpt-5", "scripted"]);
    const claude = await loadModelFile(join(models, "claude-sonnet-4-6.yaml"), { ANTHROPIC_API_KEY: "a" });
    expect(claude.config).toEqual({ name: "claude-sonnet-4-6", provider: "anthropic", upstream_model: "claude-sonnet-4-6", base_url: "https://api.anthropic.com/v1", key_env: "ANTHROPIC_API_KEY", wires: ["anthropic"], price: { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 }, max_output_tokens: 64000 });
    expect(claude.key).toBe("a");
    const scripted = await loadModelFile(join(models, "scripted.yaml"), {});
    expect(scripted.script?.turns).toHaveLength(3);
    expect(scripted.key).toBeUndefined();
  });

  test("a good file loads; price cache fields default to 0", async () => {
    expect(await problem(GOOD)).toBe("loaded");
  });

  test("an unknown key: one line with file and line", async () => {
    expect(await problem(`${GOOD}colour: red\n`)).toBe(msg.modelFile(join(dir.path, "m.yaml"), 8, "colour: unknown key"));
  });

  test("a missing key variable: one line naming the variable", async () => {
    expect(await problem(GOOD, {})).toBe(msg.keyMissing(join(dir.path, "m.yaml"), "m", "K"));
  });

  test("a bad wire, a missing field, a name that is not the file's, provider rules", async () => {
    const file = join(dir.path, "m.yaml");
    expect(await problem(GOOD.replace("[chat]", "[chat, grpc]"))).toBe(msg.modelFile(file, 6, "wires[1]: Input should be 'anthropic', 'chat', 'gemini' or 'responses'"));
    expect(await problem(GOOD.replace("price: {input: 1, output: 2}\n", ""))).toBe(msg.modelFile(file, 1, "price: Field required"));
    expect(await problem(GOOD.replace("name: m", "name: n"))).toBe(msg.modelNameMismatch(file, "n", "m"));
    expect(await problem(GOOD.replace("key_env: K\n", ""))).toBe(`${file}: key_env: required with provider: openai`);
    expect(await problem("name: m\nprovider: scripted\nwires: [chat]\nprice: {input: 1, output: 2}\nscript: nope.yaml\n")).toBe(msg.scriptMissing(file, "nope.yaml"));
  });

  test("a bad script is one line naming the script file", async () => {
    writeFileSync(join(dir.path, "s.yaml"), "turns: []\nusage: {input: 1, output: 1}\n");
    expect(await problem("name: m\nprovider: scripted\nwires: [chat]\nprice: {input: 1, output: 2}\nscript: s.yaml\n")).toBe(
      msg.modelFile(join(dir.path, "s.yaml"), 1, "turns: List should have at least 1 item after validation, not 0"),
    );
  });
});
