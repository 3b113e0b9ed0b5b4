import { afterAll, describe, expect, test } from "bun:test";
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { manifestOrFailure } from "../../src/dataset/manifest-command.ts";
import type { Manifest } from "../../src/formats/manifest/manifest-types.ts";
import type { Docker } from "../../src/run/backends/docker.ts";
import { memoryReporter } from "../../src/run/reporter.ts";
import { registryMsg as m } from "../../src/registry/messages.ts";
import { publishDataset } from "../../src/registry/publish.ts";
import { repoRoot, tempDir } from "../helpers/cli.ts";

const work = tempDir("push-publish-");
afterAll(() => work.cleanup());
const REV = "0123456789abcdef0123456789abcdef01234567";
const TASK = "htmlesc-quote-overflow";
const LOCAL = `ghcr.io/42-b3yond-6ug/ssebench/case/demo/${TASK}:latest`;
const digest = (c: string) => `sha256:${c.repeat(64)}`;

/** The engine's neighbour: one local case image (ID, architecture), pushes that print a digest per tag. */
function engine(opts: { id?: string; arch?: string; digests?: Record<string, string> } = {}): Docker {
  return {
    call: async (args) => {
      const ok = (stdout: string) => ({ code: 0, stdout, stderr: "" });
      if (args[0] === "image" && args.at(-1) === LOCAL) {
        if (!opts.id) return { code: 1, stdout: "", stderr: "No such image" };
        return ok(args[3]?.includes("Architecture") ? `${opts.id}\t${opts.arch ?? "amd64"}\n` : `${opts.id}\n`);
      }
      if (args[0] === "tag") return ok("");
      if (args[0] === "push") {
        const tag = (args[1] as string).split(":").at(-1) as string;
        return ok(`${tag}: digest: ${opts.digests?.[tag] ?? digest("a")} size: 1\n`);
      }
      return { code: 1, stdout: "", stderr: `unexpected docker ${args.join(" ")}` };
    },
  };
}

let n = 0;
async function setUp(verdict?: unknown) {
  const root = join(work.path, `case-${++n}`);
  const dir = join(root, "demo");
  cpSync(join(repoRoot, "datasets", "demo"), dir, { recursive: true });
  const output = join(root, "out");
  if (verdict !== undefined) {
    mkdirSync(join(output, "tasks"), { recursive: true });
    writeFileSync(join(output, "tasks", `${TASK}.json`), JSON.stringify(verdict));
  }
  const built = await manifestOrFailure(dir, (d) => d);
  if (!("manifest" in built)) throw new Error("the demo dataset is invalid");
  return { dir, output, manifest: built.manifest as Manifest };
}

async function publish(s: Awaited<ReturnType<typeof setUp>>, docker: Docker, extra: { tasks?: string[]; revision?: string } = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await publishDataset(
    s.manifest,
    { dir: s.dir, tasks: extra.tasks ?? [TASK], registry: "127.0.0.1:5000/", output: s.output, revision: extra.revision ?? REV, unverified: false },
    { docker, reporter: memoryReporter(), env: {}, out: (l) => out.push(l), err: (l) => err.push(l) },
  );
  return { code, out, err };
}

const graded = (image: string | null, ok = true) => ({ ok, failures: ok ? [] : ["the PoC still triggers"], runs: { reference: { image }, dummy: { image } } });

describe("dataset publish", () => {
  test("a verified task: both tags pushed, the record written in the reference's key order, the lock pins it", async () => {
    const s = await setUp(graded("sha256:case"));
    const r = await publish(s, engine({ id: "sha256:case" }));
    expect(r).toMatchObject({ code: 0, err: [] });
    const record = JSON.parse(readFileSync(join(s.output, "published", `${TASK}.json`), "utf8"));
    expect(Object.keys(record)).toEqual(["task", "dataset", "version", "image", "tags", "digest", "files_sha256", "revision"]);
    expect(r.out[0]).toBe(m.published(`127.0.0.1:5000/case/demo/${TASK}`, digest("a"), ["demo-v1-0123456", "demo-v1"]));
    const lock = JSON.parse(readFileSync(join(s.dir, "images.lock.json"), "utf8"));
    expect(lock.images[TASK]).toEqual({ digest: digest("a"), files_sha256: record.files_sha256, revision: REV });
  });

  test("each refusal is the reference's line, no record, exit 1", async () => {
    const cases: [unknown, Docker, string][] = [
      [graded("sha256:case", false), engine({ id: "sha256:case" }), m.notVerified(TASK, "the PoC still triggers")],
      [{ ok: true, runs: { reference: { image: "sha256:a" }, dummy: { image: "sha256:b" } } }, engine({ id: "sha256:a" }), m.noGradedImage(TASK)],
      [graded("sha256:case"), engine(), m.missingLocal(TASK, LOCAL)],
      [graded("sha256:case"), engine({ id: "sha256:other" }), m.notGraded(TASK, LOCAL)],
      [graded("sha256:case"), engine({ id: "sha256:case", arch: "arm64" }), m.wrongArch(TASK, LOCAL, "arm64")],
      [graded("sha256:case"), engine({ id: "sha256:case", digests: { "demo-v1": digest("b") } }), m.differentDigests(TASK, ["demo-v1-0123456", "demo-v1"], [digest("a"), digest("b")])],
    ];
    for (const [verdict, docker, line] of cases) {
      const s = await setUp(verdict);
      const r = await publish(s, docker);
      expect(r).toEqual({ code: 1, out: [], err: [line] });
      expect(existsSync(join(s.output, "published", `${TASK}.json`))).toBe(false);
    }
    const none = await setUp();
    expect((await publish(none, engine({ id: "sha256:case" }))).err).toEqual([m.noVerdict(TASK, join(none.output, "tasks"))]);
  });

  test("a verdict file that is JSON but not a verdict (null, a list, a run that is not an object) is one line, exit 1", async () => {
    for (const verdict of [null, [1], "ok", { ok: true, runs: { reference: null } }, { ok: true, runs: [] }]) {
      const s = await setUp(verdict);
      const r = await publish(s, engine({ id: "sha256:case" }));
      expect(r).toEqual({ code: 1, out: [], err: [m.taskFailed(TASK, m.badVerdict(join(s.output, "tasks", `${TASK}.json`)))] });
    }
  });

  test("an unknown task, a short revision and no verdicts at all stop before anything is pushed", async () => {
    const s = await setUp();
    await expect(publish(s, engine(), { tasks: ["nope", TASK] })).rejects.toThrow(m.unknownTasks(s.dir, ["nope"]));
    await expect(publish(s, engine(), { revision: "abc123" })).rejects.toMatchObject({ message: m.badRevisionFlag("abc123"), exitCode: 2 });
    await expect(publish(s, engine(), { tasks: [] })).rejects.toThrow(m.noTaskResults(join(s.output, "tasks")));
  });
});
