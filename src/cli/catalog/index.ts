import { defineCommand } from "citty";

const load = (p: Promise<{ default: unknown }>) => p.then((m) => m.default as ReturnType<typeof defineCommand>);

export default defineCommand({
  meta: { name: "catalog", description: "Publish a dataset's tasks over HTTP" },
  subCommands: {
    serve: () => load(import("./serve.ts")),
  },
});
