import { defineCommand } from "citty";
import { jsonArg } from "./args.ts";

export default defineCommand({
  meta: {
    name: "models",
    description: "List the models run --model can name: the built-in ones, then your folder (--models DIR, else $SSEBENCH_MODELS, else ~/.config/ssebench/models)",
  },
  args: {
    models: { type: "string", description: "Your folder of <name>.yaml models, searched after the built-in ones", valueHint: "DIR" },
    ...jsonArg,
  },
  async run({ args }) {
    const { modelsCommand } = await import("../gateway/models-command.ts");
    const { findHome } = await import("../run/home.ts");
    const { join } = await import("node:path");
    return modelsCommand({ json: Boolean(args.json), models: args.models, builtIn: join(findHome(process.env).root, "models") }, process.env);
  },
});
