import { describe, expect, test } from "bun:test";
import { msg } from "../../src/run/messages.ts";
import { defaultCpus, parseRunOptions, repeatedFlag } from "../../src/run/options.ts";
import { Argv } from "../../src/argv.ts";

const noFlags = Argv.read([], new Set());
const runFlags = (words: string[]) => Argv.read(words, new Set(["plugin", "task", "run-id", "backend", "constraint"]));

describe("run options", () => {
  test("defaults are the documented ones", () => {
    const o = parseRunOptions({ task: "t", agent: "dummy" }, noFlags, {});
    expect(o).toMatchObject({ mode: undefined, difficulty: 2, timeout: 3600, runTimeout: 2 * 3600 + 1800, egress: "restricted", results: "results" });
    expect(o.resources).toEqual({ cpus: defaultCpus(), memory: "4g", pids_limit: 4096, disk: "20g" });
    expect(o.plugins).toBeUndefined();
    expect(parseRunOptions({ task: "t", agent: "dummy", timeout: "60" }, noFlags, {}).runTimeout).toBe(1920);
  });

  test("--grading-timeout limits grading apart from the agent (default: --timeout); the run's default limit adds both", () => {
    expect(parseRunOptions({ task: "t", agent: "dummy", timeout: "60" }, noFlags, {})).toMatchObject({ timeout: 60, gradingTimeout: 60, runTimeout: 1920 });
    expect(parseRunOptions({ task: "t", agent: "dummy", timeout: "60", gradingTimeout: "300" }, noFlags, {})).toMatchObject({ timeout: 60, gradingTimeout: 300, runTimeout: 2160 });
    expect(() => parseRunOptions({ task: "t", agent: "dummy", gradingTimeout: "0" }, noFlags, {})).toThrow("--grading-timeout must be a positive whole number (got '0')");
  });

  test("--plugin is repeatable and takes comma lists; absent is not the same as empty", () => {
    expect(repeatedFlag(runFlags(["--plugin", "a", "--x", "--plugin=b,c", "--", "--plugin", "d"]), "plugin")).toEqual(["a", "b", "c"]);
    expect(repeatedFlag(runFlags(["--plugin="]), "plugin")).toEqual([]);
    expect(repeatedFlag(runFlags(["--task", "x"]), "plugin")).toBeUndefined();
  });

  test("SSEBENCH_EGRESS gives the default egress; a bad value is exit 1", () => {
    expect(parseRunOptions({ task: "t", agent: "a" }, noFlags, { SSEBENCH_EGRESS: "open" }).egress).toBe("open");
    expect(parseRunOptions({ task: "t", agent: "a", egress: "restricted" }, noFlags, { SSEBENCH_EGRESS: "bad" }).egress).toBe("restricted");
    expect(() => parseRunOptions({ task: "t", agent: "a" }, noFlags, { SSEBENCH_EGRESS: "bad" })).toThrow(msg.egressSetting("bad"));
  });

  test("--backend is local (default) or swarm; --constraint is repeatable, whole (commas kept), swarm only", () => {
    expect(parseRunOptions({ task: "t", agent: "a" }, noFlags, {})).toMatchObject({ backend: "local", constraints: [] });
    const args = ["--backend", "swarm", "--constraint", "node.labels.role==runner", "--constraint=node.hostname != a,b"];
    expect(parseRunOptions({ task: "t", agent: "a", backend: "swarm" }, runFlags(args), {}).constraints).toEqual(["node.labels.role==runner", "node.hostname != a,b"]);
    expect(() => parseRunOptions({ task: "t", agent: "a", backend: "k8s" }, noFlags, {})).toThrow(msg.choice("--backend", "k8s", ["local", "swarm"]));
    expect(() => parseRunOptions({ task: "t", agent: "a", backend: "swarm" }, runFlags(["--constraint", "role"]), {})).toThrow(msg.constraintSyntax("role"));
    expect(() => parseRunOptions({ task: "t", agent: "a" }, runFlags(["--constraint", "a==b"]), {})).toThrow(msg.constraintNeedsSwarm());
  });

  test("names used as folders must be plain", () => {
    expect(() => parseRunOptions({ task: "../x", agent: "a" }, noFlags, {})).toThrow(msg.pathSegment("--task", "../x"));
    expect(() => parseRunOptions({ task: "t", agent: "a", model: "a/b" }, noFlags, {})).toThrow(msg.pathSegment("--model", "a/b"));
  });

  test("limits are checked and normalised", () => {
    const o = parseRunOptions({ task: "t", agent: "a", cpus: "1.5", memory: "512M", pidsLimit: "100", disk: "800M" }, noFlags, {});
    expect(o.resources).toEqual({ cpus: 1.5, memory: "512m", pids_limit: 100, disk: "800m" });
    expect(() => parseRunOptions({ task: "t", agent: "a", disk: "lots" }, noFlags, {})).toThrow(msg.disk("lots"));
    expect(() => parseRunOptions({ task: "t", agent: "a", pidsLimit: "0" }, noFlags, {})).toThrow(msg.positiveInt("--pids-limit", "0"));
  });

  test("time limits stay within what a timer can hold (a huge one used to stop the run at once)", () => {
    expect(parseRunOptions({ task: "t", agent: "a", timeout: "1000000" }, noFlags, {}).runTimeout).toBe(2_001_800);
    expect(() => parseRunOptions({ task: "t", agent: "a", timeout: "99999999999999999999" }, noFlags, {})).toThrow(
      msg.tooManySeconds("--timeout", "99999999999999999999", 1_000_000),
    );
    expect(() => parseRunOptions({ task: "t", agent: "a", runTimeout: "2000001" }, noFlags, {})).toThrow(
      msg.tooManySeconds("--run-timeout", "2000001", 2_000_000),
    );
  });

  test("--plugin takes the next word even if it starts with '-', as every string flag does", () => {
    // It used to skip it, so `--plugin --run-id x` silently dropped both the plugin and the run ID.
    expect(repeatedFlag(runFlags(["--plugin", "--run-id", "x"]), "plugin")).toEqual(["--run-id"]);
  });

  test("run takes no positional words", () => {
    expect(() => parseRunOptions({ _: ["stray"], task: "t", agent: "a" }, noFlags, {})).toThrow(msg.unexpectedArgument("stray"));
  });
});
