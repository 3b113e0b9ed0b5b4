/**
 * The upstream/sources.yaml format (src/formats/upstream-sources*.ts): the pins of the debian
 * dataset pass, each bad input gives its `key: rule` lines in file order, the compiled validator
 * agrees with the model, and a valid file is checked without loading arktype. Build first (`bun
 * run build` writes src/formats/compiled-validators.js).
 */
import { describe, expect, test } from "bun:test";
import { type } from "arktype";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { validators } from "../../../src/formats/compiled-validators.js";
import { readYamlFile } from "../../../src/dataset/yaml-file.ts";
import { upstreamSourcesModel } from "../../../src/formats/upstream-sources/upstream-sources.ts";
import { checkUpstreamSources } from "../../../src/formats/upstream-sources/upstream-sources-check.ts";

const repo = join(import.meta.dir, "../../..");
const debian = join(repo, "datasets", "debian");
const sha = "a".repeat(64);
const file = (url: string, sha256 = sha) => ({ url, sha256 });
const good = { package: "expat", version: "2.5.0-1+deb12u2", cve: "CVE-2024-45490", cwe: "CWE-1284", tests: "here", files: [file("http://deb.debian.org/debian/pool/main/e/expat/expat_2.5.0-1+deb12u2.dsc")] };
const problems = (data: unknown) => {
  const r = checkUpstreamSources(data);
  return r.ok ? [] : r.problems;
};

describe("upstream/sources.yaml", () => {
  test("every pin of datasets/debian is valid, and each file is named by its URL", () => {
    const tasks = readdirSync(debian, { withFileTypes: true }).filter((d) => d.isDirectory());
    expect(tasks.length).toBeGreaterThan(0);
    for (const task of tasks) {
      const read = readYamlFile(join(debian, task.name, "upstream", "sources.yaml"));
      if (!read.ok) throw new Error(read.cause);
      const r = checkUpstreamSources(read.data);
      if (!r.ok) throw new Error(`${task.name}: ${r.problems.join("; ")}`);
      for (const f of r.value.files) expect(f.url.endsWith(`/${f.name}`)).toBe(true);
    }
  });

  test("bad inputs: one `key: rule` line per problem, in the file's order", () => {
    const cases: [unknown, string[]][] = [
      [[good], ["must be a mapping"]],
      ["x", ["must be a mapping"]],
      [{}, ["package: must be a non-empty string", "version: must be a non-empty string", "files: must be a non-empty list of {url, sha256}"]],
      [{ ...good, package: "  ", files: [] }, ["package: must be a non-empty string", "files: must be a non-empty list of {url, sha256}"]],
      [{ ...good, version: 3, files: "x.dsc" }, ["version: must be a non-empty string", "files: must be a non-empty list of {url, sha256}"]],
      [{ ...good, cve: "2024-1", cwe: "787", tests: "both" }, ["cve: must look like CVE-2024-45490", "cwe: must look like CWE-787", "tests: must be upstream or here"]],
      [{ ...good, files: [file("ftp://host/x"), file("https://host/y", "A".repeat(64))] }, ["files[0].url: must be an http(s) URL of a file", "files[1].sha256: must be 64 lowercase hex digits"]],
      [{ ...good, files: [3, { url: "https://host/y" }] }, ["files[0]: must be a mapping with url and sha256", "files[1].sha256: must be 64 lowercase hex digits"]],
      [{ ...good, shas: 1, files: [{ ...file("https://host/y"), size: 3 }] }, ["files[0].size: is not a key of a pinned file (url, sha256)", "shas: is not a key of sources.yaml (package, version, cve, published, fixed, cwe, left_out, poc, tests, files)"]],
      [{ ...good, files: [file("https://host/a%zz")] }, ["files[0].url: must be an http(s) URL of a file"]],
      [{ ...good, files: [file("https://host/dir/.."), file("https://host/%2e%2e%2fx")] }, ["files[0].url: '' is not a plain file name", "files[1].url: '../x' is not a plain file name"]],
      [{ ...good, files: [file("https://a/x.dsc"), file("https://b/x.dsc"), file("https://c/sources.yaml")] }, ["files[1].url: a second file named x.dsc", "files[2].url: a second file named sources.yaml"]],
    ];
    for (const [input, lines] of cases) expect([input, problems(input)]).toEqual([input, lines]);
  });

  test("published and fixed: a day, YYYY-MM-DD, written as a YAML date or a string; optional in the format", () => {
    const dated = readYamlFile(join(debian, "expat-cve-2024-45490", "upstream", "sources.yaml"));
    if (!dated.ok) throw new Error(dated.cause);
    // unquoted, YAML 1.1 reads a date (as PyYAML does); the check gives the same day as text
    expect((dated.data as Record<string, unknown>).published).toBeInstanceOf(Date);
    const r = checkUpstreamSources(dated.data);
    expect(r.ok && [r.value.published, r.value.fixed]).toEqual(["2024-08-30", "2024-09-08"]);
    const quoted = checkUpstreamSources({ ...good, published: "2024-08-30", fixed: "2024-09-08" });
    expect(quoted.ok && [quoted.value.published, quoted.value.fixed]).toEqual(["2024-08-30", "2024-09-08"]);
    const none = checkUpstreamSources(good);
    expect(none.ok && [none.value.published, none.value.fixed]).toEqual([null, null]);
    const cases: [unknown, string[]][] = [
      [{ ...good, published: "2024-8-30", fixed: 20240908 }, ["published: must be a date, YYYY-MM-DD", "fixed: must be a date, YYYY-MM-DD"]],
      [{ ...good, published: "2024-02-30", fixed: "2023-13-01" }, ["published: must be a date, YYYY-MM-DD", "fixed: must be a date, YYYY-MM-DD"]],
      [{ ...good, published: "yesterday", cwe: "x" }, ["published: must be a date, YYYY-MM-DD", "cwe: must look like CWE-787"]],
      [{ ...good, fixed: "2024-02-29", files: [file("https://a/x"), file("https://b/x")] }, ["files[1].url: a second file named x"]],
    ];
    for (const [input, lines] of cases) expect([input, problems(input)]).toEqual([input, lines]);
  });

  test("the compiled validator and the model agree", () => {
    const inputs: unknown[] = [good, { package: "p", version: "v", files: [file("https://h/f")] }, { ...good, poc: "" }, { ...good, left_out: "x.patch" }, { ...good, files: [] }, { ...good, tests: "upstream" }, { ...good, x: 1 }, { ...good, published: "2024-08-30", fixed: null }, { ...good, fixed: "30.08.2024" }];
    for (const input of inputs) expect([input, validators["upstream-sources"](input)]).toEqual([input, !(upstreamSourcesModel(input) instanceof type.errors)]);
  });

  test("a valid file is checked without loading arktype (a bad one loads it)", () => {
    const loads = (doc: unknown) => {
      const script = `
        const { checkUpstreamSources } = await import(${JSON.stringify(join(repo, "src/formats/upstream-sources/upstream-sources-check.ts"))});
        const r = checkUpstreamSources(${JSON.stringify(doc)});
        console.log(JSON.stringify({ ok: r.ok, arktype: Object.keys(require.cache).some((k) => k.includes("/node_modules/arktype/")) }));`;
      const run = Bun.spawnSync([process.execPath, "-e", script], { cwd: repo, stdout: "pipe", stderr: "pipe" });
      return [run.exitCode, JSON.parse(run.stdout.toString())];
    };
    expect(loads(good)).toEqual([0, { ok: true, arktype: false }]);
    expect(loads({ ...good, cwe: "x" })).toEqual([0, { ok: false, arktype: true }]);
  });
});
