import { describe, expect, test } from "bun:test";
import { parseNpmCli } from "../../../src/run/layers/agent-npm-config.ts";
import { integrityProblems } from "../../../src/run/layers/agent-npm.ts";

const good = { package: "@anthropic-ai/claude-code", version: "2.1.332", integrity: { "@anthropic-ai/claude-code": "sha512-abc+/=", "@anthropic-ai/claude-code-linux-x64": "sha512-def==" }, files: { claude: "node_modules/@anthropic-ai/claude-code-linux-x64/claude" } };
const fail = (d: string) => new Error(d);
const problem = (v: unknown) => {
  try {
    parseNpmCli(v, fail);
    return "";
  } catch (e) {
    return (e as Error).message;
  }
};

describe("agent.yaml npm", () => {
  test("a pinned CLI parses", () => {
    expect(parseNpmCli(good, fail)).toEqual(good);
  });
  test("each problem is one line", () => {
    expect(problem("x")).toBe("npm must be a mapping with package, version, integrity and files");
    expect(problem({ ...good, extra: 1 })).toBe("npm: unknown key(s): extra");
    expect(problem({ ...good, version: "^2" })).toBe("npm.version must be an exact version such as 1.2.3 (a string)");
    expect(problem({ ...good, integrity: { other: "sha512-a" } })).toBe("npm.integrity must map every installed package (at least @anthropic-ai/claude-code) to its sha512 integrity");
    expect(problem({ ...good, integrity: { ...good.integrity, x: "sha1-a" } })).toBe("npm.integrity.x must be a sha512-… integrity of an npm package");
    expect(problem({ ...good, files: { claude: "node_modules/../../etc/passwd" } })).toBe("npm.files.claude must be a path under node_modules/ without '.' or '..' segments");
    expect(problem({ ...good, files: { "../x": "node_modules/a" } })).toBe("npm.files.../x must be a path under node_modules/ without '.' or '..' segments");
  });
  test("an install must match the pinned integrity exactly: no other package, none missing, none changed", () => {
    const cli = parseNpmCli(good, fail);
    expect(integrityProblems(cli, { ...good.integrity })).toEqual([]);
    expect(integrityProblems(cli, { ...good.integrity, extra: "sha512-x" })).toEqual(["extra is installed but not pinned"]);
    expect(integrityProblems(cli, { "@anthropic-ai/claude-code": "sha512-zzz" })).toEqual([
      "@anthropic-ai/claude-code has integrity sha512-zzz, pinned sha512-abc+/=",
      "@anthropic-ai/claude-code-linux-x64 is pinned but was not installed",
    ]);
  });
});
