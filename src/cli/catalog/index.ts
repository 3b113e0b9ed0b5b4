import { defineCommand } from "citty";
import { loadCommand as load } from "../lazy-command.ts";


export default defineCommand({
  meta: { name: "catalog", description: "Publish a dataset's tasks over HTTP" },
  subCommands: {
    serve: () => load(import("./serve.ts")),
  },
});
