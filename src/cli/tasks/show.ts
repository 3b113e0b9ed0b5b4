import { defineCommand } from "citty";
import { catalogArg, jsonArg } from "../args.ts";
import { err, out, renderJson, renderTable, write } from "../output.ts";

export default defineCommand({
  meta: {
    name: "show",
    description: "Show one task of a catalog: its images, checks, files and statement (--json: the service's GET /tasks/{id})",
  },
  args: {
    id: { type: "positional", required: true, description: "Task id", valueHint: "ID" },
    ...catalogArg,
    ...jsonArg,
  },
  async run({ args }) {
    const { describeStatement, describeTask, showTask } = await import("../../catalog/task-listing.ts");
    const homeDatasets = async () => {
      const { findHome } = await import("../../run/home.ts");
      try {
        return `${findHome().root}/datasets`;
      } catch {
        return undefined;
      }
    };
    const shown = await showTask({ id: args.id, catalog: args.catalog, homeDatasets });
    for (const warning of shown.warnings) err(warning);
    if (args.json) {
      write(renderJson(shown.detail));
      return;
    }
    const rows = describeTask(shown);
    // Two columns without a header row: the table helper aligns them; drop its header line.
    out(renderTable(["", ""], rows).split("\n").slice(1).join("\n"));
    out(`\n${describeStatement(shown)}`);
  },
});
