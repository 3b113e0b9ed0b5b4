/**
 * Compiles the two binaries into dist/. Usage:
 *   bun scripts/build/build.ts [--target bun-linux-arm64 [--executable-path BUN] [--out DIR]] [--only NAME]
 * --executable-path: the target's Bun runtime to build on (scripts/build/release.ts takes it from npm),
 * instead of Bun downloading it on its own. --only ssebench|ssebench-entrypoint: that binary alone
 * (the mutation check rebuilds only the binaries a break reaches).
 * First generates src/formats/compiled-validators.js (scripts/build/compile-validators.ts).
 *
 * Bytecode needs the ESM format (with CJS, Bun reports "Failed to generate bytecode" but still
 * succeeds and writes a binary that crashes at start), so every build is smoke-tested by running
 * it with --version before it is accepted.
 */
import { parseArgs } from "node:util";

const { values } = parseArgs({ options: { target: { type: "string" }, "executable-path": { type: "string" }, out: { type: "string" }, only: { type: "string" } } });
const binaries = [
  { entry: "src/ssebench.ts", name: "ssebench" },
  { entry: "src/ssebench-entrypoint.ts", name: "ssebench-entrypoint" },
].filter((b) => values.only === undefined || b.name === values.only);
if (binaries.length === 0) {
  console.error(`build: --only ${values.only}: expected ssebench or ssebench-entrypoint`);
  process.exit(2);
}
const outDir = values.out ?? (values.target ? `dist/${values.target}` : "dist");
const executablePath = values["executable-path"];
// The formats' checkers, compiled from the arktype models before they are bundled (check.ts). In a
// process of its own: loading the formats here filled this process's resolver cache before the
// file existed, and Bun.build then failed now and then with 'Could not resolve
// "./compiled-validators.js"' on a fresh clone.
const compiled = Bun.spawnSync([process.execPath, `${import.meta.dir}/compile-validators.ts`], { stdout: "ignore", stderr: "inherit" });
if (compiled.exitCode !== 0) {
  console.error("build: compiling the validators failed");
  process.exit(1);
}
// The agents, images, plugins, models and demo tasks `ssebench run` needs outside a checkout.
const embedded = Bun.spawnSync([process.execPath, `${import.meta.dir}/embed-home.ts`], { stdout: "ignore", stderr: "inherit" });
if (embedded.exitCode !== 0) {
  console.error("build: embedding the home files failed");
  process.exit(1);
}

for (const { entry, name } of binaries) {
  const outfile = `${outDir}/${name}`;
  const started = performance.now();
  const result = await Bun.build({
    entrypoints: [entry],
    compile: {
      outfile,
      ...(values.target ? { target: values.target as Bun.Build.CompileTarget } : {}),
      ...(executablePath ? { executablePath } : {}),
    },
    minify: true,
    bytecode: true,
    format: "esm",
    sourcemap: "linked",
  });
  const problems = result.logs.filter((l) => l.level === "error");
  if (!result.success || problems.length > 0) {
    for (const log of result.logs) console.error(String(log));
    console.error(`build: ${name} failed`);
    process.exit(1);
  }
  if (!values.target) {
    const smoke = Bun.spawnSync([outfile, "--version"]);
    if (smoke.exitCode !== 0) {
      console.error(`build: ${outfile} --version failed:\n${smoke.stderr.toString()}`);
      process.exit(1);
    }
  }
  console.log(`built ${outfile} in ${Math.round(performance.now() - started)} ms`);
}
