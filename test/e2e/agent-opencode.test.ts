/**
 * The real OpenCode CLI end to end, offline: `ssebench run --agent opencode` builds the agent
 * layer from the CLI installed from npm on the host, and opencode works the demo task against the
 * scripted model behind the run's real gateway (test/e2e/fixtures/agent-models) on both of its
 * wires: a script that fixes the bug with opencode's own read and edit tools and calls
 * test_patch passes; one that gives up fails; a spent budget stops it at the first refused call.
 */
import { afterAll, describe, setDefaultTimeout } from "bun:test";
import { tempDir } from "../helpers/cli.ts";
import { agentModelsHome, agentRunner, E2E, SKIP_REASON } from "./helpers.ts";
import { opencodeForkTests } from "./opencode-checks.ts";

setDefaultTimeout(900_000);
const results = tempDir("ssebench-e2e-opencode-");
const home = agentModelsHome();
afterAll(() => {
  results.cleanup();
  home.cleanup();
});
const agentRun = agentRunner(results.path, home.path);

describe.skipIf(!E2E)(`the real opencode CLI against the scripted model${SKIP_REASON}`, () => {
  opencodeForkTests(agentRun, "opencode", "1.18.33", "opencode-ai@1.18.33", 5, ["anthropic", "chat"]);
});
