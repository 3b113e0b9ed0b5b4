import { defineCommand } from "citty";

export default defineCommand({
  meta: {
    name: "serve",
    description: "Serve a manifest (and its images lock) over HTTP: GET /tasks, /tasks/{id}, /manifest.json …",
  },
  args: {
    manifest: {
      type: "string",
      alias: "m",
      description: "Manifest file or dataset folder (default: $SSEBENCH_MANIFEST, else the dataset built into this binary)",
      valueHint: "FILE",
    },
    lock: {
      type: "string",
      description: "Images lock (default: $SSEBENCH_IMAGES_LOCK, else images.lock.json beside the manifest if present)",
      valueHint: "FILE",
    },
    registry: {
      type: "string",
      description: "Registry prefix of the image names (default: $SSEBENCH_REGISTRY, else ghcr.io/42-b3yond-6ug/ssebench)",
      valueHint: "PREFIX",
    },
    port: {
      type: "string",
      alias: "p",
      description: "Port to listen on; 0 picks a free one (default: $SSEBENCH_CATALOG_PORT, else 8080)",
      valueHint: "PORT",
    },
    host: { type: "string", description: "Address to listen on (default: all interfaces)", valueHint: "HOST" },
  },
  async run({ args }) {
    const { resolveServeOptions, serveCatalog } = await import("../../catalog/serve.ts");
    const options = resolveServeOptions(args, process.env);
    // Icons and colours for a person at a terminal; plain `[info] …` lines for logs and pipes.
    const fancy = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
    const { createConsola } = fancy ? await import("consola") : await import("consola/basic");
    const logger = createConsola({});
    return serveCatalog(options, logger);
  },
});
