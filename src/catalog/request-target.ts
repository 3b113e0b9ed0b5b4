/**
 * The request target as the reference's Go server sees it, where Bun's differs: Go matches routes
 * on the percent-decoded path with any `#…` kept (a request line has no fragment), and redirects
 * (301) a path that is not clean (`//tasks`, `/./tasks`, `/tasks/..`) to its cleaned form. Bun has
 * already removed dot segments from `request.url`; the socket layer (serve.ts) infers them.
 */

export interface GoTarget {
  /** the percent-decoded path, a `#…` of the request line included */
  path: string;
  /** the query, with its `?` ("" when none) */
  search: string;
  /** true when the path has a `#…` that WHATWG parsing cut off */
  fragment: boolean;
}

/** The path and query Go parses from a request line; undefined when an escape is malformed. */
export function goTarget(url: URL, rawUrl: string): GoTarget | undefined {
  let fragment = "";
  let search = url.search;
  // WHATWG cuts at the first `#`; Go's request-URI parser has no fragments, so `#` before any `?`
  // belongs to the path (and a `?` after it starts the query).
  const hashAt = rawUrl.indexOf("#");
  if (url.search === "" && hashAt >= 0) {
    const [frag = "", ...query] = rawUrl.slice(hashAt).split("?");
    fragment = frag;
    search = query.length > 0 ? `?${query.join("?")}` : "";
  }
  try {
    return { path: decodeURIComponent(url.pathname + fragment), search, fragment: fragment !== "" };
  } catch {
    return undefined;
  }
}

/** Go's `cleanPath`: path.Clean, a trailing slash kept. */
export function cleanPath(path: string): string {
  const p = path.startsWith("/") ? path : `/${path}`;
  const parts: string[] = [];
  for (const part of p.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  let clean = `/${parts.join("/")}`;
  if (p.endsWith("/") && clean !== "/") clean += "/";
  return clean;
}

/** A decoded path as a URL path again (what Go's url.URL.String() writes for it). */
export function escapePath(path: string): string {
  return encodeURI(path).replace(/[?#]/g, (c) => encodeURIComponent(c));
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&#34;", "'": "&#39;" };

/** The body Go's http.Redirect writes for a GET. */
export function movedPermanentlyBody(location: string): string {
  return `<a href="${location.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] as string)}">Moved Permanently</a>.\n\n`;
}
