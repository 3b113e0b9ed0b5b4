/**
 * Headless Debian Chromium driven over the DevTools protocol, for pages that keep living after they
 * load (the viewer's live updates): open a page at a size, read its DOM with an expression, wait
 * until an expression holds, take a screenshot. Its own profile, no network but the URLs given.
 */
import { join } from "node:path";

const CHROMIUM = "/usr/bin/chromium";

type Json = Record<string, any>;

export interface Page {
  /** the value of a JavaScript expression in the page (awaited when it is a promise) */
  eval<T = unknown>(expression: string): Promise<T>;
  /** polls the expression until it is truthy; its value, or an error after `ms` */
  waitFor<T = unknown>(expression: string, ms?: number): Promise<T>;
  goto(url: string): Promise<void>;
  /** PNG bytes of the viewport, or of the whole page */
  screenshot(fullPage?: boolean): Promise<Uint8Array>;
  close(): Promise<void>;
}

export interface Browser {
  open(url: string, size?: readonly [number, number]): Promise<Page>;
  close(): Promise<void>;
}

export async function launchBrowser(profileDir: string): Promise<Browser> {
  const proc = Bun.spawn(
    [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars", "--remote-debugging-port=0", `--user-data-dir=${profileDir}`, "about:blank"],
    { stdout: "ignore", stderr: "pipe", env: { PATH: "/usr/bin:/bin", HOME: profileDir } },
  );
  let active = "";
  for (let i = 0; i < 300 && !active; i++) {
    active = await Bun.file(join(profileDir, "DevToolsActivePort")).text().catch(() => "");
    if (!active) await Bun.sleep(100);
  }
  const [port, path] = active.trim().split("\n");
  if (!port || !path) {
    proc.kill("SIGKILL");
    throw new Error(`chromium did not start: ${await new Response(proc.stderr).text()}`);
  }
  const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`);
  await new Promise<void>((resolve, reject) => {
    ws.onopen = () => resolve();
    ws.onerror = () => reject(new Error("cannot reach chromium's DevTools socket"));
  });
  let nextId = 0;
  const pending = new Map<number, { resolve: (v: Json) => void; reject: (e: Error) => void }>();
  const listeners = new Set<(m: Json) => void>();
  ws.onmessage = (event) => {
    const m = JSON.parse(String(event.data)) as Json;
    if (typeof m.id === "number" && pending.has(m.id)) {
      const p = pending.get(m.id);
      pending.delete(m.id);
      if (m.error) p?.reject(new Error(`${m.error.message}`));
      else p?.resolve(m.result ?? {});
    } else for (const l of listeners) l(m);
  };
  const send = (method: string, params: Json = {}, sessionId?: string) =>
    new Promise<Json>((resolve, reject) => {
      const id = ++nextId;
      pending.set(id, { resolve, reject });
      ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    });
  const once = (method: string, sessionId: string, ms: number) =>
    new Promise<Json>((resolve, reject) => {
      const timer = setTimeout(() => {
        listeners.delete(l);
        reject(new Error(`no ${method} in ${ms} ms`));
      }, ms);
      const l = (m: Json) => {
        if (m.method !== method || m.sessionId !== sessionId) return;
        clearTimeout(timer);
        listeners.delete(l);
        resolve(m.params ?? {});
      };
      listeners.add(l);
    });

  return {
    async open(url, size = [1280, 900]) {
      const { targetId } = await send("Target.createTarget", { url: "about:blank" });
      const { sessionId } = await send("Target.attachToTarget", { targetId, flatten: true });
      const s = (method: string, params: Json = {}) => send(method, params, sessionId);
      await s("Page.enable");
      await s("Runtime.enable");
      await s("Emulation.setDeviceMetricsOverride", { width: size[0], height: size[1], deviceScaleFactor: 1, mobile: false });
      const evaluate = async <T>(expression: string): Promise<T> => {
        const r = await s("Runtime.evaluate", { expression, returnByValue: true, awaitPromise: true });
        if (r.exceptionDetails) throw new Error(`${expression}: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`);
        return r.result?.value as T;
      };
      const page: Page = {
        eval: evaluate,
        async waitFor<T>(expression: string, ms = 20_000) {
          const deadline = Date.now() + ms;
          for (;;) {
            const value = await evaluate<T>(expression).catch(() => undefined);
            if (value) return value as T;
            if (Date.now() > deadline) throw new Error(`timed out waiting for ${expression}`);
            await Bun.sleep(100);
          }
        },
        async goto(to) {
          const loaded = once("Page.loadEventFired", sessionId, 30_000);
          await s("Page.navigate", { url: to });
          await loaded;
        },
        async screenshot(fullPage = false) {
          const params: Json = { format: "png" };
          if (fullPage) {
            const { cssContentSize } = await s("Page.getLayoutMetrics");
            params.clip = { x: 0, y: 0, width: size[0], height: Math.ceil(cssContentSize.height), scale: 1 };
            params.captureBeyondViewport = true;
          }
          const { data } = await s("Page.captureScreenshot", params);
          return Uint8Array.from(Buffer.from(data as string, "base64"));
        },
        async close() {
          await send("Target.closeTarget", { targetId });
        },
      };
      await page.goto(url);
      return page;
    },
    async close() {
      ws.close();
      proc.kill();
      await proc.exited;
    },
  };
}
