import { defineCommand } from "citty";
import type { Argv } from "../../argv.ts";

export default defineCommand({
  meta: {
    name: "serve",
    description: "Serve models on their own: one key per model (printed at start), each with a USD budget; calls logged to --ledger",
  },
  args: {
    models: {
      type: "string",
      description: "Your folder of <name>.yaml models, searched after the built-in ones (default: $SSEBENCH_MODELS, else ~/.config/ssebench/models)",
      valueHint: "DIR",
    },
    model: { type: "string", description: "Serve only this model, a name `ssebench models` lists (repeatable; default: every model of --models DIR, else the built-in ones)", valueHint: "NAME" },
    host: { type: "string", description: "Address to listen on (default: 127.0.0.1)", valueHint: "HOST" },
    port: { type: "string", alias: "p", description: "Port to listen on; 0 picks a free one (default 4000)", valueHint: "PORT" },
    budget: { type: "string", description: "USD each key may spend (default 10)", valueHint: "USD" },
    ledger: { type: "string", description: "Folder for model-calls.jsonl and the gzipped bodies (default: none kept)", valueHint: "DIR" },
  },
  async run({ args, data }) {
    const { serveGateway } = await import("../../gateway/serve-command.ts");
    const { findHome } = await import("../../run/home.ts");
    const { repeatedFlag } = await import("../../run/options.ts");
    const builtIn = `${findHome().root}/models`;
    return serveGateway({ ...args, builtIn, names: repeatedFlag(data as Argv, "model") }, process.env);
  },
});
