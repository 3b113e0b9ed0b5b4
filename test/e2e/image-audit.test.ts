/**
 * The image is audited, not trusted (issue 9 item 7), on a real engine: the demo's htmlesc task
 * rebuilt as a leaky case image (the source in a subfolder of a clone whose history holds the fix,
 * and a world-writable /usr/local/bin). A hostile agent reads the clone's history and plants a `cc`
 * there that would apply the fix during the grading build; both fail. Issue 28's leaks are planted
 * too: a Debian changelog naming the task's CVE (gzipped, outside the task root) and a .rej left
 * in the source tree; a changelog in the task root (root-only during a run) is not one.
 * `dataset verify` names every leak, one line each.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Summary } from "../../src/formats/run/summary.ts";
import type { TaskVerdict } from "../../src/run/verify/verify.ts";
import { DockerCli } from "../../src/run/backends/docker.ts";
import { auditAgentView, auditCaseImage } from "../../src/run/verify/image-audit.ts";
import { ssebench, tempDir } from "../helpers/cli.ts";
import { DEMO_TASK, demoDir, docker, E2E, homeWithAgents, readJson, SKIP_REASON } from "./helpers.ts";

setDefaultTimeout(1_200_000);
const work = tempDir("ssebench-e2e-audit-");
const SOURCE = "/src/clone/htmlesc";
// The task's id names its CVE (as datasets/debian's do), which is what the changelog leaks.
const TASK = "htmlesc-cve-2099-12345";

/** The hostile agent: reads the parent clone's log, plants /usr/local/bin/cc that applies the fix. */
function planterCmd(): string {
  const fix = Buffer.from(readFileSync(join(demoDir, DEMO_TASK, "sse", "diffs", "patch.diff"))).toString("base64");
  const cc = `#!/bin/sh\ngit apply /usr/local/bin/fix.diff 2>/dev/null\nexec /usr/bin/cc "$@"\n`;
  const script = [
    `git -C .. log --all --oneline > "$SSE_ARCHIVE/parent-log" 2>&1`,
    `if echo ${fix} | base64 -d > /usr/local/bin/fix.diff && printf '%s' '${cc}' > /usr/local/bin/cc && chmod +x /usr/local/bin/cc; then echo planted; else echo refused; fi > "$SSE_ARCHIVE/planted"`,
    "exit 0",
  ].join("\n");
  return JSON.stringify(["sh", "-c", script]);
}

const home = homeWithAgents({ planter: planterCmd() });
const env = { DOCKER_HOST: process.env.DOCKER_HOST, SSEBENCH_HOME: home.path };
afterAll(() => {
  work.cleanup();
  home.cleanup();
});

function leakyDataset(): string {
  const dir = join(work.path, "leaky");
  mkdirSync(dir);
  cpSync(join(demoDir, "dataset.yaml"), join(dir, "dataset.yaml"));
  const task = join(dir, TASK);
  cpSync(join(demoDir, DEMO_TASK), task, { recursive: true });
  const dockerfile = readFileSync(join(task, "Dockerfile"), "utf8")
    .replace("COPY src /src/htmlesc", `COPY src ${SOURCE}`)
    .replace("RUN cd /src/htmlesc \\", "RUN cd /src/clone \\")
    .replace('commit -qm "htmlesc 0.3.1"', 'commit -qm "htmlesc 0.3.1" && git -c user.name=u -c user.email=u@example.invalid commit -q --allow-empty -m "FIX-COMMIT upstream fix"');
  const plants = [
    "RUN chmod 0777 /usr/local/bin",
    "RUN mkdir -p /usr/share/doc/htmlesc && printf 'htmlesc (0.3.1-1+deb12u1) bookworm-security\\n  * Fix cve-2099-12345\\n' | gzip >/usr/share/doc/htmlesc/changelog.Debian.gz",
    `RUN touch ${SOURCE}/htmlesc.c.rej && echo 'CVE-2099-12345' >/ssebench/changelog`,
  ];
  writeFileSync(join(task, "Dockerfile"), `${dockerfile}${plants.join("\n")}\n`);
  const config = join(task, "sse", "config.yaml");
  writeFileSync(config, readFileSync(config, "utf8").replace("source: /src/htmlesc", `source: ${SOURCE}`).replace(`id: ${DEMO_TASK}`, `id: ${TASK}`));
  return dir;
}

