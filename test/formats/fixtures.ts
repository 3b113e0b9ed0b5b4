/** A valid task config with only the required keys and a few optional ones set. */
export const validTaskConfig = {
  id: "demo-1",
  project: "demo",
  repository: "https://example.org/demo.git",
  language: "go",
  source: "/src/demo",
  task_description: { issue: "It crashes." },
  scripts: { build: "build.sh", run: "run.sh", test: "test.sh" },
  files: { patch: "diffs/patch.diff", poc: ["pocs/poc.bin"] },
};
