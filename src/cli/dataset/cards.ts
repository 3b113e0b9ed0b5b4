import { defineCommand } from "citty";
import { checkArg } from "../args.ts";
import { out } from "../output.ts";

export default defineCommand({
  meta: {
    name: "cards",
    description: "Write the README.md cards of a dataset whose tasks pin upstream sources (datasets/debian), or check them with --check",
  },
  args: {
    dir: { type: "positional", required: true, description: "Dataset folder", valueHint: "DIR" },
    ...checkArg,
  },
  async run({ args }) {
    const { resolve } = await import("node:path");
    const { writeCards } = await import("../../dataset/cards.ts");
    out(writeCards(resolve(args.dir), args.dir, Boolean(args.check)));
  },
});
