/**
 * Hostile agents, for real (docs/container-contract.md "Hostile agents"): each test performs the
 * attack as the agent (model) or from the agent's tree during grading (sse-runner), and shows the
 * grade stays the agent's and the grader unharmed. Fork bombs run under a small RLIMIT_NPROC.
 */
import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { dropUsers, ensureUsers, ipcOf, liveThreadsOf, newRun, type RunDirs, runEntrypoint, shAgent, testUids } from "./harness.ts";

let dirs: RunDirs | undefined;
setDefaultTimeout(90_000);
beforeAll(ensureUsers);
afterAll(dropUsers);
afterEach(() => dirs?.cleanup());

/** A world-writable folder of the run for the attackers' notes. */
function notes(d: RunDirs): string {
  const dir = join(d.base, "notes");
  mkdirSync(dir);
  chmodSync(dir, 0o1777);
  return dir;
}

/** perl: its own session (the group kill misses it), and a thread group whose leader exits (plain exit(2), not exit_group) while a thread keeps writing. */
const zombieLeader = (beat: string) => `perl -MPOSIX -Mthreads -e 'POSIX::setsid(); threads->create(sub { while (1) { open my $f, ">>", "${beat}"; print $f "x"; close $f; select undef, undef, undef, 0.02 } })->detach; select undef, undef, undef, 0.2; syscall(60, 0)'`;

/**
 * The agent's change to the fixture's code: calc.sh (run by the PoC and the tests, as sse-runner)
 * first runs attack.sh with `code`. Build recipes and tests would be set aside by grading.
 */
const fromCode = (code: string) =>
  `printf '%s\\n' '${code.replaceAll("'", "'\\''")}' > attack.sh && { head -n 1 calc.sh; echo 'sh "$(dirname "$0")/../attack.sh"'; tail -n +2 calc.sh; } > calc.new && mv calc.new calc.sh`;

const gradeOf = (r: { result: any }) => r.result.patch_result;

describe("nothing of the agent survives its phase", () => {
  test("a thread group with a zombie leader (as model) is killed at the end of the agent phase", async () => {
    dirs = newRun();
    const n = notes(dirs);
    const r = await runEntrypoint(dirs, shAgent(`${zombieLeader(join(n, "beat"))} & sleep 1; grep -c x ${n}/beat >/dev/null; grep ^State /proc/$!/status > ${n}/state; exit 0`));
    expect(readFileSync(join(n, "state"), "utf8")).toContain("Z (zombie)");
    expect(readFileSync(join(n, "beat"), "utf8").length).toBeGreaterThan(0);
    expect(gradeOf(r)).toMatchObject({ status: "failed", build_success: true, pov_passed: 0, func_test_success: true, error_type: null });
    expect(liveThreadsOf(testUids.model)).toEqual([]);
  });

  test("the same trick from the agent's code (as sse-runner) dies with its check; later checks are unharmed", async () => {
    dirs = newRun();
    const n = notes(dirs);
    const r = await runEntrypoint(dirs, shAgent(fromCode(`${zombieLeader(join(n, "beat"))} >/dev/null 2>&1 & sleep 1; grep ^State /proc/$!/status > ${n}/state`)));
    expect(readFileSync(join(n, "state"), "utf8")).toContain("Z (zombie)");
    expect(gradeOf(r)).toMatchObject({ status: "failed", build_success: true, func_test_success: true, intent_test_success: false, error_type: null });
    expect(gradeOf(r).checks.map((c: { check: string; status: string }) => `${c.check}:${c.status}`)).toEqual(["build:passed", "poc:failed", "function_test:passed", "intent_test:failed"]);
    expect(liveThreadsOf(testUids.runner)).toEqual([]);
  });
});

