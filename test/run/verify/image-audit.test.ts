import { expect, test } from "bun:test";
import { auditCaseImage, parseAudit } from "../../../src/run/verify/image-audit.ts";
import { msg } from "../../../src/run/messages.ts";

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

test("the audit runs in a throw-away container of the case image: no network, root, its own shell; a failure is one line", async () => {
  const calls: string[][] = [];
  const answer = { code: 0, stdout: "vcs /src/.git\n", stderr: "" };
  const docker = { call: async (args: readonly string[]) => (calls.push([...args]), answer) };
  expect(await auditCaseImage(docker, "sha256:abc", "/src/p")).toEqual([msg.leakVcs("/src/.git", "/src/p")]);
  expect(calls[0]!.slice(0, 9)).toEqual(["run", "--rm", "--network", "none", "--user", "0:0", "--entrypoint", "/bin/sh", "sha256:abc"]);
  expect(calls[0]!.slice(-2)).toEqual(["audit", "/src/p"]);
  Object.assign(answer, { code: 127, stdout: "", stderr: "docker: Error: exec: \"/bin/sh\": not found\n" });
  expect(await auditCaseImage(docker, "sha256:abc", "/src/p")).toEqual(['could not audit the case image sha256:abc: docker: Error: exec: "/bin/sh": not found']);
});
