import { expect, test } from "bun:test";
import { parseAudit } from "../../src/run/image-audit.ts";
import { msg } from "../../src/run/messages.ts";

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
