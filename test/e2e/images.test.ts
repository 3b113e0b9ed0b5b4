/**
 * `ssebench images` and `images prune` on the real engine. The images are built by the product's
 * own ensureLayer (the labels a run sets) under names of this test only, each also carrying a label
 * of this test, and every command is scoped to that label with --label: the test never lists,
 * prunes or removes anyone else's images.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DockerCli } from "../../src/run/backends/docker.ts";
import { ensureLayer, IMAGE_LABELS, type LayerSpec } from "../../src/run/layers/layers.ts";
import { memoryReporter } from "../../src/run/reporter.ts";
import { VERSION } from "../../src/version.ts";
import { ssebench, tempDir } from "../helpers/cli.ts";
import { docker, E2E, SKIP_REASON } from "./helpers.ts";

setDefaultTimeout(300_000);
const scope = `pages-e2e-${process.pid}-${Date.now().toString(36)}`;
const SCOPE_LABEL = "pages.scope";
const only = `${SCOPE_LABEL}=${scope}`;
const R = scope;
const CONTAINER = `${scope}-user`;
const tmp = tempDir("ssebench-e2e-images-");

afterAll(() => {
  if (E2E) {
    docker(["rm", "--force", CONTAINER]);
    // Only this test's images: they all carry its label (children first, so none is refused).
    for (let i = 0; i < 3; i++) {
      const ids = docker(["images", "--quiet", "--no-trunc", "--filter", `label=${only}`]).split("\n").filter(Boolean);
      if (ids.length) docker(["rmi", "--force", ...new Set(ids)]);
    }
  }
  tmp.cleanup();
});

let contexts = 0;
/** Builds one image through ensureLayer: FROM `from` (or scratch), one file of `content`. */
async function build(layer: string, tag: string, labels: Record<string, string>, content: string, from?: string): Promise<string> {
  const dir = join(tmp.path, `ctx-${contexts++}`);
  mkdirSync(dir);
  writeFileSync(join(dir, "f"), content);
  writeFileSync(join(dir, "Dockerfile"), from ? "ARG BASE\nFROM ${BASE}\nCOPY f /f2\n" : "FROM scratch\nCOPY f /f\n");
  const spec: LayerSpec = { layer, tag, context: dir, buildArgs: from ? { BASE: from } : {}, inputs: content, labels: { ...labels, [SCOPE_LABEL]: scope } };
  return (await ensureLayer(new DockerCli(), spec, undefined, memoryReporter())).id;
}

const task = { [IMAGE_LABELS.task]: "t1" };
const dummy = (t: string) => ({ [IMAGE_LABELS.task]: t, [IMAGE_LABELS.agent]: "dummy" });
let supersededTool = "";
let usedTool = "";

interface Listed {
  id: string;
  tags: string[];
  kind: string;
  task: string | null;
  agent: string | null;
  containers: number;
  size: number;
  reason?: string;
}
const listJson = async (args: string[]) => {
  const r = await ssebench(["images", ...args, "--label", only, "--json"]);
  expect(r.exitCode).toBe(0);
  return JSON.parse(r.stdout) as Listed[];
};
const row = (i: Listed) => [i.tags[0] ?? i.id, i.kind, i.task, i.agent, i.containers, ...(i.reason ? [i.reason] : [])];

