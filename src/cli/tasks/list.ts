import { defineCommand } from "citty";
import { catalogArg, jsonArg } from "../args.ts";
import { err, out, renderJson, renderTable, write } from "../output.ts";

export default defineCommand({
  meta: {
    name: "list",
    description: "List the tasks of a catalog: a table, or with --json the service's GET /tasks array",
  },
  args: { ...catalogArg, ...jsonArg },
  async run({ args }) {
    const { listTasks, printable } = await import("../../catalog/task-listing.ts");
    const { tasks, warnings } = await listTasks({ catalog: args.catalog });
    for (const warning of warnings) err(warning);
    if (args.json) {
      write(renderJson(tasks));
      return;
    }
    out(renderTable(["ID", "LANGUAGE", "PROJECT"], tasks.map((t) => [t.id, t.language, t.project].map(printable))));
  },
});
