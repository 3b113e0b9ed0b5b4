/**
 * The agent store's fill protocol against a stand-in engine (the docker CLI is its neighbour): the
 * lock container, the second look under it, a half-filled volume made again, waiting for another
 * filler, a dead filler's lock taken over. The real engine: test/e2e/agent-store.test.ts.
 */
import { describe, expect, test } from "bun:test";
import { ensureStore, storeMountFields, storeVolumeName } from "../../../src/run/backends/agent-store.ts";
import type { Docker, DockerResult } from "../../../src/run/backends/docker.ts";

const V = "ssebench-agent-x-0123456789abcdef";
const LOCK = `${V}-lock`;

/** An engine with containers by name and volumes; `onCall` lets a test change it between calls. */
class Engine implements Docker {
  readonly calls: string[][] = [];
  readonly containers = new Map<string, string>();
  readonly volumes = new Set<string>();
  /** volumes a container mounts: the engine refuses to remove them */
  readonly mounted = new Set<string>();
  onCall: (args: string[]) => void = () => {};
  async call(args: readonly string[]): Promise<DockerResult> {
    const a = [...args];
    this.calls.push(a);
    this.onCall(a);
    const ok = (stdout = ""): DockerResult => ({ code: 0, stdout, stderr: "" });
    if (a[0] === "container" && a[1] === "create") {
      const name = a[a.indexOf("--name") + 1] as string;
      if (this.containers.has(name)) return { code: 1, stdout: "", stderr: `Error response from daemon: Conflict. The container name "/${name}" is already in use` };
      this.containers.set(name, new Date().toISOString());
      return ok("cid\n");
    }
    if (a[0] === "container" && a[1] === "inspect") {
      const created = this.containers.get(a.at(-1) as string);
      return created ? ok(`${created}\n`) : { code: 1, stdout: "", stderr: "No such container" };
    }
    if (a[0] === "rm") {
      this.containers.delete(a.at(-1) as string);
      return ok();
    }
    if (a[0] === "volume") {
      const name = a.at(-1) as string;
      if (a[1] === "inspect") return this.volumes.has(name) ? ok(name) : { code: 1, stdout: "", stderr: "No such volume" };
      if (a[1] === "create") this.volumes.add(name);
      if (a[1] === "rm" && this.mounted.has(name)) return { code: 1, stdout: "", stderr: `Error response from daemon: remove ${name}: volume is in use - [abc]` };
      if (a[1] === "rm") this.volumes.delete(name);
      return ok();
    }
    return ok();
  }
  verbs = () => this.calls.map((c) => c.slice(0, 2).join(" "));
}

function store(engine: Engine, marked: { value: boolean }, fills: { n: number; marks?: number }) {
  return {
    mark: async () => {
      fills.marks = (fills.marks ?? 0) + 1;
      marked.value = true;
    },
    docker: engine,
    volume: V,
    labels: { "ssebench.layer": "agent store" },
    lockImage: "sha256:files",
    ready: async () => marked.value && engine.volumes.has(V),
    fill: async () => {
      fills.n++;
      marked.value = true;
    },
  };
}

describe("agent stores", () => {
  test("names: one volume per agent and inputs; the trial's mount is read-only and never filled from its image", () => {
    expect(storeVolumeName("Claude Code", "79979cf857a440ae15ca")).toBe("ssebench-agent-claude-code-79979cf857a440ae");
    expect(storeMountFields(V)).toEqual(["type=volume", `source=${V}`, "target=/opt/agent", "readonly", "volume-nocopy"]);
  });

  test("a complete store: nothing is locked or filled", async () => {
    const engine = new Engine();
    engine.volumes.add(V);
    const fills = { n: 0 };
    await ensureStore(store(engine, { value: true }, fills));
    expect(fills.n).toBe(0);
    expect(engine.calls).toEqual([]);
  });

  test("filled under the lock: a half-filled volume of a filler that died is made again, labelled; the lock is removed", async () => {
    const engine = new Engine();
    engine.volumes.add(V);
    const fills = { n: 0 };
    await ensureStore(store(engine, { value: false }, fills));
    expect(fills.n).toBe(1);
    expect(engine.verbs()).toEqual(["container create", "volume inspect", "volume rm", "volume create", "rm --force"]);
    expect(engine.calls[0]).toEqual(["container", "create", "--name", LOCK, "--network", "none", "--label", `ssebench.agent-store-lock=${V}`, "sha256:files"]);
    expect(engine.calls[3]).toEqual(["volume", "create", "--label", "ssebench.layer=agent store", "--label", `ssebench.agent-store=${V}`, V]);
    expect(engine.containers.size).toBe(0);
  });

  test("a store a trial mounts that lost its marker (a files image built under the marker's name): marked again, never removed nor filled", async () => {
    const engine = new Engine();
    engine.volumes.add(V);
    engine.mounted.add(V);
    const fills: { n: number; marks?: number } = { n: 0 };
    await ensureStore(store(engine, { value: false }, fills));
    expect([fills.n, fills.marks]).toEqual([0, 1]);
    expect(engine.verbs()).toEqual(["container create", "volume inspect", "volume rm", "rm --force"]);
    expect(engine.volumes.has(V)).toBe(true);
    expect(engine.containers.size).toBe(0);
  });

  test("another filler holds the lock: wait for it, then use its store", async () => {
    const engine = new Engine();
    engine.containers.set(LOCK, new Date().toISOString());
    const marked = { value: false };
    const fills = { n: 0 };
    let polls = 0;
    engine.onCall = (a) => {
      // the other filler finishes while we wait
      if (a[1] === "inspect" && ++polls === 2) {
        engine.volumes.add(V);
        marked.value = true;
        engine.containers.delete(LOCK);
      }
    };
    await ensureStore(store(engine, marked, fills));
    expect(fills.n).toBe(0);
    expect(engine.verbs().filter((v) => v === "container create")).toHaveLength(2);
  });

  test("the lock of a filler that died long ago is taken over", async () => {
    const engine = new Engine();
    engine.containers.set(LOCK, new Date(Date.now() - 16 * 60_000).toISOString());
    const fills = { n: 0 };
    await ensureStore(store(engine, { value: false }, fills));
    expect(fills.n).toBe(1);
    expect(engine.verbs().slice(0, 4)).toEqual(["container create", "container inspect", "rm --force", "container create"]);
  });

  test("a fill that fails leaves no lock behind and says why", async () => {
    const engine = new Engine();
    const failing = { ...store(engine, { value: false }, { n: 0 }), fill: () => Promise.reject(new Error("disk full")) };
    await expect(ensureStore(failing)).rejects.toThrow("disk full");
    expect(engine.containers.size).toBe(0);
  });

  test("an engine that refuses the lock for another reason: one line", async () => {
    const engine = new Engine();
    engine.call = async (args) => ({ code: 1, stdout: "", stderr: args[1] === "create" ? "Error response from daemon: No such image: sha256:files\n" : "" });
    await expect(ensureStore(store(engine, { value: false }, { n: 0 }))).rejects.toThrow(
      `Filling the agent store ${V} failed: \`docker container create\` exited with status 1: Error response from daemon: No such image: sha256:files`,
    );
  });
});
