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
