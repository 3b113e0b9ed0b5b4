/**
 * The environment allow-list as a unit (the end-to-end guard is in integrity.test.ts): what each
 * role's child gets from a container environment full of run-time extras and secrets.
 */
import { describe, expect, test } from "bun:test";
import { agentExtraNames, allowedInherited, childEnv, imageEnvNames, LLM_VARS } from "../../src/runtime/privilege/child-env.ts";
import type { Account } from "../../src/runtime/privilege/users.ts";

const model: Account = { name: "model", uid: 1000, gid: 1000, home: "/home/model" };
const runner: Account = { name: "sse-runner", uid: 999, gid: 999, home: "/nonexistent" };

/** What `docker run -e …` plus the image may hand the entrypoint. */
const container = {
  PATH: "/usr/local/go/bin:/usr/bin:/bin",
  LANG: "C.UTF-8",
  LC_ALL: "C.UTF-8",
  TZ: "UTC",
  TERM: "xterm",
  TIMEOUT: "600",
  HOME: "/root",
  USER: "root",
  GOPATH: "/go",
  CC: "clang",
  AWS_SECRET_ACCESS_KEY: "aws-secret",
  DOCKER_HOST: "unix:///var/run/docker.sock",
  NODE_OPTIONS: "--inspect",
  SSE_ARCHIVE: "/tmp/sse-archive",
  SSE_DIFFICULTY: "2",
  SSE_API_KEY: "sk-run-key",
  SSE_BASE_URL: "http://127.0.0.1:4000",
  SSE_MODEL_NAME: "m",
  SSE_RESULTS: "/var/lib/ssebench/results",
  SSE_AGENT_ENV: "SSE_EXTRA, NODE_OPTIONS,bad name,HOME",
  SSE_EXTRA: "x",
};
const imageNames = ["CC", "GOPATH", "PATH"];

describe("child environments from allow-lists", () => {
  test("prepare records the image's names without identity or SSE_ variables", () => {
    expect(imageEnvNames({ GOPATH: "/go", HOME: "/root", USER: "root", SSE_X: "1", CC: "cc", GONE: undefined })).toEqual(["CC", "GOPATH"]);
  });

  test("run-time extras are cut before any role sees them; basics, locale and the image's names stay", () => {
    const inherited = allowedInherited(container, imageNames);
    expect(Object.keys(inherited).filter((k) => !k.startsWith("SSE_")).sort()).toEqual(["CC", "GOPATH", "LANG", "LC_ALL", "PATH", "TERM", "TIMEOUT", "TZ"]);
  });

  test("a grading script gets no SSE_ variable and no secret", () => {
    const env = childEnv(allowedInherited(container, imageNames), runner, [], { HOME: "/scratch/home" });
    expect(env).toEqual({
      PATH: "/usr/local/go/bin:/usr/bin:/bin",
      LANG: "C.UTF-8",
      LC_ALL: "C.UTF-8",
      TZ: "UTC",
      TERM: "xterm",
      TIMEOUT: "600",
      GOPATH: "/go",
      CC: "clang",
      HOME: "/scratch/home",
      USER: "sse-runner",
      LOGNAME: "sse-runner",
    });
  });

  test("the agent gets the LLM variables and the names its layer asks for, never root's identity", () => {
    const extras = agentExtraNames(container.SSE_AGENT_ENV);
    expect(extras).toEqual(["SSE_EXTRA", "NODE_OPTIONS"]);
    const env = childEnv(allowedInherited(container, imageNames, extras), model, ["SSE_DIFFICULTY", ...LLM_VARS, ...extras]);
    expect(env.SSE_API_KEY).toBe("sk-run-key");
    expect(env.SSE_EXTRA).toBe("x");
    expect(env.NODE_OPTIONS).toBe("--inspect");
    expect(env.SSE_RESULTS).toBeUndefined();
    expect(env.SSE_AGENT_ENV).toBeUndefined();
    expect(env.AWS_SECRET_ACCESS_KEY).toBeUndefined();
    expect(env.DOCKER_HOST).toBeUndefined();
    expect([env.HOME, env.USER, env.LOGNAME]).toEqual(["/home/model", "model", "model"]);
  });

  test("a role without the LLM variables does not get them, even when the container has them", () => {
    const env = childEnv(allowedInherited(container, imageNames), model, ["SSE_ARCHIVE"]);
    for (const name of LLM_VARS) expect(env[name]).toBeUndefined();
    expect(env.SSE_ARCHIVE).toBe("/tmp/sse-archive");
  });

  test("an empty PATH falls back to the standard one", () => {
    expect(childEnv({}, model, []).PATH).toBe("/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
  });
});
