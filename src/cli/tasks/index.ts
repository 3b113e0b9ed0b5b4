import { defineCommand } from "citty";
import { loadCommand as load } from "../lazy-command.ts";


export default defineCommand({
  meta: { name: "tasks", description: "List and show the tasks of a catalog (built-in, file, folder or URL)" },
  subCommands: {
    list: () => load(import("./list.ts")),
    show: () => load(import("./show.ts")),
  },
});
