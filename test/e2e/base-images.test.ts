/**
 * images/base-images/build.sh on the real engine, for the Go image: a second build with unchanged
 * inputs only re-tags, and the tagged image is the one its labels describe (Go 1.22 with cgo). The
 * Python image: its labels name the python3 and pytest it runs, and pytest works for a user other
 * than root without writing caches into the tree it tests. No image keeps package documentation
 * (Debian's changelogs name CVEs), also for a package installed later with dpkg.
 * The first build here is instant where .ci/run built the images already; elsewhere it builds.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { repoRoot, runBinary } from "../helpers/cli.ts";
import { docker, E2E, SKIP_REASON } from "./helpers.ts";

setDefaultTimeout(900_000);
const build = join(repoRoot, "images/base-images/build.sh");
const env = { DOCKER_HOST: process.env.DOCKER_HOST };

describe.skipIf(!E2E)(`base images on a real engine${SKIP_REASON}`, () => {
  test("an unchanged Go image is only re-tagged; its labels and its toolchain agree", async () => {
    const root = await runBinary("/bin/bash", [join(repoRoot, "setup/debian-root-image.sh")], { env });
    expect(root.exitCode).toBe(0);
    const rootImage = root.stdout.trim().split("\n").at(-1) as string;
    const first = await runBinary("/bin/bash", [build, "--root", rootImage, "go"], { env });
    if (first.exitCode !== 0) console.error(first.stderr);
    expect(first.exitCode).toBe(0);
    const again = await runBinary("/bin/bash", [build, "--root", rootImage, "go"], { env });
    expect(again.exitCode).toBe(0);
    expect(again.stdout).toStartWith("base-images: base-generic-go up to date: ");

    const dry = await runBinary("/bin/bash", [build, "--dry-run", "--root", rootImage, "go"], { env });
    const hash = /ssebench\.base\.inputs=(\S+)/.exec(dry.stdout)?.[1];
    const labels = JSON.parse(docker(["image", "inspect", "--format", "{{json .Config.Labels}}", "base-generic-go:1.0.0"])) as Record<string, string>;
    expect(labels["ssebench.base.inputs"]).toBe(hash as string);
    expect(labels["ssebench.toolchain.go"]).toMatch(/^1\.22\.\d+$/);
    expect(again.stdout).toContain(`go ${labels["ssebench.toolchain.go"]}`);
    const inImage = docker(["run", "--rm", "--network", "none", "base-generic-go:1.0.0", "sh", "-c", "go env GOVERSION CGO_ENABLED; command -v gcc"]);
    expect(inImage).toBe(`go${labels["ssebench.toolchain.go"]}\n1\n/usr/bin/gcc`);
  });

  test("the Python image runs pytest as another user, writes no cache into the tree, has no network index", async () => {
    const root = await runBinary("/bin/bash", [join(repoRoot, "setup/debian-root-image.sh")], { env });
    const rootImage = root.stdout.trim().split("\n").at(-1) as string;
    const built = await runBinary("/bin/bash", [build, "--root", rootImage, "python"], { env });
    if (built.exitCode !== 0) console.error(built.stderr);
    expect(built.exitCode).toBe(0);
    const labels = JSON.parse(docker(["image", "inspect", "--format", "{{json .Config.Labels}}", "base-generic-python:1.0.0"])) as Record<string, string>;
    expect(labels["ssebench.toolchain.python3"]).toMatch(/^3\.11\.\d+$/);
    expect(labels["ssebench.toolchain.pytest"]).toMatch(/^7\.\d+\.\d+$/);
    const script = [
      "mkdir /tmp/t && cd /tmp/t",
      "printf 'import m\\ndef test_a():\\n    assert m.two() == 2\\n' >test_m.py",
      "printf 'def two():\\n    return 2\\n' >m.py",
      "python3 -m pytest -q test_m.py | tail -n 1",
      "ls -A",
      "python3 -m pip download --no-deps pytest 2>&1 | tail -n 1",
    ].join(" && ");
    const out = docker(["run", "--rm", "--network", "none", "--user", "65534:65534", "base-generic-python:1.0.0", "sh", "-c", `${script}; true`]);
    const lines = out.split("\n");
    expect(lines[0]).toMatch(/^1 passed in [\d.]+s$/);
    expect(lines.slice(1, 3)).toEqual(["m.py", "test_m.py"]);
    expect(lines.at(-1)).toContain("No matching distribution found for pytest");
  });

  test("no image keeps package documentation but copyright files, also for a .deb installed later", async () => {
    for (const lang of ["c", "go", "rust", "python"]) {
      const script = [
        "find /usr/share/doc /usr/share/man /usr/share/info -type f ! -name copyright | head -n 3",
        // a package installed after the build: the path-excludes hold for dpkg -i too
        "mkdir -p /tmp/p/DEBIAN /tmp/p/usr/share/doc/sse-probe /tmp/p/usr/share/man/man1",
        "printf 'Package: sse-probe\nVersion: 1\nArchitecture: all\nMaintainer: x <x@x>\nDescription: probe\n' >/tmp/p/DEBIAN/control",
        "echo CVE-0000-0000 | gzip >/tmp/p/usr/share/doc/sse-probe/changelog.Debian.gz",
        "echo c >/tmp/p/usr/share/doc/sse-probe/copyright && echo m >/tmp/p/usr/share/man/man1/p.1",
        "dpkg-deb -b /tmp/p /tmp/p.deb >/dev/null && dpkg -i /tmp/p.deb >/dev/null",
        "find /usr/share/doc/sse-probe /usr/share/man/man1 -type f",
      ].join(" && ");
      const out = docker(["run", "--rm", "--network", "none", `base-generic-${lang}:1.0.0`, "sh", "-c", script]);
      expect(`${lang}: ${out}`).toBe(`${lang}: /usr/share/doc/sse-probe/copyright`);
    }
  });
});