describe.skipIf(!E2E)(`a leaky case image on a real engine${SKIP_REASON}`, () => {
  const dataset = leakyDataset();

  test("hostile agent: the parent clone's history is gone and the PATH folder is not writable, so the planted cc never runs", async () => {
    const results = join(work.path, "results");
    const r = await ssebench(["run", "--local", dataset, "--task", TASK, "--agent", "planter", "--results", results, "--run-id", "planter-1", "--timeout", "600"], { env });
    if (r.exitCode !== 0) console.error(r.stdout, r.stderr);
    const runDir = join(results, TASK, "none", "planter", "planter-1");
    expect(readFileSync(join(runDir, "archive", "planted"), "utf8")).toBe("refused\n");
    expect(readFileSync(join(runDir, "archive", "parent-log"), "utf8")).not.toContain("FIX-COMMIT");
    expect(readFileSync(join(runDir, "final.patch"), "utf8")).toBe("");
    const summary = readJson<Summary>(join(runDir, "summary.json"));
    expect(summary.patch_result).toMatchObject({ status: "failed", build_success: true, pov_passed: 0, error_type: null });
  });

  test("dataset verify reports each leak of the case image on its own line and fails the task", async () => {
    const output = join(work.path, "verify");
    const r = await ssebench(["dataset", "verify", TASK, "--dir", dataset, "--output", output, "--timeout", "600"], { env });
    expect(r.exitCode).toBe(1);
    const verdict = readJson<TaskVerdict>(join(output, "tasks", `${TASK}.json`));
    expect(verdict.failures).toEqual([]); // the reference passes, the dummy's PoC triggers: only the leaks fail it
    expect(verdict.leaks).toEqual([
      `/src/clone/.git: version-control metadata of a repository that holds the source ${SOURCE} (its history can hold the fix)`,
      "/usr/local/bin: world-writable (the agent could plant a file there that grading runs)",
      // what the agent can read in the image its container ran
      "/usr/share/doc/htmlesc/changelog.Debian.gz: the agent can read it, and it names the task's CVE, fix commit or Debian patch (CVE-2099-12345)",
      `${SOURCE}/htmlesc.c.rej: a leftover of patching (.orig/.rej) in the source tree`,
    ]);
    console.log(`leak audit: ${verdict.audit_seconds} s`);
    const lines = r.stderr.split("\n");
    for (const leak of verdict.leaks) expect(lines).toContain(`${TASK}: case image leak: ${leak}`);
    expect(r.stdout).toContain(`FAILED: case image leak: ${verdict.leaks[0]}`);
  });

  test("the audit scripts in real containers: history, commit message, gzip and plain text, the task root left out, the package's patch files", async () => {
    const context = join(work.path, "scripts-image");
    mkdirSync(context);
    const sha = "5e1f0c9a7b3d2e4f6a8c0b1d3e5f7a9c2b4d6e8f";
    writeFileSync(
      join(context, "Dockerfile"),
      [
        "FROM base-generic-c:1.0.0",
        "RUN useradd --uid 1000 --create-home model && mkdir -p /src/p /ssebench && cd /src/p && git init -q && echo a >a.c && git add -A \\",
        ' && git -c user.name=u -c user.email=u@x.invalid commit -qm "p 1.0" && echo b >>a.c && git -c user.name=u -c user.email=u@x.invalid commit -qam "fix CVE-2099-777"',
        `RUN echo 'see ${sha.slice(0, 12)}' >/etc/motd && printf 'CVE-2099-777\\n' | gzip >/opt/notes.gz && echo CVE-2099-777 >/ssebench/answer`,
        "RUN echo x >/opt/0007-fix.patch && echo x >/root/0007-fix.patch && echo CVE-2099-777 >/root/secret && echo x >/src/p/a.c.orig",
        // the tool layer gives the agent a fresh repository (prepare): the image's own is the case audit's
        "RUN chmod -R go-rwx /src/p/.git",
      ].join("\n"),
    );
    expect(docker(["build", "-q", "-t", "ssebench-e2e-audit-scripts", context])).toStartWith("sha256:");
    try {
      const secrets = { text: ["CVE-2099-777", sha.slice(0, 12)], patchNames: ["0007-fix.patch"] };
      const engine = new DockerCli();
      expect(await auditCaseImage(engine, "ssebench-e2e-audit-scripts", "/src/p", secrets)).toEqual([
        "/src/p: its repository has 2 commits; one is allowed (older ones can hold the fix)",
        "/src/p: its commit message names the task's CVE, fix commit or Debian patch (CVE-2099-777, 5e1f0c9a7b3d)",
      ]);
      // root's own files and the task root are out of the agent's reach: not leaks
      expect((await auditAgentView(engine, "ssebench-e2e-audit-scripts", "/src/p", secrets)).sort()).toEqual([
        "/etc/motd: the agent can read it, and it names the task's CVE, fix commit or Debian patch (CVE-2099-777, 5e1f0c9a7b3d)",
        "/opt/0007-fix.patch: a patch file of the Debian package, readable by the agent",
        "/opt/notes.gz: the agent can read it, and it names the task's CVE, fix commit or Debian patch (CVE-2099-777, 5e1f0c9a7b3d)",
        "/src/p/a.c.orig: a leftover of patching (.orig/.rej) in the source tree",
      ]);
    } finally {
      docker(["rmi", "-f", "ssebench-e2e-audit-scripts"]);
    }
  });
});
