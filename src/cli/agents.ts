import { defineCommand } from "citty";
import { jsonArg } from "./args.ts";

export default defineCommand({
  meta: {
    name: "agents",
    description: "List the agents run --agent can name: version, the wires they speak, whether they use a model, where they run",
  },
  args: { ...jsonArg },
  async run({ args }) {
    const { agentsCommand } = await import("../run/agents-command.ts");
    return agentsCommand({ json: Boolean(args.json) }, process.env);
  },
});
