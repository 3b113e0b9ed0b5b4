/**
 * Grading integrity on the demo's htmlesc task and a real engine (issue 9 items 9 and 10): a
 * hostile agent that leaves the bug and stubs the Makefile (do-nothing program, echoing `test:`)
 * fails; an honest agent that fixes the bug, adds a .gitignore line matching a tracked test file
 * and its own regression test where the hidden tests go passes; a constructor that exits 0 in
 * checks that look like PoC runs or intent tests finds nothing that tells them (issue 27 item 11).
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Summary } from "../../src/formats/run/summary.ts";
import { ssebench, tempDir } from "../helpers/cli.ts";
import { DEMO_TASK, demoDir, E2E, homeWithAgents, readJson, SKIP_REASON } from "./helpers.ts";

setDefaultTimeout(900_000);
const results = tempDir("ssebench-e2e-grading-");

const STUB_MAKEFILE = "htmlesc:\n\techo exit 0 > htmlesc && chmod +x htmlesc\ntest:\n\t@echo all tests passed\n.PHONY: htmlesc test\n";
const stubber = ["sh", "-c", `printf '%s' '${STUB_MAKEFILE}' > Makefile`];

function honestCmd(): string[] {
  const fix = Buffer.from(readFileSync(join(demoDir, DEMO_TASK, "sse", "diffs", "patch.diff"))).toString("base64");
  const ownTest = `\texpect("<p>", "&lt;p&gt;");`;
  return [
    "sh",
    "-c",
    [
      `echo ${fix} | base64 -d | git apply`,
      // Its own regression test right where the hidden tests add theirs.
      `sed -i 's|^\texpect("&amp;", "&amp;amp;");$|&\\n${ownTest.replaceAll("&", "\\&")}|' tests/test_htmlesc.c`,
      // Meant for the test binary, but it matches the tracked tests/test_htmlesc.c too.
      "echo 'test_*' >> .gitignore",
    ].join(" && "),
  ];
}

/**
 * No fix: a constructor added to the vulnerable file that exits 0 whenever something the harness
 * gave its process says this is a PoC run or an intent test (the variable SSE_CHECK, a check name
 * in the working directory or HOME, the hidden diff readable), so the PoC stops "triggering" and
 * the hidden tests "pass", while the function test sees the real program.
 */
const TELLER = `
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
static int names_it(const char *s) { return s && (strstr(s, "poc") || strstr(s, "intent")); }
__attribute__((constructor)) static void graded_quietly(void) {
  char cwd[4096];
  if (names_it(getenv("SSE_CHECK")) || names_it(getenv("HOME")) || names_it(getcwd(cwd, sizeof cwd))) _exit(0);
  if (access("/ssebench/diffs/test.diff", R_OK) == 0) _exit(0);
}
`;
const teller = ["sh", "-c", `echo ${Buffer.from(TELLER).toString("base64")} | base64 -d >> htmlesc.c`];

/** The fix with the entity table moved into a new entity.c, named in the Makefile beside htmlesc.c (issue 27 item 14). */
function newFileCmd(): string[] {
  const entityC = `#include "entity.h"\n\nconst char *html_entity(char c)\n{\n\tswitch (c) {\n\tcase '&': return "&amp;";\n\tcase '<': return "&lt;";\n\tcase '>': return "&gt;";\n\tcase '"': return "&quot;";\n\tcase '\\'': return "&#39;";\n\tdefault: return 0;\n\t}\n}\n`;
  const entityH = "#ifndef ENTITY_H\n#define ENTITY_H\nconst char *html_entity(char c);\n#endif\n";
  const b64 = (t: string) => Buffer.from(t).toString("base64");
  return [
    "sh",
    "-c",
    [
      `echo ${b64(entityC)} | base64 -d > entity.c`,
      `echo ${b64(entityH)} | base64 -d > entity.h`,
      // htmlesc.c: the static table gone (its 11 lines), the new one used for the length too.
      "sed -i '/^static const char \\*entity(char c)$/,/^}$/d; s/entity(in\\[i\\])/html_entity(in[i])/' htmlesc.c",
      `sed -i 's/^#include "htmlesc.h"$/&\\n#include "entity.h"/' htmlesc.c`,
      "sed -i '/^\t\tswitch (in\\[i\\]) {$/,/^\t\t}$/c\\\t\tn += html_entity(in[i]) != NULL ? strlen(html_entity(in[i])) : 1;' htmlesc.c",
      "sed -i 's/ htmlesc\\.c/ htmlesc.c entity.c/g' Makefile",
    ].join(" && "),
  ];
}