describe.skipIf(!E2E)(`ssebench images on a real engine${SKIP_REASON}`, () => {
  beforeAll(async () => {
    const caseId = await build("case image", `${R}/case/pages/t1:latest`, { ...task, [IMAGE_LABELS.dataset]: "pages" }, "case");
    supersededTool = await build("tool layer", `${R}/tool/t1:${VERSION}`, task, "tool 1", caseId);
    const tool = await build("tool layer", `${R}/tool/t1:${VERSION}`, task, "tool 2", caseId);
    await build("tool layer", `${R}/tool/t1:0.0.1-old`, task, "old tool", caseId);
    await build("agent files", `${R}/agent-files/pages-ghost:1.0.0`, { [IMAGE_LABELS.agent]: "pages-ghost" }, "ghost");
    await build("agent layer", `${R}/agent-dummy/t1:1.0.0`, dummy("t1"), "dummy now", tool);
    await build("agent layer", `${R}/agent-dummy/t1:0.0.0-old`, dummy("t1"), "dummy before", tool);
    // A superseded layer a container still uses.
    usedTool = await build("tool layer", `${R}/tool/t2:${VERSION}`, { [IMAGE_LABELS.task]: "t2" }, "t2 first", caseId);
    docker(["create", "--name", CONTAINER, "--network", "none", usedTool, "/f2"]);
    await build("tool layer", `${R}/tool/t2:${VERSION}`, { [IMAGE_LABELS.task]: "t2" }, "t2 second", caseId);
    // Not ssebench's: the test's label alone, never listed.
    writeFileSync(join(tmp.path, "Dockerfile.plain"), "FROM scratch\nCOPY Dockerfile.plain /x\n");
    docker(["build", "--label", only, "-t", `${R}/plain:1`, "-f", join(tmp.path, "Dockerfile.plain"), tmp.path]);
  });

  test("lists ssebench's images with their kind, task, agent, containers and sizes; never the unlabelled one", async () => {
    const listed = await listJson([]);
    expect(listed.map(row)).toEqual([
      [`${R}/agent-dummy/t1:0.0.0-old`, "agent layer", "t1", "dummy", 0],
      [`${R}/agent-dummy/t1:1.0.0`, "agent layer", "t1", "dummy", 0],
      [`${R}/agent-files/pages-ghost:1.0.0`, "agent files", null, "pages-ghost", 0],
      [`${R}/tool/t1:0.0.1-old`, "tool layer", "t1", null, 0],
      [`${R}/tool/t1:${VERSION}`, "tool layer", "t1", null, 0],
      [`${R}/tool/t2:${VERSION}`, "tool layer", "t2", null, 0],
      // the two superseded tool layers after the named ones, in the order they were built
      [supersededTool, "tool layer", "t1", null, 0],
      [usedTool, "tool layer", "t2", null, 1],
      [`${R}/case/pages/t1:latest`, "case image", "t1", null, 0],
    ]);
    for (const i of listed) expect(i.size).toBeGreaterThan(0);
    const table = await ssebench(["images", "--label", only]);
    expect(table.stdout.split("\n")[0]).toMatch(/^IMAGE +KIND +TASK +AGENT +SIZE +UNIQUE +CONTAINERS$/);
    expect(table.stdout).toContain(`<none> ${usedTool.slice(7, 19)}`);
    expect(table.stdout).toEndWith("9 images; SIZE counts the layers an image shares with others, UNIQUE is what removing it alone frees\n");
  });

  test("prune --dry-run says what it would remove and why, and removes nothing; prune removes exactly that", async () => {
    const expected = [
      [`${R}/agent-dummy/t1:0.0.0-old`, "agent layer", "t1", "dummy", 0, "agent dummy 0.0.0-old (its agent.yaml is now 1.0.0)"],
      [`${R}/agent-files/pages-ghost:1.0.0`, "agent files", null, "pages-ghost", 0, "agent pages-ghost is not among this ssebench's agents"],
      [`${R}/tool/t1:0.0.1-old`, "tool layer", "t1", null, 0, `a tool layer of ssebench 0.0.1-old (this is ${VERSION})`],
      [supersededTool, "tool layer", "t1", null, 0, "superseded: a newer build has its name"],
    ];
    expect((await listJson(["prune", "--dry-run"])).map(row)).toEqual(expected);
    const text = await ssebench(["images", "prune", "--dry-run", "--label", only]);
    expect(text.stdout).toStartWith("Would remove 4 images (at least ");
    expect((await listJson([])).length).toBe(9);

    const pruned = await ssebench(["images", "prune", "--label", only]);
    expect([pruned.exitCode, pruned.stderr]).toEqual([0, ""]);
    expect(pruned.stdout.trimEnd().split("\n").at(-1)).toMatch(/^Removed 4 images \(at least [\d.]+ k?B freed\)$/);
    expect((await listJson([])).map((i) => i.tags[0] ?? i.id)).toEqual([
      `${R}/agent-dummy/t1:1.0.0`,
      `${R}/tool/t1:${VERSION}`,
      `${R}/tool/t2:${VERSION}`,
      usedTool,
      `${R}/case/pages/t1:latest`,
    ]);
    expect(docker(["image", "inspect", "--format", "{{.Id}}", `${R}/plain:1`])).toStartWith("sha256:");
    const again = await ssebench(["images", "prune", "--label", only]);
    expect(again.stdout).toBe("Nothing to prune: all 5 of ssebench's images are needed\n");
    const none = await ssebench(["images", "--label", `${only}-none`]);
    expect([none.exitCode, none.stdout, none.stderr]).toEqual([0, "", `No images made by ssebench with the label ${only}-none on this engine\n`]);
  });
});
