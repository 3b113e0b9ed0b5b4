/** The writable layer's bound: the quota flag, the watch (against a scripted engine), sizes. The real engine is in test/e2e/walls.test.ts. */
import { describe, expect, test } from "bun:test";
import { runArgs } from "../../../src/run/backends/container.ts";
import { quotaSupported, sizeBytes, watchDisk } from "../../../src/run/backends/disk-watch.ts";
import type { Docker, DockerResult } from "../../../src/run/backends/docker.ts";

/** An engine whose container layer reports the given sizes, one per inspect; it records the calls. */
class LayerEngine implements Docker {
  calls: string[][] = [];
  constructor(private readonly sizes: number[], private readonly createCode = 0) {}
  async call(args: readonly string[]): Promise<DockerResult> {
    this.calls.push([...args]);
    if (args[1] === "create") return { code: this.createCode, stdout: this.createCode === 0 ? "c0ffee\n" : "", stderr: this.createCode === 0 ? "" : "Error response from daemon: --storage-opt is supported only for overlay over xfs with 'pquota' mount option\n" };
    if (args[1] === "inspect") return { code: 0, stdout: `${this.sizes.shift() ?? 0}\n`, stderr: "" };
    return { code: 0, stdout: "", stderr: "" };
  }
}

const spec = { image: "img", runDir: "/r", archiveDir: "/r/archive", env: {}, labels: {}, resources: { cpus: 1, memory: "1g", pids_limit: 10, disk: "20g" }, platform: undefined, referencePatch: undefined, command: ["echo"] };

describe("the writable layer's bound", () => {
  test("with a quota the container gets --storage-opt size=<--disk>; without, none", () => {
    const withQuota = runArgs({ ...spec, diskQuota: true }, "/tmp/cid");
    expect(withQuota.slice(withQuota.indexOf("--storage-opt"), withQuota.indexOf("--storage-opt") + 2)).toEqual(["--storage-opt", "size=20g"]);
    expect(runArgs(spec, "/tmp/cid")).not.toContain("--storage-opt");
  });

  test("the engine is asked by creating a container with a quota (removed again); a refusal means no quota", async () => {
    const yes = new LayerEngine([], 0);
    expect(await quotaSupported(yes, "img")).toBe(true);
    expect(yes.calls).toEqual([
      ["container", "create", "--storage-opt", "size=1g", "--network", "none", "--label", "ssebench.probe=disk-quota", "img"],
      ["rm", "--force", "c0ffee"],
    ]);
    expect(await quotaSupported(new LayerEngine([], 125), "img")).toBe(false);
  });

  test("the watch reads the layer's size until it is past the bound, then stops the trial once", async () => {
    const engine = new LayerEngine([100, 900, 1500, 2000]);
    let stops = 0;
    const watch = watchDisk(engine, () => "abc", 1000, async () => void stops++, { firstMs: 1, everyMs: 1 });
    for (let i = 0; i < 200 && watch.exceeded() === undefined; i++) await Bun.sleep(5);
    watch.end();
    expect(watch.exceeded()).toBe(1500);
    expect(stops).toBe(1);
    expect(engine.calls.filter((c) => c[1] === "inspect")).toHaveLength(3);
    expect(engine.calls[0]).toEqual(["container", "inspect", "--size", "--format", "{{.SizeRw}}", "abc"]);
  });

  test("a watch that ends before the bound is reached stops nothing", async () => {
    const engine = new LayerEngine([10, 10, 10]);
    let stops = 0;
    const watch = watchDisk(engine, () => "abc", 1000, async () => void stops++, { firstMs: 1, everyMs: 1 });
    await Bun.sleep(30);
    watch.end();
    const seen = engine.calls.length;
    await Bun.sleep(30);
    expect(engine.calls.length).toBe(seen);
    expect(stops).toBe(0);
    expect(watch.exceeded()).toBeUndefined();
  });

  test("docker sizes in bytes", () => {
    expect([sizeBytes("512"), sizeBytes("4k"), sizeBytes("800m"), sizeBytes("20G"), sizeBytes("1t"), sizeBytes("lots")]).toEqual([512, 4096, 800 * 1024 ** 2, 20 * 1024 ** 3, 1024 ** 4, 0]);
  });
});
