import { expect, test } from "bun:test";
import { auditAgentView, auditCaseImage, parseAudit } from "../../../src/run/verify/image-audit.ts";
import { msg } from "../../../src/run/messages.ts";

const secrets = { text: ["CVE-2024-45490", "0123456789ab", "CVE-2024-45490.patch"], patchNames: ["CVE-2024-45490.patch", "fix-build.diff"] };

test("one line per leak of a case image; a long list is cut with a count", () => {
  const out = ["vcs /src/clone/.git", "writable /usr/local/bin", "noise", ...Array.from({ length: 22 }, (_, i) => `writable /opt/w${i}`)].join("\n");
  const lines = parseAudit(out, "/src/clone/htmlesc");
  expect(lines[0]).toBe("/src/clone/.git: version-control metadata of a repository that holds the source /src/clone/htmlesc (its history can hold the fix)");
  expect(lines[1]).toBe("/usr/local/bin: world-writable (the agent could plant a file there that grading runs)");
  expect(lines).toHaveLength(1 + 20 + 1);
  expect(lines.at(-1)).toBe(msg.leakMore(3));
  expect(lines.at(-1)).toBe("… and 3 more");
  expect(parseAudit("", "/src/x")).toEqual([]);
});

test("the leaks of issue 28: a readable file naming a secret, history, the commit message, leftovers, the package's patches", () => {
  const out = [
    "text /usr/share/doc/libexpat1/changelog.Debian.gz",
    "text /usr/share/doc/libexpat1/changelog.Debian.gz",
    "history 3",
    "message",
    "named /src/libexpat/lib/xmlparse.c.orig",
    "named /src/libexpat/lib/xmlparse.c.rej",
    "named /usr/lib/python3/x.orig", // outside the source: not a leftover of this package
    "named /src/libexpat/contrib/upstream.patch", // upstream's own patch file: not the package's
    "named /tmp/CVE-2024-45490.patch",
    "named /opt/fix-build.diff",
  ].join("\n");
  expect(parseAudit(out, "/src/libexpat", secrets)).toEqual([
    "/src/libexpat: its repository has 3 commits; one is allowed (older ones can hold the fix)",
    "/src/libexpat: its commit message names the task's CVE, fix commit or Debian patch (CVE-2024-45490, 0123456789ab, CVE-2024-45490.patch)",
    "/usr/share/doc/libexpat1/changelog.Debian.gz: the agent can read it, and it names the task's CVE, fix commit or Debian patch (CVE-2024-45490, 0123456789ab, CVE-2024-45490.patch)",
    "/src/libexpat/lib/xmlparse.c.orig: a leftover of patching (.orig/.rej) in the source tree",
    "/src/libexpat/lib/xmlparse.c.rej: a leftover of patching (.orig/.rej) in the source tree",
    "/tmp/CVE-2024-45490.patch: a patch file of the Debian package, readable by the agent",
    "/opt/fix-build.diff: a patch file of the Debian package, readable by the agent",
  ]);
  // a folder that only starts like the source is not inside it
  expect(parseAudit("named /src/libexpat2/a.rej", "/src/libexpat", secrets)).toEqual([]);
});

test("the case image is audited as root with the secrets in the environment; a failure is one line", async () => {
  const calls: string[][] = [];
  const answer = { code: 0, stdout: "vcs /src/.git\n", stderr: "" };
  const docker = { call: async (args: readonly string[]) => (calls.push([...args]), answer) };
  expect(await auditCaseImage(docker, "sha256:abc", "/src/p", secrets)).toEqual([msg.leakVcs("/src/.git", "/src/p")]);
  expect(calls[0]!.slice(0, 8)).toEqual(["run", "--rm", "--network", "none", "--user", "0:0", "--env", "SSE_AUDIT_TEXT=CVE-2024-45490\n0123456789ab\nCVE-2024-45490.patch"]);
  expect(calls[0]!.slice(8, 11)).toEqual(["--entrypoint", "/bin/sh", "sha256:abc"]);
  expect(calls[0]!.slice(-2)).toEqual(["audit", "/src/p"]);
  Object.assign(answer, { code: 127, stdout: "", stderr: "docker: Error: exec: \"/bin/sh\": not found\n" });
  expect(await auditCaseImage(docker, "sha256:abc", "/src/p", secrets)).toEqual(['could not audit the case image sha256:abc: docker: Error: exec: "/bin/sh": not found']);
});

test("the agent's view is audited as the agent's user, the task root left out", async () => {
  const calls: string[][] = [];
  const answer = { code: 0, stdout: "text /etc/motd\n", stderr: "" };
  const docker = { call: async (args: readonly string[]) => (calls.push([...args]), answer) };
  expect(await auditAgentView(docker, "sha256:def", "/src/p", secrets)).toEqual([msg.leakText("/etc/motd", secrets.text)]);
  expect(calls[0]!.slice(0, 10)).toEqual(["run", "--rm", "--network", "none", "--user", "model", "--env", "SSE_AUDIT_TEXT=CVE-2024-45490\n0123456789ab\nCVE-2024-45490.patch", "--env", "SSE_AUDIT_SKIP=/ssebench"]);
  expect(calls[0]!.at(-1)).toBe("audit");
  Object.assign(answer, { code: 125, stdout: "", stderr: "docker: unable to find user model\n" });
  expect(await auditAgentView(docker, "sha256:def", "/src/p", secrets)).toEqual(["could not audit what the agent can read in sha256:def: docker: unable to find user model"]);
});
