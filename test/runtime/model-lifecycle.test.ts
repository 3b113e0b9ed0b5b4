/**
 * The entrypoint with a model socket mounted, as root with real users: the agent (as the agent
 * user) reaches the gateway through SSE_BASE_URL on loopback with the key the entrypoint read from
 * the root-only file; the key and base URL the container was started with are replaced; only
 * `llm: true` plugins get them; the agent cannot read the key file or reach the socket itself.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Gateway } from "../../src/gateway/server.ts";
import { MODEL_KEY_FILE, MODEL_SOCKET } from "../../src/contract/model.ts";
import { scriptedModel } from "../gateway/support.ts";
import { dropUsers, ensureUsers, newRun, runEntrypoint } from "./harness.ts";

setDefaultTimeout(60_000);
beforeAll(ensureUsers);
afterAll(dropUsers);

describe("model access through the entrypoint", () => {
  test("the agent calls the model on loopback; the key file and socket stay root's", async () => {
    const dump = (n: string) => `env | grep -c '^SSE_API_KEY=sk-ssebench-' > "$SSE_ARCHIVE/../key-${n}" || true`;
    const dirs = newRun({
      plugins: [
        { name: "plain", hook: "after-grading", script: dump("plain") },
        { name: "smart", hook: "after-grading", llm: true, script: dump("smart") },
      ],
    });
    chmodSync(dirs.base, 0o777);
    const modelDir = join(dirs.base, "model");
    mkdirSync(modelDir, { mode: 0o700 });
    const gateway = new Gateway();
    const ledgerDir = join(dirs.base, "ledger");
    mkdirSync(ledgerDir);
    const run = gateway.issue("rt", scriptedModel(), 10, ledgerDir);
    const access = gateway.serveRun(run, join(modelDir, MODEL_SOCKET));
    writeFileSync(join(modelDir, MODEL_KEY_FILE), `${run.key}\n`, { mode: 0o600 });
    dirs.env.SSE_MODEL_DIR = modelDir;
    dirs.env.SSE_MODEL_PORT = "0";
    // bash alone (no curl on a fresh machine): HTTP/1.1 over /dev/tcp to SSE_BASE_URL.
    const call = [
      'hp="${SSE_BASE_URL#http://}"',
      `body='{"model":"scripted-test","messages":[{"role":"user","content":"hi"}]}'`,
      'exec 3<>"/dev/tcp/${hp%%:*}/${hp##*:}"',
      'printf "POST /v1/chat/completions HTTP/1.1\\r\\nHost: x\\r\\nAuthorization: Bearer %s\\r\\nContent-Type: application/json\\r\\nContent-Length: %d\\r\\nConnection: close\\r\\n\\r\\n%s" "$SSE_API_KEY" "${#body}" "$body" >&3',
      'cat <&3 > "$SSE_ARCHIVE/answer"',
    ];
    const agent = [
      "--",
      "/bin/bash",
      "-c",
      [
        'a="$SSE_ARCHIVE"',
        'printf "%s\\n" "$SSE_BASE_URL" > "$a/base-url"',
        'printf "%s\\n" "$SSE_API_KEY" > "$a/key"',
        ...call,
        `cat ${modelDir}/api-key > "$a/key-file" 2>&1 || echo denied >> "$a/key-file"`,
        `[ -e ${modelDir}/model.sock ] && echo reachable > "$a/socket" || echo denied > "$a/socket"`,
      ].join("; "),
    ];
    const r = await runEntrypoint(dirs, agent);
    const totals = await access.close();
    const read = (f: string) => readFileSync(join(dirs.archive, f), "utf8").trim();
    try {
      expect(r.exitCode).toBe(0);
      expect(read("base-url")).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(read("key")).toBe(run.key);
      const answer = read("answer");
      expect(answer).toStartWith("HTTP/1.1 200");
      expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)).choices[0].message.content).toBe("A title");
      expect(read("key-file")).toContain("denied");
      expect(read("socket")).toContain("denied");
      expect(totals.answered).toBe(1);
      const key = (n: string) => readFileSync(join(dirs.base, `key-${n}`), "utf8").trim();
      expect([key("plain"), key("smart")]).toEqual(["0", "1"]);
    } finally {
      dirs.cleanup();
    }
  });
});
