/** Markdown files imported `with { type: "text" }` (the demo's crash reports, embedded-reports.ts). */
declare module "*.md" {
  const text: string;
  export default text;
}
