"""A minimal coding agent in Python, standard library only: the template for packaging a Python
agent as a sidecar (docs/agents.md "Sidecar agents").

It asks the run's model (the gateway's Chat Completions wire at $SSE_BASE_URL) to fix the task,
offering two tools: `bash`, a shell command run in the source tree, and `test_patch`, the run's
checks of the current tree ($SSE_TOOL_API/sse/v1/test_patch). It runs each tool call and sends the
result back, until the model answers without a tool call, the turns run out or the time limit is
near. Everything it does is recorded in $SSE_ARCHIVE/dialog.jsonl (the reference's dialog protocol).

What the run gives it (docs/container-contract.md §2, §13): SSE_BASE_URL, SSE_API_KEY,
SSE_MODEL_NAME, SSE_SOURCE (also the working folder), SSE_TASK_FILE (the task brief, JSON),
SSE_TOOL_API, SSE_ARCHIVE and TIMEOUT. The container has no network: the model and the checks are
on 127.0.0.1 only.
"""

import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request

MAX_TURNS = int(os.environ.get("PYTHON_AGENT_MAX_TURNS", "50"))
# What a tool result may send back to the model (the rest is cut in the middle).
MAX_TOOL_OUTPUT = 20_000
# Seconds kept in hand before the run's time limit, to close the dialog.
RESERVE = 15

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "bash",
            "description": "Run a bash command in the project's source tree and return its output (stdout and stderr) and exit status.",
            "parameters": {
                "type": "object",
                "properties": {"command": {"type": "string", "description": "the command line"}},
                "required": ["command"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "test_patch",
            "description": "Build the project with your current changes and run the checks this run allows; returns a report.",
            "parameters": {"type": "object", "properties": {}},
        },
    },
]


class Dialog:
    """$SSE_ARCHIVE/dialog.jsonl: one JSON object a line, flushed as it goes."""

    def __init__(self, path):
        self.file = open(path, "w", encoding="utf-8")
        self.seq = 0

    def write(self, entry):
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime()) + ".%03dZ" % (time.time() % 1 * 1000)
        self.file.write(json.dumps({"seq": self.seq, "ts": stamp, **entry}) + "\n")
        self.file.flush()
        self.seq += 1


def post_json(url, body, key=None, timeout=600):
    headers = {"Content-Type": "application/json"}
    if key:
        headers["Authorization"] = "Bearer " + key
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers, method="POST")
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return json.loads(response.read())


def prompt_of(brief):
    """The task as the model sees it, from the brief's fields (those that are empty are left out)."""
    parts = [
        "You are fixing a security vulnerability in %s (%s), whose source is in %s, your working folder."
        % (brief.get("project"), brief.get("language"), brief.get("source")),
        "Change the code so the vulnerability is gone and the project still builds and passes its tests. "
        "Use the bash tool to read and edit files, and test_patch to check your change. "
        "When you are done, answer without calling a tool.",
    ]
    for title, key in (("Vulnerability", "bug_description"), ("Issue", "issue")):
        if brief.get(key):
            parts.append("## %s\n%s" % (title, brief[key]))
    for n, report in enumerate(brief.get("crash_reports") or [], 1):
        parts.append("## Report %d (%s)\n```\n%s\n```" % (n, report.get("path"), report.get("text")))
    for title, key in (("Build script", "build_script"), ("Test script", "test_script")):
        if brief.get(key):
            parts.append("## %s\n```bash\n%s\n```" % (title, brief[key]))
    return "\n\n".join(parts)


def clip(text):
    if len(text) <= MAX_TOOL_OUTPUT:
        return text
    half = MAX_TOOL_OUTPUT // 2
    return text[:half] + "\n[... %d characters cut ...]\n" % (len(text) - MAX_TOOL_OUTPUT) + text[-half:]


