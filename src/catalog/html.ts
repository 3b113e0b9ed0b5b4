/**
 * What the catalog's HTML pages share: escaping (every value on a page comes from the manifest,
 * which a dataset author or a remote catalog controls), the page shell with its styles, and the
 * Content-Security-Policy that lets only the page's own inline script run.
 */
const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] as string);
}

/** A link only for http(s) URLs (a `javascript:` repository URL stays text). */
export function linkIfWeb(url: string): string {
  return /^https?:\/\//i.test(url) ? `<a href="${escapeHtml(url)}" rel="noreferrer">${escapeHtml(url)}</a>` : escapeHtml(url);
}

/** The policy for a page whose only script is `script` (none: no script may run). */
export function contentSecurityPolicy(script?: string): string {
  const scripts = script === undefined ? "'none'" : `'sha256-${Bun.CryptoHasher.hash("sha256", script, "base64")}'`;
  return `default-src 'none'; style-src 'unsafe-inline'; script-src ${scripts}; img-src 'none'; base-uri 'none'; form-action 'self'`;
}

const STYLE = `
body { font: 15px/1.45 system-ui, sans-serif; margin: 0 auto; padding: 0.8em 1em; max-width: 80em; color: #1b1b1b; background: #fff; }
a { color: #0645ad; }
h1 { font-size: 1.5em; overflow-wrap: anywhere; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 0.3em 0.6em; border-bottom: 1px solid #ddd; vertical-align: top; overflow-wrap: anywhere; }
th { background: #eef1f5; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f6f7f9; padding: 0.6em; border: 1px solid #dde1e6; font-size: 0.9em; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.2em 1em; }
dt { font-weight: 600; }
dd { margin: 0; overflow-wrap: anywhere; }
input[type=search] { font: inherit; padding: 0.3em 0.5em; width: min(30em, 100%); box-sizing: border-box; }
.muted { color: #5b616b; }
[hidden] { display: none !important; }
@media (max-width: 40em) {
  body { padding: 0.5em; }
  dl { grid-template-columns: 1fr; }
  dd { margin-bottom: 0.4em; }
  #tasks thead { display: none; }
  #tasks, #tasks tbody, #tasks tr, #tasks td { display: block; }
  #tasks tr { border: 1px solid #ccd; border-radius: 4px; margin: 0 0 0.6em; padding: 0.3em 0; }
  #tasks td { border: 0; padding: 0.1em 0.6em; }
  #tasks td::before { content: attr(data-label) ": "; font-weight: 600; }
}`;

export function htmlPage(title: string, body: string, script?: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}
</style>
</head>
<body>
${body}
${script === undefined ? "" : `<script>${script}</script>\n`}</body>
</html>
`;
}