const home = homeWithAgents({ stubber: JSON.stringify(stubber), honest: JSON.stringify(honestCmd()), teller: JSON.stringify(teller), newfile: JSON.stringify(newFileCmd()) });
const env = { DOCKER_HOST: process.env.DOCKER_HOST, SSEBENCH_HOME: home.path };
afterAll(() => {
  results.cleanup();
  home.cleanup();
});

async function run(agent: string): Promise<{ summary: Summary; runDir: string }> {
  const r = await ssebench(["run", "--local", demoDir, "--task", DEMO_TASK, "--agent", agent, "--results", results.path, "--run-id", `${agent}-1`, "--timeout", "600"], { env });
  if (r.exitCode !== 0) console.error(r.stdout, r.stderr);
  const runDir = join(results.path, DEMO_TASK, "none", agent, `${agent}-1`);
  return { summary: readJson<Summary>(join(runDir, "summary.json")), runDir };
}

describe.skipIf(!E2E)(`grading integrity on a real engine${SKIP_REASON}`, () => {
  test("hostile agent: a stub Makefile over the unfixed bug is graded failed, the stub set aside", async () => {
    const { summary, runDir } = await run("stubber");
    expect(readFileSync(join(runDir, "final.patch"), "utf8")).toContain("+\t@echo all tests passed");
    expect(summary.patch_result).toMatchObject({ status: "failed", build_success: true, pov_passed: 0, intent_test_success: false, error_type: null });
    expect(summary.patch_result.set_aside).toEqual([{ path: "Makefile", reason: "build_file" }]);
  });

  test("hostile agent: a constructor that exits 0 when a check looks like a PoC run or an intent test finds no tell and fails", async () => {
    const { summary, runDir } = await run("teller");
    expect(readFileSync(join(runDir, "final.patch"), "utf8")).toContain("graded_quietly");
    expect(summary.patch_result).toMatchObject({ status: "failed", build_success: true, pov_passed: 0, func_test_success: true, intent_test_success: false });
  });

  test("honest agent: a fix that moves the entity table into a new entity.c and names it in the Makefile passes, the Makefile applied", async () => {
    const { summary, runDir } = await run("newfile");
    const patch = readFileSync(join(runDir, "final.patch"), "utf8");
    expect(patch).toContain("+\t$(CC) $(CFLAGS) -o $@ main.c htmlesc.c entity.c");
    expect(patch).toContain("+++ b/entity.c");
    expect(summary.patch_result).toMatchObject({ status: "passed", build_success: true, pov_passed: 1, func_test_success: true, intent_test_success: true, set_aside: [] });
  });

  test("honest agent: the fix, a .gitignore line and its own regression test next to the hidden tests pass", async () => {
    const { summary, runDir } = await run("honest");
    const patch = readFileSync(join(runDir, "final.patch"), "utf8");
    expect(patch).toContain('+\texpect("<p>", "&lt;p&gt;");');
    expect(patch).not.toContain("deleted file");
    expect(summary.patch_result).toMatchObject({ status: "passed", build_success: true, pov_passed: 1, func_test_success: true, intent_test_success: true });
    expect(summary.patch_result.set_aside).toEqual([{ path: "tests/test_htmlesc.c", reason: "test_file" }]);
  });
});