describe("the grader keeps working whatever the agent's code does", () => {
  test("System V shared memory, semaphores and message queues of model and sse-runner are removed", async () => {
    dirs = newRun();
    const n = notes(dirs);
    const make = (tag: string) => `perl -e 'use IPC::SysV qw(IPC_PRIVATE IPC_CREAT); my @ids = (shmget(IPC_PRIVATE, 1 << 20, IPC_CREAT | 0666), semget(IPC_PRIVATE, 1, IPC_CREAT | 0666), msgget(IPC_PRIVATE, IPC_CREAT | 0666)); die "ipc: $!" if grep { !defined } @ids; open my $f, ">", "${n}/${tag}"; print $f "@ids"'`;
    const r = await runEntrypoint(dirs, shAgent(`${make("model")} && ${fromCode(make("runner"))}`));
    expect(readFileSync(join(n, "model"), "utf8").split(" ")).toHaveLength(3);
    expect(readFileSync(join(n, "runner"), "utf8").split(" ")).toHaveLength(3);
    expect(gradeOf(r)).toMatchObject({ status: "failed", build_success: true, func_test_success: true });
    expect(ipcOf(testUids.model)).toEqual([]);
    expect(ipcOf(testUids.runner)).toEqual([]);
    expect(readFileSync(join(dirs.results, "entrypoint.log"), "utf8")).toContain("Removed System V IPC objects");
  });

  test("every child of model and sse-runner starts as the OOM killer's first choice (+1000), never below the entrypoint", async () => {
    dirs = newRun();
    const n = notes(dirs);
    const own = Number(readFileSync("/proc/self/oom_score_adj", "utf8")); // the entrypoint's level is this test's (0 here)
    const probe = (tag: string) => `cat /proc/self/oom_score_adj > ${n}/${tag}; (echo ${own - 1} > /proc/self/oom_score_adj) 2>/dev/null && echo lowered >> ${n}/${tag}; true`;
    const r = await runEntrypoint(dirs, shAgent(`${probe("model")}; ${fromCode(probe("runner"))}`));
    expect(gradeOf(r).build_success).toBe(true);
    expect(readFileSync(join(n, "model"), "utf8")).toBe("1000\n");
    expect(readFileSync(join(n, "runner"), "utf8")).toBe("1000\n");
  });

  test("a perl fork bomb (model, then sse-runner) stays under RLIMIT_NPROC; grading runs every check", async () => {
    dirs = newRun({ env: { SSE_MODEL_NPROC: "24", SSE_RUNNER_NPROC: "24" } });
    const n = notes(dirs);
    // Forks sleepers until fork fails, notes how many and its limits, then forks for a second more.
    const bomb = `exec perl -e 'my $n = 0; while (defined(my $p = fork)) { if (!$p) { sleep 1000; exit } $n++ } open my $l, "<", "/proc/self/limits"; open my $f, ">>", "${n}/$<"; print $f "$n ", grep { /^Max processes/ } <$l>; close $f; my $t = time + 1; while (time < $t) { fork }' >/dev/null 2>&1`;
    const r = await runEntrypoint(dirs, shAgent(`${fromCode(bomb)} && ${bomb}`));
    for (const uid of [testUids.model, testUids.runner]) {
      // One line per time the bomb ran: forks that succeeded, then the limits line.
      const runs = readFileSync(join(n, String(uid)), "utf8").trim().split("\n");
      expect(Number(runs[0]!.split(" ")[0])).toBeGreaterThan(10); // the bomb did fill its share
      for (const line of runs) {
        expect(Number(line.split(" ")[0])).toBeLessThan(24);
        expect(line).toMatch(/^\d+ Max processes\s+24\s+24\s/);
      }
    }
    // Whether the bomb's leftovers made a check of the agent's own tree fail is the agent's
    // business; the grader went on through every check, and a control run (if any) passed.
    const p = gradeOf(r);
    expect(p).toMatchObject({ status: "failed", build_success: true, pov_passed: 0, intent_test_success: false, error_type: null });
    expect(new Set(p.checks.map((c: { check: string }) => c.check))).toEqual(new Set(["build", "poc", "function_test", "intent_test"]));
    for (const c of p.checks) if (c.tree === "original") expect(c.status).toBe("passed");
    expect(liveThreadsOf(testUids.model)).toEqual([]);
    expect(liveThreadsOf(testUids.runner)).toEqual([]);
  });

  test("code of the agent that hangs a check fails that check (check_timeout), even when it uses up the grading time", async () => {
    // Its own limit: the PoC and the function test time out, the control run passes, grading goes on.
    dirs = newRun({ env: { SSE_CHECK_TIMEOUT: "1" } });
    let r = await runEntrypoint(dirs, shAgent(fromCode("sleep 30")));
    let p = gradeOf(r);
    expect(p).toMatchObject({ status: "failed", build_success: true, pov_passed: 0, func_test_success: false, error_type: "check_timeout", error_msg: "PoC failed: pocs/poc.txt" });
    expect(p.checks.map((c: { check: string; tree: string; status: string }) => `${c.check}:${c.tree}:${c.status}`)).toEqual([
      "build:patched:passed",
      "poc:patched:timeout",
      "function_test:patched:timeout",
      "function_test:original:passed",
      "intent_test:patched:timeout",
    ]);
    expect(r.result.runtime_result.evaluator_timeout).toBe(false);
    dirs.cleanup();
    // The whole grading limit: the hung PoC is the agent's failure, not an ungraded run.
    dirs = newRun({ env: { SSE_GRADING_TIMEOUT: "2" } });
    r = await runEntrypoint(dirs, shAgent(fromCode("sleep 30")));
    p = gradeOf(r);
    expect(p).toMatchObject({ status: "failed", build_success: true, pov_passed: 0, pov_total: 1, error_type: "check_timeout", error_msg: "PoC failed: pocs/poc.txt" });
    expect(r.result.runtime_result.evaluator_timeout).toBe(false);
  });

  test("grading copies trees sparse-aware (--sparse=always): zeros cost no disk in a scratch tree", async () => {
    dirs = newRun();
    // Dense zeros in the tree: cp's default keeps them dense, --sparse=always makes holes.
    Bun.spawnSync(["sh", "-c", `head -c 64M /dev/zero > ${join(dirs.source, "sparse.bin")}`]);
    const build = join(dirs.taskRoot, "scripts/build.sh");
    writeFileSync(build, readFileSync(build, "utf8").replace("\n", '\necho "blocks $(stat -c %b sparse.bin)"\n'));
    const r = await runEntrypoint(dirs, shAgent("true"));
    expect(gradeOf(r).build_success).toBe(true);
    const blocks = Number(/^blocks (\d+)$/m.exec(readFileSync(join(dirs.results, "grading/build.log"), "utf8"))?.[1]);
    expect(blocks).toBeLessThan(64); // 64 MiB dense would be 131072 blocks of 512 bytes
  });
});

