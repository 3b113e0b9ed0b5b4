/**
 * `dataset verify`'s audit of a task's images (docs/container-contract.md, hostile agents; issue 28):
 * - the case image, as root: version-control metadata above the source, world-writable entries,
 *   and the source's own repository (one commit, whose message names nothing of the fix);
 * - the image the dummy agent's container ran, as the agent's user with the task root out of reach
 *   (as the run's lock-down leaves it): no readable file names the task's CVE, fix commit or Debian
 *   patch (gzip files are read uncompressed: Debian's changelogs are), no patching leftovers
 *   (.orig/.rej) in the source and no patch file of the Debian package anywhere.
 * A leak is a defect of the case image to fix at its source, reported one line per leak.
 */
import { basename } from "node:path";
import type { Docker } from "../backends/docker.ts";
import { IMAGE_ROOT } from "../../formats/patterns.ts";
import { msg } from "../messages.ts";
import type { TaskSecrets } from "./task-secrets.ts";

/** The image's user the agent runs as (images/sandbox/Dockerfile; a run gives it a uid of its own). */
const AGENT_USER = "model";

/**
 * As root in the case image, $1 the source: `vcs <path>` for version-control metadata in a folder
 * above the source (its own is squashed away by the tool layer), `writable <path>` for every
 * world-writable entry outside the sticky folders (group-writable ones are not reported: the
 * agent's and the runner's groups are their own per run), `history <n>` when the source's own
 * repository has more than one commit and `message` when a commit message names a secret
 * ($SSE_AUDIT_TEXT, one per line).
 */
const CASE_SCRIPT = [
  'd=$(dirname "$1")',
  "while :; do",
  '  for m in .git .hg .svn .bzr; do p="${d%/}/$m"; if [ -e "$p" ] || [ -L "$p" ]; then echo "vcs $p"; fi; done',
  '  [ "$d" = / ] && break',
  '  d=$(dirname "$d")',
  "done",
  "find / -xdev \\( -path /proc -o -path /sys -o -path /dev \\) -prune -o ! -type l -perm -0002 ! \\( -type d -perm -1000 \\) -print | sed 's/^/writable /'",
  'if [ -d "$1/.git" ] && command -v git >/dev/null 2>&1; then',
  '  n=$(git -C "$1" rev-list --all --count 2>/dev/null || echo 0)',
  '  if [ "$n" -gt 1 ]; then echo "history $n"; fi',
  '  if [ -n "$SSE_AUDIT_TEXT" ] && git -C "$1" log --all --format=%B 2>/dev/null | grep -qiF -e "$SSE_AUDIT_TEXT"; then echo message; fi',
  "fi",
].join("\n");

/**
 * As the agent's user: every top-level folder but /proc, /sys, /dev and the task root
 * ($SSE_AUDIT_SKIP, root-only during a run). `text <path>` for a readable file holding a secret
 * (binary files skipped, .gz read uncompressed), `named <path>` for every readable .orig, .rej,
 * .patch and .diff file (the host decides which are leaks). One grep and one find over the tree.
 */
const AGENT_SCRIPT = [
  "set --",
  "for d in /* /.[!.]*; do",
  '  if [ ! -e "$d" ] || [ -L "$d" ]; then continue; fi',
  '  case "$d" in /proc|/sys|/dev|"$SSE_AUDIT_SKIP") continue ;; esac',
  '  set -- "$@" "$d"',
  "done",
  'if [ -n "$SSE_AUDIT_TEXT" ]; then grep -rlIiF -e "$SSE_AUDIT_TEXT" -- "$@" 2>/dev/null | sed "s/^/text /"; fi',
  // one walk for both: the .gz files to read uncompressed, the patch-like names
  "find \"$@\" -xdev -type f -readable \\( -name '*.gz' -printf 'gz %p\\n' -o \\( -name '*.orig' -o -name '*.rej' -o -name '*.patch' -o -name '*.diff' \\) -printf 'named %p\\n' \\) 2>/dev/null |",
  "  while IFS= read -r line; do",
  '    case "$line" in',
  '      "gz "*) if [ -n "$SSE_AUDIT_TEXT" ] && gzip -dc -- "${line#gz }" 2>/dev/null | grep -qiF -e "$SSE_AUDIT_TEXT"; then echo "text ${line#gz }"; fi ;;',
  '      *) echo "$line" ;;',
  "    esac",
  "  done",
].join("\n");

