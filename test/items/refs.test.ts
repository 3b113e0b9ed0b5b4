import { describe, expect, test } from "bun:test";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { load } from "./helpers.ts";
import { declarative, loadError, loadText, tree } from "./helpers.ts";

describe("refs: text and YAML files, fragments, the dataset folder as base", () => {
  test("a .txt ref is raw text without trailing newlines; a YAML ref is data", async () => {
    const { items } = await loadText(
      declarative("    - {id: a, inputs: {user: {ref: prompts/a.txt}}}\n    - {id: b, inputs: {user: {ref: prompts/b.yaml}}}\n"),
      { "prompts/a.txt": "Line one\nline two\n\n", "prompts/b.yaml": "Scalar prompt from YAML\n" },
    );
    expect(items.map((i) => i.inputs.user)).toEqual(["Line one\nline two", "Scalar prompt from YAML"]);
  });

  test("refs resolve from the dataset's folder, not the working directory", async () => {
    const dir = tree({ "sub/ds.yaml": declarative("    - {id: a, inputs: {user: {ref: p.txt}}}\n"), "sub/p.txt": "here", "p.txt": "wrong" });
    const previous = process.cwd();
    process.chdir(dir);
    try {
      expect((await load("sub/ds.yaml")).items[0]?.inputs.user).toBe("here");
    } finally {
      process.chdir(previous);
    }
  });

  test("fragments: a key, an entry of items, fall-through to fixtures, a list entry by id", async () => {
    const files = {
      "f.yaml": "greeting: Hello there\nitems:\n  - {id: x, content: from items}\nfixtures:\n  - {id: y, fares: [1, 2]}\n",
      "list.yaml": "- {id: 7, v: seven}\n",
    };
    const { items } = await loadText(
      declarative(
        "    - {id: a, inputs: {user: {ref: 'f.yaml#greeting'}}}\n    - {id: b, inputs: {user: {ref: 'f.yaml#x'}}}\n    - {id: c, inputs: {user: x, tool_fixtures: 'f.yaml#y'}}\n    - {id: d, inputs: {user: x, tool_fixtures: 'list.yaml#7'}}\n",
      ),
      files,
    );
    expect(items[0]?.inputs.user).toBe("Hello there");
    expect(items[1]?.inputs.user).toBe("from items");
    expect(items[2]?.inputs.tool_fixtures).toEqual({ by_tool: { "*": { id: "y", fares: [1, 2] } } });
    expect(items[3]?.inputs.tool_fixtures).toEqual({ by_tool: { "*": { id: 7, v: "seven" } } });
  });

  test("errors: missing file, fragment on text, unknown fragment, {id:} catalog ref, non-string ref", async () => {
    const one = (user: string, files: Record<string, string> = {}) => loadError(declarative(`    - id: a\n      inputs: {user: ${user}}\n`), files);
    expect(await one("{ref: nope.txt}")).toMatch(/ds\.yaml:8:22: item a: dataset ref 'nope\.txt' not found \(looked for \/.*\/nope\.txt\)$/);
    expect(await one("{ref: 'p.txt#x'}", { "p.txt": "t" })).toEndWith("item a: text ref 'p.txt#x' does not support #fragments");
    expect(await one("{ref: 'f.yaml#zz'}", { "f.yaml": "a: 1\n" })).toEndWith("item a: fixture id 'zz' not found");
    expect(await one("{id: mmlu/q1}")).toEndWith("ds.yaml:8:22: item a: catalog id refs are not resolved yet: 'mmlu/q1'");
    expect(await one("{ref: 5}")).toEndWith("item a: ref object needs ref: path");
  });

  test("refs may not escape the dataset's folder, by .., absolute path or symlink", async () => {
    const dir = tree({ "outside.txt": "secret", "ds/p.txt": "ok" });
    symlinkSync(join(dir, "outside.txt"), join(dir, "ds/link.txt"));
    const escape = "points outside the dataset's folder; refs must stay inside it (copy the file next to the dataset)";
    for (const ref of ["../outside.txt", join(dir, "outside.txt"), "link.txt"]) {
      const files = { "ds/ds.yaml": declarative(`    - {id: a, inputs: {user: {ref: '${ref}'}}}\n`) };
      const d = tree({ ...files, "outside.txt": "secret" });
      if (ref === "link.txt") symlinkSync(join(d, "outside.txt"), join(d, "ds/link.txt"));
      const error = await load(join(d, "ds/ds.yaml")).then(
        () => "",
        (e: Error) => e.message,
      );
      expect(error).toEndWith(`item a: dataset ref '${ref}' ${escape}`);
    }
  });

  test("chained refs are followed; a cycle is an error naming the chain", async () => {
    const ok = await loadText(declarative("    - {id: a, inputs: {user: x, tool_fixtures: one.yaml}}\n"), {
      "one.yaml": "ref: two.yaml\n",
      "two.yaml": "routes: [r1]\n",
    });
    expect(ok.items[0]?.inputs.tool_fixtures).toEqual({ by_tool: { "*": { routes: ["r1"] } } });
    const error = await loadError(declarative("    - {id: a, inputs: {user: x, tool_fixtures: a.yaml}}\n"), {
      "a.yaml": "ref: b.yaml\n",
      "b.yaml": "ref: 'a.yaml'\n",
    });
    expect(error).toEndWith("item a: cyclic ref: a.yaml -> b.yaml -> a.yaml");
  });
});