describe("the change is bounded before it is hashed or held", () => {
  test("thousands of sparse files just under the per-file limit: failed at once (change_too_large), never hashed", async () => {
    dirs = newRun();
    const r = await runEntrypoint(dirs, shAgent(`perl -e 'for (1..2000) { open my $f, ">", "s$_.bin" or die; truncate $f, 99 * 2**20; close $f }'`));
    expect(gradeOf(r)).toMatchObject({ status: "failed", error_type: "change_too_large", error_msg: "Patch too large: the change's new or resized files add up to over 1024 MB", checks: [] });
    expect(gradeOf(r).error_log.split("\n")[0]).toMatch(/^s\d+\.bin \(103809024 bytes\)$/);
  });

  test("an incompressible change whose patch is over SSE_MAX_PATCH_MB: git is stopped, the grade is failed", async () => {
    dirs = newRun({ env: { SSE_MAX_PATCH_MB: "8" } });
    const r = await runEntrypoint(dirs, shAgent("for i in 1 2 3 4; do head -c 4M /dev/urandom > r$i.bin; done"));
    expect(gradeOf(r)).toMatchObject({ status: "failed", error_type: "change_too_large", error_msg: "Patch too large: the patch is over 8 MB" });
    expect(() => readFileSync(join(dirs!.results, "final.patch"))).toThrow();
  });

  test("more new files than SSE_MAX_CHANGE_FILES: failed (change_too_large)", async () => {
    dirs = newRun({ env: { SSE_MAX_CHANGE_FILES: "100" } });
    const r = await runEntrypoint(dirs, shAgent(`perl -e 'for (1..500) { open my $f, ">", "n$_.txt" or die; print $f "$_\\n" }'`));
    expect(gradeOf(r)).toMatchObject({ status: "failed", error_type: "change_too_large", error_msg: "Patch too large: the change has over 100 new or resized files" });
  });
});

