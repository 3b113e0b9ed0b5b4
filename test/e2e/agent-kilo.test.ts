/**
 * Kilo's CLI end to end, offline: `ssebench run --agent kilo` builds the agent's files from its
 * platform package installed from npm on the host, and kilo (a fork of opencode, configured as
 * opencode is) works the demo task against the scripted model behind the run's real gateway with
 * opencode's scripts: the fix passes, a give-up fails, a spent budget stops it
 * at the first refused call (opencode-checks.ts).
 */
import { afterAll, describe, setDefaultTimeout } from "bun:test";
import { tempDir } from "../helpers/cli.ts";
import { agentModelsHome, agentRunner, E2E, SKIP_REASON } from "./helpers.ts";
import { opencodeForkTests } from "./opencode-checks.ts";

setDefaultTimeout(900_000);
const results = tempDir("ssebench-e2e-kilo-");
const home = agentModelsHome();
afterAll(() => {
  results.cleanup();
  home.cleanup();
});
const agentRun = agentRunner(results.path, home.path);

// The chat wire only in CI (kilo takes some 24 s to its first call): its Anthropic configuration is
// opencode's, tested there, and kilo's Anthropic run is the captured test/agents/fixtures/kilo stream.
describe.skipIf(!E2E)(`the real Kilo CLI against the scripted model${SKIP_REASON}`, () => {
  opencodeForkTests(agentRun, "kilo", "7.7.9", "@kilocode/cli-linux-x64@7.7.9", 4, ["chat"]);
});