describe("memory seeds: every file shape", () => {
  const seeds = (slot: string, files: Record<string, string>) =>
    loadText(declarative(`    - id: a\n      inputs: {user: x, memory_seeds: ${slot}}\n`), files).then((r) => r.items[0]?.inputs.memory_seeds);

  test("bare list file by bare path; mapping with seeds/items/entries list", async () => {
    expect(await seeds("s.yaml", { "s.yaml": "- {source: a, content: c}\n" })).toEqual([{ source: "a", content: "c" }]);
    expect(await seeds("{ref: s.yaml}", { "s.yaml": "seeds: [{content: c1}]\n" })).toEqual([{ content: "c1" }]);
    expect(await seeds("s.yaml", { "s.yaml": "entries: [{content: c2}]\n" })).toEqual([{ content: "c2" }]);
  });

  test("a MemorySeed document: key becomes source, text becomes content, non-mappings dropped", async () => {
    const doc = "apiVersion: memory-seed/v1\nkind: MemorySeed\nentries:\n  - {key: pref, content: likes tea}\n  - {key: k2, text: from text}\n  - plain\n";
    expect(await seeds("ms.yaml", { "ms.yaml": doc })).toEqual([
      { key: "pref", content: "likes tea", source: "pref" },
      { key: "k2", text: "from text", source: "k2", content: "from text" },
    ]);
  });

  test("one entry by fragment; inline list kept as given; an empty list is none", async () => {
    expect(await seeds("{ref: 'people.yaml#alice'}", { "people.yaml": "- {id: alice, content: A}\n- {id: bob, content: B}\n" })).toEqual([
      { id: "alice", content: "A" },
    ]);
    expect(await seeds("[{content: inline, key: k}]", {})).toEqual([{ content: "inline", key: "k" }]);
    expect(await seeds("[]", {})).toBeUndefined();
  });
});

describe("tool fixtures: normalised to by_tool", () => {
  const fixtures = (slot: string, files: Record<string, string> = {}) =>
    loadText(declarative(`    - id: a\n      inputs:\n        user: x\n        tool_fixtures: ${slot}\n`), files).then((r) => r.items[0]?.inputs.tool_fixtures);
  const files = { "fares.yaml": "fares: [10, 20]\n", "routes.yaml": "routes: [r]\n", "note.txt": "text payload\n" };

  test("path and {ref} → the '*' fallback", async () => {
    expect(await fixtures("fares.yaml", files)).toEqual({ by_tool: { "*": { fares: [10, 20] } } });
    expect(await fixtures("{ref: note.txt}", files)).toEqual({ by_tool: { "*": "text payload" } });
  });

  test("binding list with tool and tools; later entries win", async () => {
    expect(await fixtures("[{tool: get_fares, ref: fares.yaml}, {tools: [a, b], ref: routes.yaml}, {ref: note.txt}]", files)).toEqual({
      by_tool: { get_fares: { fares: [10, 20] }, a: { routes: ["r"] }, b: { routes: ["r"] }, "*": "text payload" },
    });
  });

  test("by_tool: paths and refs load, inline payloads stay", async () => {
    expect(await fixtures("{by_tool: {get_fares: fares.yaml, '*': {ref: routes.yaml}, book: {ok: true}}}", files)).toEqual({
      by_tool: { get_fares: { fares: [10, 20] }, "*": { routes: ["r"] }, book: { ok: true } },
    });
  });

  test("inline payload outside by_tool and bad list entries are errors", async () => {
    const shape = (keys: string) =>
      `item a: tool_fixtures: expected a path, {ref: path}, a binding list, or by_tool; got ${keys}. Put inline payloads under by_tool (use "*" for every tool). See docs/manifests/dataset.md.`;
    expect(await fixtures("{services: {x: 1}}").catch((e: Error) => e.message)).toEndWith(shape("['services']"));
    expect(await fixtures("5").catch((e: Error) => e.message)).toEndWith(shape("int"));
    expect(await fixtures("[{tool: t}]").catch((e: Error) => e.message)).toEndWith("item a: tool_fixtures list entries must be {tool | tools, ref: path}");
  });
});

describe("checkpoint", () => {
  test("load from a path is loaded as data; a non-mapping checkpoint is an error", async () => {
    const { items } = await loadText(declarative("    - {id: a, inputs: {user: x, checkpoint: {load: cp.yaml}}}\n"), { "cp.yaml": "step: 3\n" });
    expect(items[0]?.inputs.checkpoint).toEqual({ load: { step: 3 }, save: false });
    const error = await loadError(declarative("    - {id: a, inputs: {user: x, checkpoint: later}}\n"));
    expect(error).toEndWith("item a: inputs.checkpoint must be a mapping");
  });
});