describe("logs are bounded", () => {
  test("agent.log, a check's log and a plugin's log keep their head and tail and say what was cut", async () => {
    dirs = newRun({ env: { SSE_MAX_LOG_MB: "1" }, plugins: [{ name: "chatty", hook: "after-grading", script: "head -c 30000000 /dev/zero | tr '\\0' p; echo PLUGIN-END" }] });
    const flood = (ch: string, end: string) => `echo START; head -c 50000000 /dev/zero | tr '\\0' ${ch}; echo ${end}`;
    const r = await runEntrypoint(dirs, shAgent(`${fromCode(`${flood("c", "CHECK-END")} >&2`)} && ${flood("a", "AGENT-END")}`));
    expect(gradeOf(r)).toMatchObject({ status: "failed", build_success: true });
    const logs = { agent: join(dirs.results, "agent.log"), check: join(dirs.results, "grading/poc-1.log"), plugin: join(dirs.archive, "plugins/chatty.log") };
    for (const [what, path] of Object.entries(logs)) {
      const text = readFileSync(path, "latin1");
      expect(text.length, what).toBeGreaterThan(2 ** 20);
      expect(text.length, what).toBeLessThan(2 ** 20 + 200);
      expect(/\n\[ssebench: \d+ bytes of output cut here; the log keeps its first and last 524288 bytes\]\n/.test(text), what).toBe(true);
    }
    // (booleans: a failing match would print a megabyte)
    expect(readFileSync(logs.agent, "latin1").startsWith("START\naaaa")).toBe(true);
    expect(readFileSync(logs.agent, "latin1").endsWith("aaaaAGENT-END\n")).toBe(true);
    expect(readFileSync(logs.check, "latin1").includes("ccccCHECK-END\n")).toBe(true);
    expect(readFileSync(logs.plugin, "latin1").endsWith("ppppPLUGIN-END\n")).toBe(true);
  });
});

