/**
 * The static check of an agent's Dockerfile. The agent's files are built in an image of their own
 * (agent-layer.ts), so every stage must start FROM scratch or an earlier stage of the same file and
 * copy only from those: no task image may be readable where agent files are built. ENTRYPOINT,
 * USER, ONBUILD and SSE_* variables are refused outright (the run pins the entrypoint and the user;
 * SSE_* variables steer the grader). Parser directives are refused too: an `escape` directive would
 * change where a logical line ends and so hide an instruction from this check. A sidecar agent's
 * Dockerfile (sidecar-image.ts) builds a whole image, so its stages may also start FROM an image
 * the engine has, named literally (its labels are checked before the build); it may not set
 * ssebench's own labels.
 */
import { UserError } from "../../errors.ts";
import { msg } from "../messages.ts";

interface Instruction {
  line: number;
  keyword: string;
  args: string;
}

/** Logical lines (backslash continuation, comment lines dropped) with their first line number. */
function instructions(text: string, file: string, agent: string): Instruction[] {
  const out: Instruction[] = [];
  let pending: Instruction | undefined;
  let inPreamble = true;
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const trimmed = raw.trim();
    if (inPreamble && /^#\s*[a-z]+\s*=/i.test(trimmed)) throw new UserError(msg.agentRefused(`${file}:${i + 1}`, agent, `the parser directive '${trimmed}'`, WHY.directive));
    if (trimmed && !trimmed.startsWith("#")) inPreamble = false;
    if (trimmed.startsWith("#") || (!trimmed && !pending)) continue;
    const continued = trimmed.endsWith("\\");
    const body = continued ? trimmed.slice(0, -1) : trimmed;
    if (pending) pending.args += ` ${body}`;
    else {
      const m = /^(\S+)\s*(.*)$/.exec(body) as RegExpExecArray;
      pending = { line: i + 1, keyword: (m[1] as string).toUpperCase(), args: m[2] as string };
    }
    if (!continued) {
      out.push(pending);
      pending = undefined;
    }
  }
  if (pending) out.push(pending);
  return out;
}

/** Names an ENV or ARG instruction sets (`K=V …`, `K V`, `K`). */
function declaredNames(ins: Instruction): string[] {
  const args = ins.args.trim();
  if (ins.keyword === "ENV" && !/^[^\s=]+=/.test(args)) return [args.split(/\s+/)[0] ?? ""];
  return [...args.matchAll(/(?:^|\s)([^\s=]+)(?==|\s|$)/g)].map((m) => (m[1] as string).replace(/^["']/, ""));
}

const WHY = {
  from: "an agent's stages start FROM scratch or an earlier stage, so no task file is readable where agent files are built",
  copyFrom: "agent files come only from the agent's folder and its earlier stages",
  remote: "image builds fetch nothing from the network",
  pinned: "the run pins ssebench-entrypoint and runs it as root",
  pinnedSidecar: "the run pins ssebench-entrypoint's sidecar-agent and runs the agent as the run's own uid",
  literal: "a sidecar's base is named literally, so that it is checked before the build",
  label: "ssebench's labels say which task, layer and agent an image is",
  onbuild: "an agent layer adds no build steps to later images",
  sse: "SSE_* variables steer the entrypoint and the grader",
  directive: "parser directives change how this check reads the file",
};

/** An image a sidecar's stage starts FROM, and the Dockerfile line that names it. */
export interface BaseImage {
  image: string;
  where: string;
}

/**
 * Throws a UserError naming the file, line, agent and instruction for the first refused one.
 * Returns the images a sidecar's stages start FROM (none for a sandbox agent, which may name none).
 */
export function checkAgentDockerfile(text: string, file: string, agent: string, sidecar = false): BaseImage[] {
  const bases: BaseImage[] = [];
  /** names and indices of the stages so far */
  const stages: string[][] = [];
  const refuse = (ins: Instruction, what: string, why: string) => {
    throw new UserError(msg.agentRefused(`${file}:${ins.line}`, agent, what, why));
  };
  for (const ins of instructions(text, file, agent)) {
    // docker would refuse it too, but only after the task's layers were built
    if (stages.length === 0 && ins.keyword !== "FROM" && ins.keyword !== "ARG") throw new UserError(msg.agentBeforeFrom(`${file}:${ins.line}`, agent, ins.keyword));
    const words = ins.args.split(/\s+/).filter((w) => w);
    switch (ins.keyword) {
      case "FROM": {
        const [image = "", as, name] = words.filter((w) => !w.startsWith("--"));
        const earlierNames = stages.map((s) => s[1]).filter((n) => n !== undefined);
        if (image.toLowerCase() !== "scratch" && !earlierNames.includes(image.toLowerCase())) {
          if (!sidecar) refuse(ins, `FROM ${image}`, WHY.from);
          if (image.includes("$")) refuse(ins, `FROM ${image}`, WHY.literal);
          bases.push({ image, where: `${file}:${ins.line}` });
        }
        stages.push([String(stages.length), ...(as?.toUpperCase() === "AS" && name ? [name.toLowerCase()] : [])]);
        break;
      }
      case "COPY":
      case "ADD": {
        const from = words.find((w) => w.toLowerCase().startsWith("--from="));
        const source = from?.slice("--from=".length).toLowerCase();
        if (source !== undefined && !stages.slice(0, -1).some((s) => s.includes(source))) refuse(ins, `${ins.keyword} ${from}`, WHY.copyFrom);
        const remote = words.find((w) => w.includes("://") || w.startsWith("git@"));
        if (remote) refuse(ins, `${ins.keyword} ${remote}`, WHY.remote);
        break;
      }
      case "ENTRYPOINT":
      case "USER":
        refuse(ins, ins.keyword, sidecar ? WHY.pinnedSidecar : WHY.pinned);
        break;
      case "LABEL": {
        const own = words.map((w) => w.replace(/^["']/, "")).find((w) => /^ssebench\./i.test(w));
        if (sidecar && own) refuse(ins, `LABEL ${own.split("=")[0]}`, WHY.label);
        break;
      }
      case "ONBUILD":
        refuse(ins, ins.keyword, WHY.onbuild);
        break;
      case "ENV":
      case "ARG": {
        const sse = declaredNames(ins).find((n) => n.startsWith("SSE_"));
        if (sse) refuse(ins, `${ins.keyword} ${sse}`, WHY.sse);
        break;
      }
    }
  }
  if (stages.length === 0) throw new UserError(msg.agentNoFrom(file, agent));
  return bases;
}
