import { defineCommand } from "citty";
import { loadCommand as load } from "../lazy-command.ts";


export default defineCommand({
  meta: { name: "dataset", description: "Validate task datasets, build their manifest, schemas and images lock, and publish their images" },
  subCommands: {
    validate: () => load(import("./validate.ts")),
    manifest: () => load(import("./manifest.ts")),
    schema: () => load(import("./schema.ts")),
    lock: () => load(import("./lock.ts")),
    items: () => load(import("./items.ts")),
    verify: () => load(import("./verify.ts")),
    records: () => load(import("./records.ts")),
    new: () => load(import("./new.ts")),
    publish: () => load(import("./publish.ts")),
    cards: () => load(import("./cards.ts")),
    "check-sources": () => load(import("./check-sources.ts")),
  },
});
