import { defineCommand } from "citty";

const load = (p: Promise<{ default: unknown }>) => p.then((m) => m.default as ReturnType<typeof defineCommand>);

export default defineCommand({
  meta: { name: "dataset", description: "Validate task datasets and build their manifest, schemas and images lock" },
  subCommands: {
    validate: () => load(import("./validate.ts")),
    manifest: () => load(import("./manifest.ts")),
    schema: () => load(import("./schema.ts")),
    lock: () => load(import("./lock.ts")),
    items: () => load(import("./items.ts")),
    verify: () => load(import("./verify.ts")),
  },
});