/** At most this many lines per kind; the rest is counted. */
const MAX_LINES = 20;

const within = (path: string, folder: string) => path === folder || path.startsWith(`${folder.replace(/\/+$/, "")}/`);

/** One line per leak the scripts' output shows, grouped by kind in a fixed order. */
export function parseAudit(stdout: string, source: string, secrets: TaskSecrets = { text: [], patchNames: [] }): string[] {
  const kinds = new Map<string, string[]>(["vcs", "history", "message", "text", "named", "writable"].map((k) => [k, []]));
  const add = (kind: string, line: string) => kinds.get(kind)?.push(line);
  for (const line of stdout.split("\n")) {
    const space = line.indexOf(" ");
    const [kind, rest] = space < 0 ? [line, ""] : [line.slice(0, space), line.slice(space + 1)];
    if (kind === "vcs") add(kind, msg.leakVcs(rest, source));
    else if (kind === "writable") add(kind, msg.leakWritable(rest));
    else if (kind === "history") add(kind, msg.leakHistory(source, Number(rest)));
    else if (kind === "message") add(kind, msg.leakCommitMessage(source, secrets.text));
    else if (kind === "text") add(kind, msg.leakText(rest, secrets.text));
    else if (kind === "named" && /\.(?:orig|rej)$/.test(rest) && within(rest, source)) add(kind, msg.leakLeftover(rest));
    else if (kind === "named" && secrets.patchNames.includes(basename(rest))) add(kind, msg.leakDebianPatch(rest));
  }
  const capped = (lines: string[]) => {
    const unique = [...new Set(lines)];
    return unique.length > MAX_LINES ? [...unique.slice(0, MAX_LINES), msg.leakMore(unique.length - MAX_LINES)] : unique;
  };
  return [...kinds.values()].flatMap(capped);
}

const secretsEnv = (secrets: TaskSecrets) => ["--env", `SSE_AUDIT_TEXT=${secrets.text.join("\n")}`];

/** Audits the case image in a throw-away container (no network, as root, its own shell). */
export async function auditCaseImage(docker: Docker, image: string, source: string, secrets: TaskSecrets): Promise<string[]> {
  const r = await docker.call(["run", "--rm", "--network", "none", "--user", "0:0", ...secretsEnv(secrets), "--entrypoint", "/bin/sh", image, "-c", CASE_SCRIPT, "audit", source]);
  if (r.code !== 0) return [msg.leakAuditFailed(image, (r.stderr.trim().split("\n").at(-1) ?? "") || `exit status ${r.code}`)];
  return parseAudit(r.stdout, source, secrets);
}

/** Audits what the agent can read in `image` (the image its container ran), as the agent's user. */
export async function auditAgentView(docker: Docker, image: string, source: string, secrets: TaskSecrets): Promise<string[]> {
  const args = ["run", "--rm", "--network", "none", "--user", AGENT_USER, ...secretsEnv(secrets), "--env", `SSE_AUDIT_SKIP=${IMAGE_ROOT}`];
  const r = await docker.call([...args, "--entrypoint", "/bin/sh", image, "-c", AGENT_SCRIPT, "audit"]);
  if (r.code !== 0) return [msg.leakViewAuditFailed(image, (r.stderr.trim().split("\n").at(-1) ?? "") || `exit status ${r.code}`)];
  return parseAudit(r.stdout, source, secrets);
}
