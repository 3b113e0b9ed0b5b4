/** The docker wrapper against the real CLI: missing binary and a dead engine become one-line errors. */
import { describe, expect, test } from "bun:test";
import { DockerCli, isEngineDown } from "../../../src/run/backends/docker.ts";
import { msg } from "../../../src/run/messages.ts";

describe("docker wrapper", () => {
  test("no docker on PATH", async () => {
    await expect(new DockerCli(() => {}, { PATH: "/nonexistent" }).call(["version"])).rejects.toThrow(msg.dockerMissing());
  });

  const noCli = Bun.which("docker") ? "" : " [skipped: no docker CLI on PATH]";
  test.skipIf(Boolean(noCli))(`a dead engine address is named; every call is logged${noCli}`, async () => {
    const log: string[] = [];
    const docker = new DockerCli((l) => log.push(l), { PATH: process.env.PATH, DOCKER_HOST: "unix:///nonexistent/docker.sock" });
    await expect(docker.call(["image", "inspect", "x"])).rejects.toThrow("Cannot reach the Docker engine at unix:///nonexistent/docker.sock (");
    expect(log).toHaveLength(1);
    expect(log[0]).toMatch(/^docker image inspect x -> 1 \(\d+ ms\)$/);
  });

  test("engine-down texts of the docker CLI", () => {
    expect(isEngineDown("Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?")).toBe(true);
    expect(isEngineDown("Error: No such image: x")).toBe(false);
  });
});
