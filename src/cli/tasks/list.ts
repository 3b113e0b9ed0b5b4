import { defineCommand } from "citty";
import { catalogArg, jsonArg } from "../args.ts";
import { err, out, renderJson, renderTable, write } from "../output.ts";

export default defineCommand({
  meta: {
    name: "list",
    description: "List the tasks of a catalog: a table, or with --json the service's GET /tasks array (filtered)",
  },
  args: {
    ...catalogArg,
    language: { type: "string", description: "Only tasks in this language (c, go, rust or python)", valueHint: "LANG" },
    type: { type: "string", description: "Only tasks whose vulnerability type contains TEXT (any case)", valueHint: "TEXT" },
    ...jsonArg,
  },
  async run({ args }) {
    const { listTasks, printable } = await import("../../catalog/task-listing.ts");
    const filter = { language: args.language, type: args.type };
    const listing = await listTasks({ catalog: args.catalog, filter });
    for (const warning of listing.warnings) err(warning);
    if (listing.tasks.length === 0 && listing.total > 0) {
      const { messages } = await import("../../catalog/messages.ts");
      err(messages.noTaskMatches(listing.total, listing.location));
    }
    if (args.json) {
      write(renderJson(listing.tasks));
      return;
    }
    const rows = listing.tasks.map((t, i) => [t.id, t.language, t.project, listing.types[i] || "-"].map(printable));
    out(renderTable(["ID", "LANGUAGE", "PROJECT", "TYPE"], rows));
  },
});
