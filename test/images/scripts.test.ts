/**
 * The engine and root-image scripts as real processes: argument handling, the mirror lookup, and
 * (when dockerd is installed and we are root) the whole start/status/stop cycle of a second,
 * private engine on its own socket and data root. base-images.test.ts covers build.sh.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot, runBinary, tempDir } from "../helpers/cli.ts";

const engineScript = join(repoRoot, "setup/docker-engine.sh");
const rootImageScript = join(repoRoot, "setup/debian-root-image.sh");
const work = tempDir("ssebench-images-");
afterAll(() => work.cleanup());

const bash = (script: string, args: string[], env: Record<string, string> = {}) =>
  runBinary("/bin/bash", [script, ...args], { env });

function writeTree(root: string, files: Record<string, string>): string {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe("setup/debian-root-image.sh --print-mirror", () => {
  test("takes the first URI serving the plain suite from deb822 sources, skipping -security", async () => {
    const apt = writeTree(join(work.path, "apt-deb822"), {
      "sources.list.d/a-security.sources":
        "Types: deb\nURIs: http://security.example/debian-security\nSuites: bookworm-security\n",
      "sources.list.d/b-main.sources":
        "Types: deb\nURIs: http://security.example/other\nSuites: trixie\n\n" +
        "Types: deb\nURIs: http://mirror.example/debian\nSuites: bookworm bookworm-updates\nComponents: main\n",
    });
    const r = await bash(rootImageScript, ["--print-mirror"], { SSEBENCH_APT_DIR: apt });
    expect(r).toEqual({ exitCode: 0, stdout: "http://mirror.example/debian\n", stderr: "" });
  });

  test("reads one-line sources.list entries, with options in brackets", async () => {
    const apt = writeTree(join(work.path, "apt-oneline"), {
      "sources.list": "# comment\ndeb [arch=amd64] http://one.example/debian bookworm main\n",
    });
    const r = await bash(rootImageScript, ["--print-mirror"], { SSEBENCH_APT_DIR: apt });
    expect(r.stdout).toBe("http://one.example/debian\n");
  });

  test("SSEBENCH_DEBIAN_MIRROR wins; no mirror at all is one line and exit 1", async () => {
    const empty = join(work.path, "apt-empty");
    mkdirSync(empty, { recursive: true });
    const given = await bash(rootImageScript, ["--print-mirror"], {
      SSEBENCH_APT_DIR: empty,
      SSEBENCH_DEBIAN_MIRROR: "http://given.example/debian",
    });
    expect(given.stdout).toBe("http://given.example/debian\n");
    const none = await bash(rootImageScript, ["--print-mirror"], { SSEBENCH_APT_DIR: empty });
    expect(none.exitCode).toBe(1);
    expect(none.stderr).toBe(
      `debian-root-image: no Debian mirror for bookworm in ${empty}/sources.list*; set SSEBENCH_DEBIAN_MIRROR\n`,
    );
  });

  test("an unknown flag is a usage error", async () => {
    const r = await bash(rootImageScript, ["--bogus"]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("usage: setup/debian-root-image.sh");
  });
});

describe("setup/docker-engine.sh", () => {
  test("without a subcommand it prints its usage and exits 2", async () => {
    const r = await bash(engineScript, []);
    expect(r).toEqual({ exitCode: 2, stdout: "", stderr: "usage: setup/docker-engine.sh start|stop|status\n" });
  });

  const canRunEngine = process.getuid?.() === 0 && Bun.which("dockerd") !== null && Bun.which("docker") !== null;
  test.skipIf(!canRunEngine)(
    "a private engine on its own socket and address pool: start, start again (no-op), status, stop, status",
    async () => {
      const root = join(work.path, "engine");
      const socket = join(root, "docker.sock");
      const env = {
        SSEBENCH_DOCKER_SOCKET: socket,
        SSEBENCH_DOCKER_DATA: join(root, "data"),
        SSEBENCH_DOCKER_EXEC: join(root, "exec"),
        SSEBENCH_DOCKER_LOG: join(root, "dockerd.log"),
        SSEBENCH_DOCKER_CGROUP: `/ssebench-test-engine-${process.pid}`,
        SSEBENCH_DOCKER_POOL: "base=10.217.0.0/16,size=24",
      };
      try {
        const started = await bash(engineScript, ["start"], env);
        expect(started.stderr).toBe("");
        expect(started.exitCode).toBe(0);
        expect(started.stdout).toMatch(/^(docker-engine: installing [^\n]*\n)?docker-engine: started dockerd \d+ \(log .*dockerd\.log\)\n/);
        expect(started.stdout).toEndWith(`, unix://${socket})\n`);

        const again = await bash(engineScript, ["start"], env);
        expect(again.stdout).toStartWith("docker-engine: running (");
        const info = await runBinary("docker", ["info", "--format", "{{.DockerRootDir}}"], {
          env: { DOCKER_HOST: `unix://${socket}` },
        });
        expect(info.stdout.trim()).toBe(join(root, "data"));
        // Its networks come from its own pool, not the subnets another engine on the host hands out.
        const dockerHere = (args: string[]) => runBinary("docker", args, { env: { DOCKER_HOST: `unix://${socket}` } });
        expect((await dockerHere(["network", "create", "--internal", "pool-probe"])).exitCode).toBe(0);
        const subnet = await dockerHere(["network", "inspect", "--format", "{{range .IPAM.Config}}{{.Subnet}}{{end}}", "pool-probe"]);
        expect(subnet.stdout.trim()).toMatch(/^10\.217\.\d+\.0\/24$/);
        expect((await dockerHere(["network", "rm", "pool-probe"])).exitCode).toBe(0);
        expect((await bash(engineScript, ["status"], env)).exitCode).toBe(0);
      } finally {
        const stopped = await bash(engineScript, ["stop"], env);
        expect(stopped.stdout).toMatch(/^docker-engine: stopped dockerd \d+\n$/);
      }
      const status = await bash(engineScript, ["status"], env);
      expect(status).toEqual({ exitCode: 1, stdout: `docker-engine: not running (unix://${socket})\n`, stderr: "" });
      expect((await bash(engineScript, ["stop"], env)).stdout).toBe("docker-engine: not running\n");
    },
    60_000,
  );
});

describe("setup/swarm-two-node.sh", () => {
  const swarmScript = join(repoRoot, "setup/swarm-two-node.sh");
  test("a second swarm's name and network are checked before anything is created", async () => {
    const badName = await bash(swarmScript, ["start"], { SSEBENCH_SWARM_NAME: "Bad_Name" });
    expect(badName).toEqual({
      exitCode: 2,
      stdout: "",
      stderr: "swarm-two-node: SSEBENCH_SWARM_NAME=Bad_Name: expected up to 10 of a-z, 0-9 and -\n",
    });
    const tooLong = await bash(swarmScript, ["start"], { SSEBENCH_SWARM_NAME: "abcdefghijk" });
    expect(tooLong.exitCode).toBe(2);
    const badNet = await bash(swarmScript, ["start"], { SSEBENCH_SWARM_NAME: "ci2", SSEBENCH_SWARM_NET: "10.98" });
    expect(badNet).toEqual({
      exitCode: 2,
      stdout: "",
      stderr: "swarm-two-node: SSEBENCH_SWARM_NET=10.98: expected three octets, e.g. 10.99.0\n",
    });
  });
});
