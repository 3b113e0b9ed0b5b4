/**
 * `dataset verify`'s audit of a case image (docs/container-contract.md, hostile agents): what in
 * the image would give the agent the answer or a way into grading if the tool layer did not remove
 * it. The tool layer does remove both, so a leak here is a defect of the case image to fix at its
 * source, reported one line per leak.
 */
import type { Docker } from "../backends/docker.ts";
import { msg } from "../messages.ts";

/**
 * Prints `vcs <path>` for version-control metadata in a folder above the source (its own is
 * squashed away as usual) and `writable <path>` for every world-writable entry outside the sticky
 * folders. Group-writable entries are not reported: the agent's and the runner's groups are their
 * own per run, so only the world bit reaches them.
 */
const AUDIT_SCRIPT = [
  'd=$(dirname "$1")',
  "while :; do",
  '  for m in .git .hg .svn .bzr; do p="${d%/}/$m"; if [ -e "$p" ] || [ -L "$p" ]; then echo "vcs $p"; fi; done',
  '  [ "$d" = / ] && break',
  '  d=$(dirname "$d")',
  "done",
  "find / -xdev \\( -path /proc -o -path /sys -o -path /dev \\) -prune -o ! -type l -perm -0002 ! \\( -type d -perm -1000 \\) -print | sed 's/^/writable /'",
].join("\n");

/** At most this many lines per kind; the rest is counted. */
const MAX_LINES = 20;

export function parseAudit(stdout: string, source: string): string[] {
  const vcs: string[] = [];
  const writable: string[] = [];
  for (const line of stdout.split("\n")) {
    if (line.startsWith("vcs ")) vcs.push(msg.leakVcs(line.slice(4), source));
    else if (line.startsWith("writable ")) writable.push(msg.leakWritable(line.slice(9)));
  }
  const capped = (lines: string[]) => (lines.length > MAX_LINES ? [...lines.slice(0, MAX_LINES), msg.leakMore(lines.length - MAX_LINES)] : lines);
  return [...capped(vcs), ...capped(writable)];
}

/** Runs the audit in a throw-away container of `image` (no network, as root, its own shell). */
export async function auditCaseImage(docker: Docker, image: string, source: string): Promise<string[]> {
  const r = await docker.call(["run", "--rm", "--network", "none", "--user", "0:0", "--entrypoint", "/bin/sh", image, "-c", AUDIT_SCRIPT, "audit", source]);
  if (r.code !== 0) return [msg.leakAuditFailed(image, (r.stderr.trim().split("\n").at(-1) ?? "") || `exit status ${r.code}`)];
  return parseAudit(r.stdout, source);
}
