/**
 * What every results page shares, in the static report and in `ssebench view`: escaping (every name,
 * log, patch and dialog comes from run folders the agents' containers wrote), number formats, the
 * style sheet and the page shell. A page carries at most one script, which the viewer allows by
 * its hash; the static report has none, and its own policy (a meta tag) forbids any.
 */
const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ENTITIES[c] as string);

export const pct = (x: number | null) => (x === null ? "-" : `${(x * 100).toFixed(1)}%`);
export const usd = (x: number) => `$${x.toFixed(x < 1 ? 4 : 2)}`;
export const count = (x: number) => x.toLocaleString("en-US");
export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** A grade as a coloured word (passed, failed, error, and the check statuses). */
export const badge = (status: string, extra = "") => `<span class="badge ${esc(status.replace(/[^a-z_]/g, ""))}">${esc(status)}${extra ? ` ${esc(extra)}` : ""}</span>`;

export const STYLE = `
:root { --line: #d8dde3; --soft: #f5f7f9; --ink: #1c1f23; --muted: #5d6570; --pass: #176c2f; --fail: #a4161a; --err: #8a5a00; --link: #0b57d0; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, sans-serif; margin: 0 auto; padding: 0.8em 1.2em 3em; max-width: 96em; color: var(--ink); background: #fff; }
a { color: var(--link); }
h1 { font-size: 1.45em; margin: 0.4em 0; overflow-wrap: anywhere; }
h2 { font-size: 1.2em; margin: 1.4em 0 0.5em; border-bottom: 1px solid var(--line); padding-bottom: 0.2em; }
h3 { font-size: 1.05em; margin: 1.1em 0 0.4em; }
nav.crumbs { color: var(--muted); margin-bottom: 0.3em; }
table { border-collapse: collapse; margin: 0.5em 0 1em; }
th, td { border: 1px solid var(--line); padding: 3px 8px; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
th { background: #eef1f5; font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: var(--soft); border: 1px solid var(--line); padding: 6px 8px; margin: 0.3em 0; font: 12.5px/1.4 ui-monospace, monospace; max-height: 40em; overflow: auto; }
details > summary { cursor: pointer; }
.muted { color: var(--muted); }
.badge { display: inline-block; padding: 0 6px; border-radius: 3px; font-weight: 600; font-size: 0.92em; background: #eceff3; }
.badge.passed, .badge.ok, .badge.success, .passed { color: var(--pass); } .badge.passed, .badge.ok, .badge.success { background: #e3f3e6; }
.badge.failed, .failed { color: var(--fail); } .badge.failed { background: #fbe5e5; }
.badge.error, .badge.timeout, .badge.infra, .error { color: var(--err); } .badge.error, .badge.timeout { background: #fdf0d8; }
.badge.running { color: #1d4ed8; background: #e0e9ff; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.15em 1em; margin: 0.5em 0; }
dl.facts dt { font-weight: 600; } dl.facts dd { margin: 0; overflow-wrap: anywhere; }
.cards { display: flex; flex-wrap: wrap; gap: 0.6em; margin: 0.6em 0; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: 0.4em 0.8em; min-width: 8em; }
.card b { display: block; font-size: 1.35em; }
.bar { height: 8px; background: #eceff3; border-radius: 4px; overflow: hidden; display: flex; width: 16em; margin-top: 0.3em; }
.bar i { display: block; height: 100%; } .bar .p { background: #3a9d4f; } .bar .f { background: #d2514f; } .bar .e { background: #d89b2b; }
form.filters { display: flex; flex-wrap: wrap; gap: 0.5em 1em; align-items: end; margin: 0.5em 0 1em; padding: 0.5em 0.7em; background: var(--soft); border: 1px solid var(--line); border-radius: 6px; }
form.filters label { display: flex; flex-direction: column; font-size: 0.9em; color: var(--muted); }
form.filters input, form.filters select, form.filters button { font: inherit; padding: 2px 6px; }
.diff-file { border: 1px solid var(--line); border-radius: 4px; margin: 0.5em 0; }
.diff-file > summary { background: #eef1f5; padding: 3px 8px; font: 600 13px ui-monospace, monospace; }
table.diff { border: 0; margin: 0; width: 100%; font: 12.5px/1.35 ui-monospace, monospace; }
table.diff td { border: 0; padding: 0 6px; white-space: pre-wrap; }
table.diff td.ln { color: #8a929c; text-align: right; width: 3.5em; user-select: none; white-space: nowrap; }
table.diff tr.add td.code { background: #e6f6e9; } table.diff tr.del td.code { background: #fce9e9; }
table.diff tr.add td.ln { background: #d3efd9; } table.diff tr.del td.ln { background: #f7d4d4; }
table.diff tr.hunk td { background: #eef0fb; color: #5a3fa0; }
table.diff tr.note td { color: var(--muted); font-style: italic; }
.conv { display: flex; flex-direction: column; gap: 0.45em; max-width: 72em; }
.conv .item { border: 1px solid var(--line); border-radius: 8px; padding: 0.35em 0.7em; }
.conv .who { font-size: 0.85em; color: var(--muted); margin-bottom: 0.15em; }
.conv .who b { color: var(--ink); }
.conv .prompt { background: #f3f6fb; }
.conv .assistant { background: #fff; border-color: #b9c6d8; }
.conv .text { white-space: pre-wrap; overflow-wrap: anywhere; }
.conv .thinking { background: #faf8f1; }
.conv .tool { background: #f8f9fb; margin-left: 1.5em; }
.conv .tool.test_patch { border-color: #9fb7e8; background: #f1f5ff; }
.conv .call, .conv .check { margin-left: 3em; font-size: 0.86em; color: var(--muted); border-style: dashed; padding: 0.15em 0.7em; }
.conv .complete { background: #f4f4f4; font-size: 0.92em; }
.conv code.args { font-size: 12px; color: #3a4048; overflow-wrap: anywhere; }
.side { display: grid; grid-template-columns: 1fr 1fr; gap: 1em; }
.live { font-size: 0.85em; color: var(--muted); }
.live.on::before { content: "\\25CF "; color: #2f9e44; }
ul.files { columns: 2; font: 12.5px ui-monospace, monospace; }
@media (max-width: 50em) { .side { grid-template-columns: 1fr; } ul.files { columns: 1; } body { padding: 0.5em; } table:not(.diff) { display: block; overflow-x: auto; max-width: 100%; } table:not(.diff) td, table:not(.diff) th { overflow-wrap: normal; white-space: nowrap; } .bar { width: 8em; } }
`;

/** The static report's own policy: no script, nothing fetched, only its inline styles. */
const STATIC_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

export interface Shell {
  title: string;
  body: string;
  /** the page's one script (the viewer's); none in the static report */
  script?: string;
  /** attributes of <body>, already escaped */
  bodyAttributes?: string;
}

export function page({ title, body, script, bodyAttributes }: Shell): string {
  const policy = script === undefined ? `<meta http-equiv="Content-Security-Policy" content="${STATIC_POLICY}">\n` : "";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
${policy}<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>${STYLE}</style>
</head>
<body${bodyAttributes ? ` ${bodyAttributes}` : ""}>
${body}
${script === undefined ? "" : `<script>${script}</script>\n`}</body>
</html>
`;
}