def run_bash(command, source, seconds):
    try:
        done = subprocess.run(["bash", "-c", command], cwd=source, capture_output=True, timeout=seconds, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return False, "the command did not finish within %d s" % seconds
    output = (done.stdout + done.stderr).decode("utf-8", "replace")
    return done.returncode == 0, clip(output) + "\n[exit status %d]" % done.returncode


def run_test_patch(tool_api, seconds):
    try:
        answer = post_json(tool_api + "/sse/v1/test_patch", {}, timeout=seconds)
        return bool(answer.get("ok")), clip(answer.get("text", ""))
    except urllib.error.HTTPError as e:
        return False, "test_patch answered HTTP %d: %s" % (e.code, e.read().decode("utf-8", "replace"))


def main():
    env = os.environ
    started = time.monotonic()
    deadline = started + int(env.get("TIMEOUT", "3600")) - RESERVE
    source = env["SSE_SOURCE"]
    model = env.get("SSE_MODEL_NAME", "")
    with open(env["SSE_TASK_FILE"], encoding="utf-8") as f:
        brief = json.load(f)
    dialog = Dialog(os.path.join(env["SSE_ARCHIVE"], "dialog.jsonl"))
    dialog.write({"type": "init", "data": {"task": brief.get("id", ""), "cwd": source, "model": model, "agent": "python-agent"}})
    prompt = prompt_of(brief)
    dialog.write({"type": "prompt", "content": prompt})
    messages = [{"role": "user", "content": prompt}]
    tokens = {"in": 0, "out": 0}
    turns, status, last = 0, "success", ""
    try:
        while True:
            if turns >= MAX_TURNS or time.monotonic() >= deadline:
                status = "timeout" if time.monotonic() >= deadline else "success"
                last = last or "stopped: out of turns or time"
                break
            turns += 1
            body = {"model": model, "messages": messages, "tools": TOOLS, "tool_choice": "auto"}
            answer = post_json(env["SSE_BASE_URL"] + "/v1/chat/completions", body, key=env.get("SSE_API_KEY"), timeout=max(1, deadline - time.monotonic()))
            usage = answer.get("usage") or {}
            turn_tokens = {"in": usage.get("prompt_tokens", 0), "out": usage.get("completion_tokens", 0)}
            tokens = {k: tokens[k] + turn_tokens[k] for k in tokens}
            message = answer["choices"][0]["message"]
            messages.append({k: v for k, v in message.items() if k in ("role", "content", "tool_calls")})
            if message.get("content"):
                last = message["content"]
                dialog.write({"type": "message", "role": "assistant", "content": last, "tokens": turn_tokens})
            calls = message.get("tool_calls") or []
            if not calls:
                break
            for call in calls:
                name = call["function"]["name"]
                try:
                    args = json.loads(call["function"].get("arguments") or "{}")
                except json.JSONDecodeError:
                    args = {}
                dialog.write({"type": "tool", "tool_id": call["id"], "name": name, "status": "running", "args": args})
                seconds = max(1, int(deadline - time.monotonic()))
                if name == "bash":
                    ok, result = run_bash(str(args.get("command", "")), source, min(seconds, 600))
                elif name == "test_patch":
                    ok, result = run_test_patch(env["SSE_TOOL_API"], seconds)
                else:
                    ok, result = False, "unknown tool: %s" % name
                dialog.write({"type": "tool", "tool_id": call["id"], "name": name, "status": "success" if ok else "error", ("result" if ok else "error"): result})
                messages.append({"role": "tool", "tool_call_id": call["id"], "content": result})
    except urllib.error.HTTPError as e:
        status, last = "error", "the model answered HTTP %d: %s" % (e.code, e.read().decode("utf-8", "replace")[:2000])
        print("python-agent: " + last, file=sys.stderr)
    except (urllib.error.URLError, OSError, KeyError, ValueError) as e:
        status, last = "error", "%s: %s" % (type(e).__name__, e)
        print("python-agent: " + last, file=sys.stderr)
    duration = int((time.monotonic() - started) * 1000)
    dialog.write({"type": "complete", "status": status, "turns": turns, "duration_ms": duration, "total_tokens": tokens, "message": last})
    return 0 if status == "success" else 1


if __name__ == "__main__":
    sys.exit(main())
