/** The byte relay's connection to a TCP target that is not up yet (a Swarm trial's relay, started beside the trial). */
import { expect, test } from "bun:test";
import { relayTcp } from "../../src/runtime/relay/socket-relay.ts";

/** A port nothing listens on now: taken from the kernel, then released. */
function freePort(): number {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return port;
}

test("a connection to a TCP target that comes up later waits for it and then carries the request", async () => {
  const port = freePort();
  const relay = relayTcp("127.0.0.1", 0, () => `127.0.0.1:${port}`);
  let server: ReturnType<typeof Bun.serve> | undefined;
  try {
    // The request is sent while nothing accepts on the target; the server comes up after two retries' worth.
    const answer = fetch(`http://127.0.0.1:${relay.port}/first-call`).then((r) => r.text());
    await Bun.sleep(600);
    server = Bun.serve({ hostname: "127.0.0.1", port, fetch: (req) => new Response(`got ${new URL(req.url).pathname}`) });
    expect(await answer).toBe("got /first-call");
  } finally {
    relay.stop(true);
    server?.stop(true);
  }
});

test("a Unix socket target that is missing closes the client's connection at once (no waiting)", async () => {
  const relay = relayTcp("127.0.0.1", 0, () => "/nonexistent/ssebench-test.sock");
  try {
    const outcome = await fetch(`http://127.0.0.1:${relay.port}/`).then(
      () => "answered",
      () => "refused",
    );
    // Refused at once: waiting as for a TCP target (30 s) would outlast the test's 5 s limit.
    expect(outcome).toBe("refused");
  } finally {
    relay.stop(true);
  }
});
