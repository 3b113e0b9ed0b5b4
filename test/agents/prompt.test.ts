import { describe, expect, test } from "bun:test";
import { taskPrompt } from "../../src/agents/prompt.ts";

const brief = { id: "t", project: "htmlesc", language: "c", source: "/src/htmlesc", issue: "It overflows.", bug_description: "none", crash_reports: [{ path: "a.md", text: "one ``` fence" }, { path: "b.txt", text: "" }, { path: "c.txt", text: "ASAN" }] };

describe("task prompt", () => {
  test("the reference's sections in order; placeholder and empty fields left out; reports numbered and fenced longer than their backticks", () => {
    const p = taskPrompt(brief);
    const headings = p.split("\n").filter((l) => l.startsWith("#"));
    expect(headings).toEqual(["# Task", "## Objective", "## Requirements", "## Validation", "## Vulnerability", "### Issue", "### Report 1 of 2", "### Report 2 of 2", "## Project", "## Build and test"]);
    expect(p).toContain("Fix a confirmed vulnerability in htmlesc, a C project");
    expect(p).toContain("````text\none ``` fence\n````");
    expect(p).toContain("- Source code: /src/htmlesc");
    expect(p).not.toContain("Bug description");
    expect(taskPrompt(brief)).toBe(p);
  });

  test("a task with no description says so", () => {
    expect(taskPrompt({ ...brief, issue: null, crash_reports: [] })).toContain("The task gives no description of the vulnerability beyond this prompt.");
  });
});

describe("task prompt: build and test", () => {
  const scripts = { build_script: "#!/bin/bash\nset -e\nmake\n", test_script: "#!/bin/bash\n/ssebench/scripts/build.sh\nmake test\n" };

  test("the build script and the test script quoted as the reference does, the test script's build call replaced by a comment", () => {
    const p = taskPrompt({ ...brief, ...scripts });
    expect(p.slice(p.indexOf("## Build and test"))).toBe(
      "## Build and test\n\n### Build script\n\n```bash\n#!/bin/bash\nset -e\nmake\n```\n\n### Test script\n\n```bash\n#!/bin/bash\n# build the project first.\nmake test\n```\n",
    );
    const plain = taskPrompt(brief);
    expect(p.slice(0, p.indexOf("## Build and test"))).toBe(plain.slice(0, plain.indexOf("## Build and test")));
  });

  test("one script alone; a script holding backticks gets a longer fence; no script at all says test_patch runs them", () => {
    const onlyTest = taskPrompt({ ...brief, test_script: "echo ```\n" });
    expect(onlyTest).not.toContain("### Build script");
    expect(onlyTest).toContain("### Test script\n\n````bash\necho ```\n````\n");
    expect(taskPrompt({ ...brief, build_script: null, test_script: "" })).toEndWith("## Build and test\n\nThe project is built and tested by the task's own scripts, which you cannot read; the test_patch tool runs them on your current change.\n");
  });
});
