import { defineCommand } from "citty";
import { loadCommand as load } from "../lazy-command.ts";

export default defineCommand({
  meta: { name: "gateway", description: "The model gateway that runs reach their models through" },
  subCommands: {
    serve: () => load(import("./serve.ts")),
  },
});
