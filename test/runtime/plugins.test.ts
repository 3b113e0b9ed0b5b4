/** Plugins at their hooks: validation, selection, users, env, limits, report, and no say over the grade. */
import { afterAll, afterEach, beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { dropUsers, ensureUsers, SLEEP, sleepsLeft, newRun, type RunDirs, runEntrypoint, shAgent, uidOf, users } from "./harness.ts";

let dirs: RunDirs | undefined;
// Each run is several real processes and git calls; a busy 2-vCPU machine needs headroom.
setDefaultTimeout(90_000);
beforeAll(ensureUsers);
afterAll(dropUsers);
afterEach(() => dirs?.cleanup());

const agentMarks = shAgent('touch "$SSE_ARCHIVE/agent-ran"');

describe("plugins.yaml", () => {
  const cases: [string, string, string][] = [
    ["extra key", "- name: a\n  enabled: true\n  hook: on-agent\n  llm: false\n  timeout: 1\n  color: red\n", "plugins.yaml:6: [0].color color is not allowed (schema.json)"],
    ["missing key", "- name: a\n  enabled: true\n  hook: on-agent\n  llm: false\n", "plugins.yaml:1: [0] timeout is required (schema.json)"],
    ["bad hook", "- name: a\n  enabled: true\n  hook: during-agent\n  llm: false\n  timeout: 1\n", "plugins.yaml:3: [0].hook must be one of before-agent, on-agent, after-agent, before-grading, on-grading, after-grading (was \"during-agent\") (schema.json)"],
    ["fractional timeout", "- name: a\n  enabled: true\n  hook: on-agent\n  llm: false\n  timeout: 1.5\n", "plugins.yaml:5: [0].timeout must be an integer (was number) (schema.json)"],
    ["empty file", "", "plugins.yaml:1: must be an array (was null) (schema.json)"],
    ["duplicate", "- {name: a, enabled: true, hook: on-agent, llm: false, timeout: 1}\n- {name: a, enabled: true, hook: on-agent, llm: false, timeout: 1}\n", 'plugins.yaml: plugin "a" is declared twice'],
  ];
  for (const [what, yaml, problem] of cases) {
    test(`${what}: one line naming the file and line, exit 1, the agent never starts`, async () => {
      dirs = newRun({ pluginsYaml: yaml });
      const r = await runEntrypoint(dirs, agentMarks);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toBe(`ssebench-entrypoint: invalid plugin configuration: ${problem}\n`);
      expect(() => readFileSync(join(dirs!.archive, "agent-ran"))).toThrow();
    });
  }
});

test("the parse cache never hides a change: a plugins.yaml broken after a good run is refused", async () => {
  dirs = newRun({ plugins: [{ name: "a", hook: "after-grading", script: "true" }] });
  expect((await runEntrypoint(dirs, agentMarks)).exitCode).toBe(0);
  Bun.spawnSync(["sed", "-i", "s/timeout: 1/timeout: 0/", join(dirs.plugins, "plugins.yaml")]);
  const r = await runEntrypoint(dirs, agentMarks);
  expect(r.exitCode).toBe(1);
  expect(r.stderr).toBe("ssebench-entrypoint: invalid plugin configuration: plugins.yaml:5: [0].timeout must be at least 1 (was 0) (schema.json)\n");
});

describe("running plugins", () => {
  test("hooks in order, users per hook, selection by SSE_PLUGINS, results.json shape", async () => {
    const record = (name: string) => `echo "${name} $(id -u) $SSE_PLUGIN_HOOK" >> "$SSE_ARCHIVE/../order-${name}"; date +%s%N > /dev/null`;
    dirs = newRun({
      plugins: [
        { name: "ba", hook: "before-agent", script: record("ba") },
        // Unlike the reference, the archive is still model's during after-agent: the plugin can write there.
        { name: "aa", hook: "after-agent", script: `${record("aa")}; echo ok > "$SSE_ARCHIVE/after-agent-wrote"` },
        { name: "bg", hook: "before-grading", script: record("bg") },
        { name: "ag", hook: "after-grading", script: `${record("ag")}; test -s "$SSE_RESULTS/result.json"` },
        { name: "off", hook: "before-agent", enabled: false, script: "exit 9" },
      ],
    });
    Bun.spawnSync(["chmod", "777", dirs.base]); // model plugins write their mark beside the archive
    const r = await runEntrypoint(dirs, agentMarks);
    expect(r.exitCode).toBe(0);
    const model = uidOf(users.model);
    const mark = (n: string) => readFileSync(join(dirs!.base, `order-${n}`), "utf8").trim();
    expect(mark("ba")).toBe(`ba ${model} before-agent`);
    expect(mark("aa")).toBe(`aa ${model} after-agent`);
    expect(readFileSync(join(dirs.archive, "after-agent-wrote"), "utf8")).toBe("ok\n");
    expect(mark("bg")).toBe("bg 0 before-grading");
    expect(mark("ag")).toBe("ag 0 after-grading");
    expect(r.pluginResults!.map((p) => `${p.name}:${p.status}`)).toEqual(["ba:ok", "aa:ok", "bg:ok", "ag:ok"]);
    const text = readFileSync(join(dirs.archive, "plugins/results.json"), "utf8");
    expect(text).toEndWith("}\n]\n");
    expect(Object.keys(r.pluginResults![0])).toEqual(["name", "hook", "status", "exit_code", "duration_seconds", "started"]);
  });

  test("SSE_PLUGINS set (even empty) runs exactly the named plugins", async () => {
    dirs = newRun({
      plugins: [
        { name: "one", hook: "after-grading", script: "true" },
        { name: "two", hook: "after-grading", enabled: false, script: "true" },
      ],
      env: { SSE_PLUGINS: " two , nope," },
    });
    let r = await runEntrypoint(dirs, agentMarks);
    expect(r.pluginResults!.map((p) => p.name)).toEqual(["two"]);
    expect(r.stdout).toContain('msg="Requested plugin is not declared in plugins.yaml" plugin=nope');
    dirs.cleanup();
    dirs = newRun({ plugins: [{ name: "one", hook: "after-grading", script: "true" }], env: { SSE_PLUGINS: "" } });
    r = await runEntrypoint(dirs, agentMarks);
    expect(r.pluginResults).toBeUndefined();
  });

  test("LLM variables reach only llm: true plugins", async () => {
    const dump = (n: string) => `env | grep -c '^SSE_API_KEY=sk-test-secret' > "$SSE_ARCHIVE/../key-${n}" || true`;
    dirs = newRun({
      plugins: [
        { name: "plain", hook: "after-grading", script: dump("plain") },
        { name: "smart", hook: "after-grading", llm: true, script: dump("smart") },
        { name: "agentside", hook: "before-agent", script: dump("agentside") },
      ],
    });
    Bun.spawnSync(["chmod", "777", dirs.base]);
    await runEntrypoint(dirs, agentMarks);
    const key = (n: string) => readFileSync(join(dirs!.base, `key-${n}`), "utf8").trim();
    expect([key("plain"), key("smart"), key("agentside")]).toEqual(["0", "1", "0"]);
  });

  test("failed, skipped, hanging and broken plugins: statuses, and no effect on grade or exit status", async () => {
    dirs = newRun({
      plugins: [
        { name: "fails", hook: "before-grading", script: "echo oops; exit 2" },
        { name: "skips", hook: "before-grading", script: 'echo "no model configured" > "$SSE_PLUGIN_SKIP_FILE"' },
        { name: "hangs", hook: "on-grading", timeout: 1, script: `sleep ${SLEEP} & sleep ${SLEEP + 1}` },
        { name: "forger", hook: "after-grading", script: `echo '{"patch_result":{"status":"passed"}}' > "$SSE_RESULTS/result.json"; echo forged > "$SSE_RESULTS/final.patch"` },
      ],
      env: { SSE_PLUGIN_MINUTE: "1" }, // one "minute" = 1 s
    });
    Bun.spawnSync(["rm", join(dirs.plugins, "plugins.yaml")]);
    Bun.spawnSync(["sh", "-c", `cat >> ${join(dirs.plugins, "plugins.yaml")} <<'Y'
- {name: fails, enabled: true, hook: before-grading, llm: false, timeout: 1}
- {name: skips, enabled: true, hook: before-grading, llm: false, timeout: 1}
- {name: hangs, enabled: true, hook: on-grading, llm: false, timeout: 1}
- {name: forger, enabled: true, hook: after-grading, llm: false, timeout: 1}
- {name: absent, enabled: true, hook: after-grading, llm: false, timeout: 1}
- {name: noexec, enabled: true, hook: after-grading, llm: false, timeout: 1}
Y`]);
    Bun.spawnSync(["sh", "-c", `mkdir ${join(dirs.plugins, "noexec")} && echo true > ${join(dirs.plugins, "noexec/run.sh")}`]);
    const r = await runEntrypoint(dirs, shAgent("exit 5"));
    expect(r.exitCode).toBe(5);
    expect(r.result.patch_result).toMatchObject({ status: "failed", error_msg: "PoC failed: pocs/poc.txt" });
    expect(readFileSync(join(dirs.results, "final.patch"), "utf8")).toBe("");
    const by = Object.fromEntries(r.pluginResults!.map((p) => [p.name, p]));
    expect(by.fails).toMatchObject({ status: "failed", exit_code: 2, error: "exit status 2", started: true });
    expect(by.skips).toMatchObject({ status: "skipped", exit_code: 0, reason: "no model configured" });
    expect(by.hangs).toMatchObject({ status: "timeout", exit_code: 124, started: true });
    expect(by.hangs.error).toBeUndefined();
    expect(by.forger.status).toBe("ok");
    expect(by.absent).toMatchObject({ status: "error", started: false, exit_code: 0, duration_seconds: 0 });
    expect(by.absent.error).toBe(`plugin "absent": no run.sh in folder absent: stat ${join(dirs.plugins, "absent/run.sh")}: no such file or directory`);
    expect(by.noexec).toMatchObject({ status: "error", started: false, error: 'plugin "noexec": noexec/run.sh is not an executable file' });
    expect(readFileSync(join(dirs.archive, "plugins/fails.log"), "utf8")).toBe("oops\n");
    expect(sleepsLeft(0, 1)).toEqual([]);
  });

  test("same-hook plugins run in parallel; an on-grading plugin runs beside grading and is awaited", async () => {
    const stamp = `date +%s%N > "$SSE_ARCHIVE/$SSE_PLUGIN_NAME.start"; sleep 1; date +%s%N > "$SSE_ARCHIVE/$SSE_PLUGIN_NAME.end"`;
    dirs = newRun({
      plugins: [
        { name: "p1", hook: "before-grading", script: stamp },
        { name: "p2", hook: "before-grading", script: stamp },
        { name: "beside", hook: "on-grading", script: "sleep 1; echo done" },
      ],
    });
    const r = await runEntrypoint(dirs, agentMarks);
    const t = (f: string) => Number(readFileSync(join(dirs!.archive, f), "utf8")) / 1e6;
    // Each sleeps 1 s; run one after the other, the second would start after the first ended.
    expect(t("p2.start")).toBeLessThan(t("p1.end"));
    expect(t("p1.start")).toBeLessThan(t("p2.end"));
    expect(r.pluginResults!.find((p) => p.name === "beside")).toMatchObject({ status: "ok", hook: "on-grading" });
    expect(readFileSync(join(dirs.archive, "plugins/beside.log"), "utf8")).toBe("done\n");
  });

  test("an on-agent plugin runs beside the agent and is stopped when the agent phase ends", async () => {
    dirs = newRun({
      plugins: [{ name: "watch", hook: "on-agent", script: 'echo started; while :; do sleep 1; done' }],
    });
    const r = await runEntrypoint(dirs, shAgent("sleep 0.5"));
    expect(r.exitCode).toBe(0);
    expect(r.pluginResults).toEqual([
      expect.objectContaining({ name: "watch", hook: "on-agent", status: "failed", started: true, error: "stopped at the end of the agent phase" }),
    ]);
    expect(readFileSync(join(dirs.archive, "plugins/watch.log"), "utf8")).toBe("started\n");
  });
});