describe("the archive is bounded at the end of the run", () => {
  test("over SSE_MAX_ARCHIVE_MB the largest files the agent left go first; plugin output stays", async () => {
    dirs = newRun({ env: { SSE_MAX_ARCHIVE_MB: "5" }, plugins: [{ name: "note", hook: "after-grading", script: "echo noted" }] });
    const r = await runEntrypoint(dirs, shAgent('cd "$SSE_ARCHIVE" && mkdir -p deep/er && truncate -s 6M big.bin && head -c 3M /dev/zero > deep/er/mid.bin && echo keep > small.txt'));
    expect(gradeOf(r).status).toBe("failed");
    const exists = (rel: string) => existsSync(join(dirs!.archive, rel));
    expect(exists("big.bin")).toBe(false);
    expect(exists("deep/er/mid.bin")).toBe(true);
    expect(exists("small.txt")).toBe(true);
    expect(exists("plugins/note.log")).toBe(true);
    expect(readFileSync(join(dirs.results, "entrypoint.log"), "utf8")).toContain("Archive over its bounds: entries removed");
  });

  /** `depth` folders of 200-character names below `top`, then CMD inside the deepest (bash's cd goes past PATH_MAX, dash's does not). */
  const deep = (top: string, depth: number, cmd: string) => `cd "$SSE_ARCHIVE" && mkdir ${top} && cd ${top} && bash -c 'n=$(printf "d%.0s" $(seq 200)) && for i in $(seq ${depth}); do mkdir $n && cd $n; done && ${cmd}'`;

  test("files deeper than PATH_MAX count and go like any other", async () => {
    dirs = newRun({ env: { SSE_MAX_ARCHIVE_MB: "5" } });
    // 40 levels of 201 bytes: the sparse file's path is over 8,000 bytes long.
    const r = await runEntrypoint(dirs, shAgent(`echo keep > "$SSE_ARCHIVE/small.txt" && ${deep("deep", 40, "truncate -s 6M big.bin && echo here > here.txt")}`));
    expect(gradeOf(r).status).toBe("failed");
    const found = Bun.spawnSync(["find", dirs.archive, "-type", "f", "-printf", "%f %s\n"]).stdout.toString().trim().split("\n").sort();
    expect(found).toEqual(["here.txt 5", "small.txt 5"]);
  });

  test("the agent's files in archive/plugins count too: a 3 GB sparse file there goes", async () => {
    dirs = newRun({ env: { SSE_MAX_ARCHIVE_MB: "5" } });
    await runEntrypoint(dirs, shAgent('mkdir -p "$SSE_ARCHIVE/plugins" && truncate -s 3G "$SSE_ARCHIVE/plugins/huge.bin" && echo keep > "$SSE_ARCHIVE/plugins/small.txt"'));
    expect(existsSync(join(dirs.archive, "plugins/huge.bin"))).toBe(false);
    expect(existsSync(join(dirs.archive, "plugins/small.txt"))).toBe(true);
  });

  test("over SSE_MAX_ARCHIVE_FILES the shallowest entries stay (the transcript at the top), the deepest go, plugin output kept", async () => {
    dirs = newRun({ env: { SSE_MAX_ARCHIVE_FILES: "100" }, plugins: [{ name: "note", hook: "after-grading", script: "echo noted" }] });
    await runEntrypoint(dirs, shAgent(`cd "$SSE_ARCHIVE" && mkdir -p a/b && (cd a/b && seq 300 | xargs touch) && seq 50 | sed 's/^/top-/' | xargs touch && echo '{}' > dialog.jsonl`));
    const count = Bun.spawnSync(["find", dirs.archive, "-mindepth", "1"]).stdout.toString().trim().split("\n").length;
    expect(count).toBe(100);
    for (const rel of ["dialog.jsonl", "top-1", "top-50", "a/b", "plugins/note.log", "plugins/results.json"]) expect(existsSync(join(dirs.archive, rel)), rel).toBe(true);
    expect(readFileSync(join(dirs.results, "entrypoint.log"), "utf8")).toContain("removed=256");
  });
});

describe("no_new_privs, set by the entrypoint itself (a swarm service has no --security-opt)", () => {
  test("the agent, a plugin and the agent's code in grading run with NoNewPrivs 1; a setuid-root binary gives them nothing", async () => {
    dirs = newRun({ plugins: [{ name: "probe", hook: "before-agent", script: `grep ^NoNewPrivs /proc/self/status > "$SSE_ARCHIVE/plugin-nnp"` }] });
    const n = notes(dirs);
    // A root-owned setuid copy of id: without the flag, exec makes its effective uid 0.
    const suid = join(n, "suid-id");
    copyFileSync("/usr/bin/id", suid);
    chmodSync(suid, 0o4755);
    const baseline = Bun.spawnSync([suid, "-u"], { uid: testUids.model, gid: testUids.model });
    expect(baseline.stdout.toString().trim()).toBe("0");
    const probe = (who: string) => `grep ^NoNewPrivs /proc/self/status > ${n}/${who}-nnp; ${suid} -u > ${n}/${who}-euid`;
    const r = await runEntrypoint(dirs, shAgent(`${probe("agent")}; ${fromCode(probe("grading"))}`));
    expect(gradeOf(r).status).toBe("failed");
    for (const who of ["agent", "grading"]) expect(readFileSync(join(n, `${who}-nnp`), "utf8"), who).toBe("NoNewPrivs:\t1\n");
    expect(readFileSync(join(n, "agent-euid"), "utf8").trim()).toBe(String(testUids.model));
    expect(readFileSync(join(n, "grading-euid"), "utf8").trim()).toBe(String(testUids.runner));
    expect(readFileSync(join(dirs.archive, "plugin-nnp"), "utf8")).toBe("NoNewPrivs:\t1\n");
  });
});
