/** What `ssebench images` makes of an image's labels and names, and which images prune would remove. */
import { describe, expect, test } from "bun:test";
import { describeImage, describeStore, fromName, type ImageEntry, listImages, parseSize } from "../../src/images/inventory.ts";
import { msg } from "../../src/images/messages.ts";
import { candidates, notNeeded, removeImages } from "../../src/images/prune.ts";
import type { Docker, DockerResult } from "../../src/run/backends/docker.ts";
import { humanSize, renderCandidates, renderImages } from "../../src/images/render.ts";

const R = "ghcr.io/42-b3yond-6ug/ssebench";
const built = (layer?: string, extra: Record<string, string> = {}) => ({ "ssebench.inputs": "abc", ...(layer ? { "ssebench.layer": layer } : {}), ...extra });

function image(tags: string[], labels: Record<string, string>, more: Partial<ImageEntry> = {}): ImageEntry {
  const entry = describeImage(`sha256:${"1".repeat(64)}`, tags, labels, 1_270_000_000, "2026-12-01T00:00:00Z");
  if (!entry) throw new Error("not ssebench's");
  return { ...entry, ...more };
}

describe("describing an image", () => {
  test("names say what images built before the labels are", () => {
    expect(fromName(`${R}/tool/htmlesc-quote-overflow:0.1.0`)).toEqual({ kind: "tool layer", task: "htmlesc-quote-overflow", version: "0.1.0" });
    expect(fromName(`${R}/agent-files/codex:0.171.0`)).toEqual({ kind: "agent files", agent: "codex", version: "0.171.0" });
    expect(fromName(`${R}/agent-sidecar/python-agent:0.1.0`)).toEqual({ kind: "sidecar image", agent: "python-agent", version: "0.1.0" });
    expect(fromName(`${R}/agent-claude-code/t1:2.1.332`)).toEqual({ kind: "agent layer", agent: "claude-code", task: "t1", version: "2.1.332" });
    expect(fromName("case/demo/t1:demo-v1")).toEqual({ kind: "case image", dataset: "demo", task: "t1", version: "demo-v1" });
    expect(fromName("localhost:5000/x/y")).toEqual({ version: undefined });
  });

  test("labels win over names (a child inherits its parent's task and sets its own)", () => {
    const agent = image([`${R}/agent-x/t1:1.0.0`], built("agent layer", { "ssebench.task": "T-1", "ssebench.agent": "x", "ssebench.dataset": "demo", "ssebench.version": "0.2.0" }));
    expect(agent).toMatchObject({ kind: "agent layer", task: "T-1", agent: "x", tagVersion: "1.0.0", builtBy: "0.2.0" });
    expect(agent.dataset).toBeUndefined();
    expect(image([], built("tool layer", { "ssebench.task": "t2" }))).toMatchObject({ kind: "tool layer", task: "t2", tags: [] });
    expect(image([], built())).toMatchObject({ kind: "layer" });
  });

  test("only images with ssebench's labels are ssebench's; a base label alone counts only on a base image's name", () => {
    expect(describeImage("sha256:1", ["debian:bookworm"], {}, 1, "")).toBeUndefined();
    expect(describeImage("sha256:1", ["case/demo/t1:demo-v1"], { "ssebench.base.inputs": "x" }, 1, "")).toBeUndefined();
    expect(describeImage("sha256:1", [], { "ssebench.base.inputs": "x" }, 1, "")).toBeUndefined();
    expect(describeImage("sha256:1", [`${R}/base-generic-c:1.0.0`], { "ssebench.base.inputs": "x" }, 1, "")).toMatchObject({ kind: "base image" });
  });

  test("sizes in the engine's decimal units", () => {
    expect([parseSize("1.27GB"), parseSize("185.4MB"), parseSize("38.16kB"), parseSize("0B"), parseSize("n/a")]).toEqual([1_270_000_000, 185_400_000, 38_160, 0, 0]);
    expect([humanSize(1_270_000_000), humanSize(38_160), humanSize(0), humanSize(999)]).toEqual(["1.27 GB", "38.2 kB", "0 B", "999 B"]);
  });
});

