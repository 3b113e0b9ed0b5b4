import { defineCommand } from "citty";

const load = (p: Promise<{ default: unknown }>) => p.then((m) => m.default as ReturnType<typeof defineCommand>);

export default defineCommand({
  meta: { name: "tasks", description: "List and show the tasks of a catalog (built-in, file, folder or URL)" },
  subCommands: {
    list: () => load(import("./list.ts")),
    show: () => load(import("./show.ts")),
  },
});
