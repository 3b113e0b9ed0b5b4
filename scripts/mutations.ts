/**
 * Small breaks of security-relevant code that the test suite must catch (scripts/mutation-check.ts).
 * `from` must occur exactly once in `file`; when the code moves, move the break with it.
 */
export interface Mutation {
  name: string;
  what: string;
  file: string;
  from: string;
  to: string;
  /** the tests meant to catch it */
  tests: string[];
  /** the break is in code the compiled binaries carry: rebuild dist/ before the tests */
  build?: boolean;
  /** the tests need a Docker engine (SSEBENCH_E2E=1) */
  engine?: boolean;
}

export const MUTATIONS: Mutation[] = [
  {
    name: "upstream-hash-unchecked",
    what: "a downloaded upstream source whose bytes differ from its pinned sha256 is cached and built from",
    file: "src/run/upstream-sources.ts",
    from: "if (actual !== file.sha256) throw new UserError(msg.sourceHashMismatch(pins.file, file.url, actual, file.sha256));",
    to: "void actual;",
    tests: ["test/run/upstream-sources.test.ts"],
  },
  {
    name: "upstream-file-name-escapes",
    what: "a pinned URL whose last segment is '../x' is accepted, so the staged file lands outside upstream/",
    file: "src/run/upstream-sources.ts",
    from: "if (!FILE_NAME.test(name)) throw bad(`${at}.url: '${name}' is not a plain file name`);",
    to: "void FILE_NAME;",
    tests: ["test/run/upstream-sources.test.ts"],
  },
  {
    name: "catalog-html-unescaped",
    what: "the catalog's HTML pages put manifest text into the page unescaped (a dataset's <script> runs in the reader's browser)",
    file: "src/catalog/html.ts",
    from: `return text.replace(/[&<>"']/g, (c) => ENTITIES[c] as string);`,
    to: `return text;`,
    tests: ["test/catalog/app.test.ts"],
  },
  {
    name: "catalog-csp-inline",
    what: "the catalog pages' Content-Security-Policy lets any inline script run, not only the filter",
    file: "src/catalog/html.ts",
    from: "`'sha256-${Bun.CryptoHasher.hash(\"sha256\", script, \"base64\")}'`",
    to: "\"'unsafe-inline'\"",
    tests: ["test/catalog/app.test.ts"],
  },
  {
    name: "prune-in-use",
    what: "images prune removes an image a container still uses",
    file: "src/images/prune.ts",
    from: "if (image.containers > 0) return undefined;",
    to: "",
    tests: ["test/images/inventory.test.ts"],
  },
  {
    name: "swarm-caps-kept",
    what: "a Swarm trial keeps Docker's default capabilities (--cap-drop ALL dropped from service create)",
    file: "src/run/swarm-service.ts",
    from: `args.push("--init", "--cap-drop", "ALL");`,
    to: `args.push("--init");`,
    tests: ["test/run/swarm-backend.test.ts"],
  },
  {
    name: "swarm-patch-readable",
    what: "the reference patch secret is readable by the agent in a Swarm trial (mode 0444)",
    file: "src/run/swarm-service.ts",
    from: "target=${SECRET_PATCH_TARGET},uid=0,gid=0,mode=0400",
    to: "target=${SECRET_PATCH_TARGET},uid=0,gid=0,mode=0444",
    tests: ["test/run/swarm-backend.test.ts"],
  },
  {
    name: "swarm-network-egress",
    what: "a Swarm trial's overlay network has a route out (--internal dropped)",
    file: "src/run/swarm-service.ts",
    from: `"--driver", "overlay", "--internal",`,
    to: `"--driver", "overlay",`,
    tests: ["test/run/swarm-backend.test.ts"],
  },
  {
    name: "no-memory-swap",
    what: "the run container may swap beyond its memory limit (--memory-swap dropped)",
    file: "src/run/container.ts",
    from: `    "--memory-swap",\n    spec.resources.memory,\n`,
    to: "",
    tests: ["test/run/container.test.ts"],
  },
  {
    name: "bridge-network",
    what: "the run container joins the default bridge instead of having no network",
    file: "src/run/container.ts",
    from: `args.push("--network", "none");`,
    to: `args.push("--network", "bridge");`,
    tests: ["test/run/container.test.ts"],
  },
  {
    name: "caps-kept",
    what: "the run container keeps Docker's default capabilities (--cap-drop ALL dropped)",
    file: "src/run/container.ts",
    from: `args.push("--security-opt", "no-new-privileges", "--cap-drop", "ALL");`,
    to: `args.push("--security-opt", "no-new-privileges");`,
    tests: ["test/run/container.test.ts"],
  },
  {
    name: "entrypoint-not-pinned",
    what: "the agent layer's own ENTRYPOINT would run instead of the grader",
    file: "src/run/container.ts",
    from: `args.push("--user", "0:0", "--entrypoint", ENTRYPOINT, "--workdir", "/");`,
    to: `args.push("--user", "0:0", "--workdir", "/");`,
    tests: ["test/run/container.test.ts"],
  },
  {
    name: "forged-pass-trusted",
    what: "a result.json that says passed with no passing check is taken as a pass",
    file: "src/run/result-checks.ts",
    from: `  if (!patched.some((c) => c.status === "passed")) return "status passed with no passing check";\n`,
    to: "",
    tests: ["test/run/record.test.ts"],
  },
  {
    name: "agent-processes-survive",
    what: "the end of a phase no longer kills the user's processes (kill -1 as the user skipped)",
    file: "src/runtime/user-processes.ts",
    from: `    killAllAs(user);\n    left = processesOf(user.uid);`,
    to: `    left = [];`,
    tests: ["test/runtime/integrity.test.ts"],
    build: true,
  },
  {
    name: "sse-vars-leak",
    what: "every SSE_ variable of the container reaches every child (run key to grading scripts)",
    file: "src/runtime/child-env.ts",
    from: `if (v === undefined || k.startsWith("SSE_") || IDENTITY.has(k)) continue;`,
    to: `if (v === undefined || IDENTITY.has(k)) continue;`,
    tests: ["test/runtime/child-env.test.ts"],
    build: true,
  },
  {
    name: "run-extras-inherited",
    what: "variables handed to the container at run time (AWS_*, DOCKER_*) reach the children",
    file: "src/runtime/child-env.ts",
    from: `if (k.startsWith("SSE_") || BASICS.has(k) || k.startsWith("LC_") || allowed.has(k)) out[k] = v;`,
    to: `out[k] = v;`,
    tests: ["test/runtime/child-env.test.ts"],
    build: true,
  },
  {
    name: "task-root-open",
    what: "/ssebench (PoCs, hidden tests) stays readable during the agent phase",
    file: "src/runtime/lockdown.ts",
    from: `  chmodSync(cfg.taskRoot, 0o700);\n  if (task.files.patch)`,
    to: `  chmodSync(cfg.taskRoot, 0o755);\n  if (task.files.patch)`,
    tests: ["test/runtime/integrity.test.ts"],
    build: true,
  },
  {
    name: "digest-pin-ignored",
    what: "the catalog hands out the tag although the images lock pins a digest",
    file: "src/catalog/image-refs.ts",
    from: "return { ref: `${name}@${entry.digest}`, pinned: true, tagRef, digest: entry.digest };",
    to: "return { ref: tagRef, pinned: true, tagRef, digest: entry.digest };",
    tests: ["test/catalog"],
  },
  {
    name: "failed-checks-pass",
    what: "a failing PoC no longer makes the grade failed",
    file: "src/formats/result.ts",
    from: `if (v.build_success === false || (v.pov_total !== null && v.pov_passed !== v.pov_total) || v.func_test_success === false`,
    to: `if (v.build_success === false || v.func_test_success === false`,
    tests: ["test/runtime/lifecycle.test.ts", "test/runtime/formats.test.ts"],
    build: true,
  },
  {
    name: "upload-symlink-accepted",
    what: "the results receiver lets a symbolic link (or any non-regular entry) of an uploaded tarball through",
    file: "src/run/upload/tar-reader.ts",
    from: "if (what) throw new TarRefused(m.notAllowed(shown, what));",
    to: "if (what && type !== \"2\") throw new TarRefused(m.notAllowed(shown, what));",
    tests: ["test/run/upload/receiver.test.ts"],
  },
  {
    name: "upload-dotdot-accepted",
    what: "the results receiver writes an uploaded entry whose name goes up with '..'",
    file: "src/run/upload/tar-reader.ts",
    from: `if (part === "..") throw new TarRefused(m.badName(name, "goes up with '..'"));`,
    to: `if (part === "..") continue;`,
    tests: ["test/run/upload/receiver.test.ts"],
  },
  {
    name: "upload-token-unchecked",
    what: "the results receiver takes an upload with a wrong token",
    file: "src/run/upload/receiver.ts",
    from: `if (!auth.startsWith("Bearer ") || !timingSafeEqual(given, p.tokenHash)) return reply(401, { error: m.badToken(trial) });`,
    to: `if (!auth.startsWith("Bearer ")) return reply(401, { error: m.badToken(trial) });`,
    tests: ["test/run/upload/receiver.test.ts"],
  },
  {
    name: "upload-file-world-readable",
    what: "the entrypoint accepts an upload token file the agent can read",
    file: "src/runtime/upload-config.ts",
    from: "if (st.mode & 0o077) throw",
    to: "if (st.mode & 0o000) throw",
    tests: ["test/runtime/results-upload.test.ts"],
    build: true,
  },
  {
    name: "codex-web-search-on",
    what: "the codex driver leaves OpenAI's hosted live web search on (the default), so a real model can search the internet for the fix",
    file: "src/agents/codex.ts",
    from: '`web_search = "disabled"`,',
    to: '`web_search = "live"`,',
    tests: ["test/agents/codex.test.ts"],
  },
  {
    name: "codex-mcp-optional",
    what: "the codex driver lets codex start without the MCP server, so a run silently has no test_patch",
    file: "src/agents/codex.ts",
    from: '"required = true",',
    to: '"required = false",',
    tests: ["test/agents/codex.test.ts"],
  },
];
