/**
 * What a run container can reach, tried by an agent on a real engine: it has no interface but its
 * own loopback, a service the host serves on 127.0.0.1 is out of its reach (the host's loopback is
 * not the container's), an address beyond the machine has no route (so no packet is ever sent),
 * and another run's container has no address to be reached at. The run records what it tried.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ssebench, tempDir } from "../helpers/cli.ts";
import { DEMO_TASK, demoDir, docker, E2E, homeWithAgents, SKIP_REASON } from "./helpers.ts";

setDefaultTimeout(900_000);

let connections = 0;
// A host service the agent must not reach (loopback only, as every test server here).
const server = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { open: () => void connections++, data() {} } });

// Each probe prints "<what> <open|closed>"; bash's /dev/tcp needs no tool in the image. 192.0.2.1 is
// TEST-NET-1: with no route a connect fails at once, nothing leaves the container.
const probe = (what: string, host: string, port: number) =>
  `if timeout 5 bash -c 'exec 3<>/dev/tcp/${host}/${port}' 2>/dev/null; then echo ${what} open; else echo ${what} closed; fi`;
const script = [
  `echo interfaces $(ls /sys/class/net | sort | tr "\\n" " ")`,
  probe("host-loopback-service", "127.0.0.1", server.port),
  probe("beyond-the-machine", "192.0.2.1", 80),
  `echo routes $(grep -vc Iface /proc/net/route)`,
].join("; ");
const home = homeWithAgents({
  reacher: JSON.stringify(["bash", "-c", `{ ${script}; } > "$SSE_ARCHIVE/reach.txt" 2>&1; sleep 20`]),
  bystander: JSON.stringify(["bash", "-c", "sleep 20"]),
});
const results = tempDir("ssebench-e2e-isolation-");
afterAll(() => {
  server.stop(true);
  results.cleanup();
  home.cleanup();
});
const env = { DOCKER_HOST: process.env.DOCKER_HOST, SSEBENCH_HOME: home.path };
const base = ["run", "--local", demoDir, "--task", DEMO_TASK, "--results", results.path, "--timeout", "600"];

describe.skipIf(!E2E)(`a run container's reach on a real engine${SKIP_REASON}`, () => {
  test("an agent reaches neither the host's services, nor another run, nor anything beyond the machine", async () => {
    // Another run at the same time: the agent's would-be neighbour.
    const neighbour = ssebench([...base, "--agent", "bystander", "--run-id", "neighbour-1"], { env });
    const r = await ssebench([...base, "--agent", "reacher", "--run-id", "reach-1"], { env });
    await neighbour;
    expect(r.exitCode).toBe(0);
    const reach = readFileSync(join(results.path, DEMO_TASK, "none", "reacher", "reach-1", "archive", "reach.txt"), "utf8");
    expect(reach.split("\n").filter(Boolean)).toEqual(["interfaces lo", "host-loopback-service closed", "beyond-the-machine closed", "routes 0"]);
    expect(connections).toBe(0);
    // Neither run had a network of its own to share with the other.
    for (const id of ["reach-1", "neighbour-1"]) expect(docker(["network", "ls", "-q", "--filter", `label=ssebench.run-id=${id}`])).toBe("");
  });
});