describe("what prune removes", () => {
  const needs = { version: "0.2.0", agents: new Map<string, string | undefined>([["dummy", "1.0.0"], ["broken", undefined]]) };

  test("each reason, in its exact words", () => {
    expect(notNeeded(image([], built("tool layer")), needs)).toBe("superseded: a newer build has its name");
    expect(notNeeded(image([`${R}/tool/t1:0.1.0`], built("tool layer")), needs)).toBe("a tool layer of ssebench 0.1.0 (this is 0.2.0)");
    expect(notNeeded(image([`${R}/agent-files/gone:1.0.0`], built("agent files")), needs)).toBe("agent gone is not among this ssebench's agents");
    expect(notNeeded(image([`${R}/agent-dummy/t1:0.9.0`], built("agent layer")), needs)).toBe("agent dummy 0.9.0 (its agent.yaml is now 1.0.0)");
    expect(notNeeded(image([`${R}/agent-sidecar/gone:1.0.0`], built("sidecar image")), needs)).toBe("agent gone is not among this ssebench's agents");
    expect(notNeeded(image([`${R}/agent-sidecar/dummy:0.9.0`], built("sidecar image")), needs)).toBe("agent dummy 0.9.0 (its agent.yaml is now 1.0.0)");
  });

  test("kept: current layers, images a container uses, named case and base images, agents whose agent.yaml does not load", () => {
    const kept = [
      image([`${R}/tool/t1:0.2.0`], built("tool layer")),
      image([`${R}/agent-dummy/t1:1.0.0`], built("agent layer")),
      image([`${R}/agent-sidecar/dummy:1.0.0`], built("sidecar image", { "ssebench.agent": "dummy" })),
      image([`${R}/agent-broken/t1:7`], built("agent layer")),
      image([], built("tool layer"), { containers: 1 }),
      image([`${R}/tool/t1:0.1.0`], built("tool layer"), { containers: 2 }),
      image(["case/demo/t1:old-version"], built("case image")),
      image([`${R}/base-generic-c:0.9.0`], { "ssebench.base.inputs": "x" }),
    ];
    expect(kept.map((i) => notNeeded(i, needs))).toEqual(kept.map(() => undefined));
    expect(candidates(kept, needs)).toEqual([]);
  });

  test("agent stores: listed by their volume's labels; pruned when no kept agent files image marks them and no container mounts them", () => {
    const V = "ssebench-agent-dummy-0123456789abcdef";
    const volume = (name: string, links = "0") => ({ Name: name, Labels: `ssebench.layer=agent store,ssebench.agent=dummy,ssebench.agent-store=${name}`, Links: links, Size: "402.3MB" });
    expect(describeStore(volume(V))).toMatchObject({ id: V, tags: [V], kind: "agent store", agent: "dummy", size: 402_300_000, unique: 402_300_000, containers: 0 });
    expect(describeStore({ Name: "other", Labels: "", Links: "0", Size: "1B" })).toBeUndefined();
    const store = describeStore(volume(V)) as ImageEntry;
    const marker = image([`${R}/agent-files/dummy:1.0.0`], built("agent files", { "ssebench.agent-store": V }));
    expect(candidates([marker, store], needs)).toEqual([]);
    // Chosen by a label its marker lacks (images prune --label ssebench.layer=agent store): still marked.
    expect(candidates([store], needs, [marker, store])).toEqual([]);
    const old = describeStore(volume("ssebench-agent-dummy-fedcba9876543210")) as ImageEntry;
    expect(candidates([marker, store, old], needs)).toEqual([{ image: old, reason: msg.storeUnmarked() }]);
    expect(candidates([marker, describeStore(volume("ssebench-agent-dummy-fedcba9876543210", "1")) as ImageEntry], needs)).toEqual([]);
    // The marker of an agent that is gone goes, and its store with it.
    const gone = image([`${R}/agent-files/gone:1.0.0`], built("agent files", { "ssebench.agent-store": "ssebench-agent-gone-0123456789abcdef" }));
    const goneStore = { ...(describeStore(volume("ssebench-agent-gone-0123456789abcdef")) as ImageEntry), agent: "gone" };
    expect(candidates([gone, goneStore], needs).map((c) => c.reason)).toEqual(["agent gone is not among this ssebench's agents", "no agent files image marks it: its agent's files changed, or the agent is gone"]);
  });

  test("prune removes a store's volume, but not while a run fills it (its lock container exists)", async () => {
    const volume = (name: string) => describeStore({ Name: name, Labels: `ssebench.layer=agent store,ssebench.agent-store=${name}`, Links: "0", Size: "1MB" }) as ImageEntry;
    const [filling, done] = [volume("ssebench-agent-a-0000000000000001"), volume("ssebench-agent-a-0000000000000002")];
    const calls: string[] = [];
    const engine: Docker = {
      call: async (args: readonly string[]): Promise<DockerResult> => {
        calls.push(args.join(" "));
        const locked = args[1] === "inspect" && args.at(-1) === `${filling.id}-lock`;
        return { code: args[1] === "inspect" && !locked ? 1 : 0, stdout: "", stderr: "" };
      },
    };
    const out = await removeImages(engine, [filling, done].map((image) => ({ image, reason: msg.storeUnmarked() })));
    expect(out.map((r) => [r.image.id, r.removed, r.error])).toEqual([
      [filling.id, false, msg.storeFilling()],
      [done.id, true, undefined],
    ]);
    expect(calls.filter((c) => c.startsWith("volume"))).toEqual([`volume rm ${done.id}`]);
  });

  test("a disk usage the engine refuses while it runs another is asked again", async () => {
    const answers: DockerResult[] = [
      { code: 1, stdout: "", stderr: "Error response from daemon: a disk usage operation is already running" },
      { code: 0, stdout: `[]\n[{"Name":"ssebench-agent-a-0000000000000001","Labels":"ssebench.agent-store=ssebench-agent-a-0000000000000001","Links":"0","Size":"1MB"}]\n`, stderr: "" },
    ];
    const calls: string[] = [];
    const engine: Docker = { call: async (args: readonly string[]) => (calls.push(args.slice(0, 2).join(" ")), answers.shift() as DockerResult) };
    expect((await listImages(engine)).map((i) => [i.kind, i.id])).toEqual([["agent store", "ssebench-agent-a-0000000000000001"]]);
    expect(calls).toEqual(["system df", "system df"]);
  });

  test("the tables", () => {
    const a = image([`${R}/agent-dummy/t1:0.9.0`], built("agent layer"), { unique: 115_000_000, containers: 0 });
    const b = image([], built("tool layer", { "ssebench.task": "t1" }), { unique: 0, containers: 1 });
    expect(renderImages([a, b])).toBe(
      [
        "IMAGE                                                KIND         TASK  AGENT  SIZE     UNIQUE  CONTAINERS",
        "ghcr.io/42-b3yond-6ug/ssebench/agent-dummy/t1:0.9.0  agent layer  t1    dummy  1.27 GB  115 MB  0",
        "<none> 111111111111                                  tool layer   t1    -      1.27 GB  0 B     1",
        "",
      ].join("\n"),
    );
    expect(renderCandidates(candidates([a, b], needs))).toBe(
      [
        "IMAGE                                                KIND         UNIQUE  WHY",
        "ghcr.io/42-b3yond-6ug/ssebench/agent-dummy/t1:0.9.0  agent layer  115 MB  agent dummy 0.9.0 (its agent.yaml is now 1.0.0)",
        "",
      ].join("\n"),
    );
    expect(msg.total(2)).toBe("2 images; SIZE counts the layers an image shares with others, UNIQUE is what removing it alone frees");
  });
});
