// Headless Chromium for the browser tests: finds Debian's /usr/bin/chromium, installing it with
// apt when it is missing and we are root, and drives it over the DevTools protocol with Deno's
// global WebSocket (no puppeteer, no playwright, no downloads besides the Debian package).

/** Where Debian's chromium package puts the browser. */
export const CHROMIUM = "/usr/bin/chromium";

const decoder = new TextDecoder();

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return false;
    throw e;
  }
}

function isRoot(): boolean {
  try {
    return Deno.uid() === 0;
  } catch {
    return false;
  }
}

/**
 * Makes sure /usr/bin/chromium exists: as root, runs `apt-get update && apt-get install -y
 * --no-install-recommends chromium` when it is missing; otherwise throws a clear error.
 */
export async function ensureChromium(): Promise<string> {
  if (await exists(CHROMIUM)) return CHROMIUM;
  if (!isRoot()) {
    throw new Error(
      `Chromium is missing at ${CHROMIUM} and this process is not root, so it cannot install it: ` +
        "run `apt-get update && apt-get install -y --no-install-recommends chromium` as root",
    );
  }
  const out = await new Deno.Command("sh", {
    args: [
      "-c",
      // Wait for the dpkg lock rather than fail when another apt run holds it.
      "apt-get -o DPkg::Lock::Timeout=600 update && " +
      "apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends chromium",
    ],
    env: { DEBIAN_FRONTEND: "noninteractive" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success || !(await exists(CHROMIUM))) {
    const tail = decoder.decode(out.stderr).trim().split("\n").slice(-10).join("\n");
    throw new Error(`Installing chromium with apt-get failed (exit ${out.code}):\n${tail}`);
  }
  return CHROMIUM;
}

/** A DevTools event: method and params. */
export interface CdpEvent {
  method: string;
  params: Record<string, unknown>;
  sessionId?: string;
}

/** A running headless Chromium and a DevTools connection to it. */
export class Browser {
  readonly #child: Deno.ChildProcess;
  readonly #ws: WebSocket;
  readonly #userDataDir: string;
  readonly #timeoutMs: number;
  readonly #drained: Promise<void>;
  #nextId = 1;
  readonly #pending = new Map<
    number,
    { resolve: (v: Record<string, unknown>) => void; reject: (e: Error) => void }
  >();
  /** Every event received, in order. */
  readonly events: CdpEvent[] = [];
  #listeners: ((e: CdpEvent) => void)[] = [];
  #closed = false;

  private constructor(
    child: Deno.ChildProcess,
    ws: WebSocket,
    userDataDir: string,
    timeoutMs: number,
    drained: Promise<void>,
  ) {
    this.#drained = drained;
    this.#child = child;
    this.#ws = ws;
    this.#userDataDir = userDataDir;
    this.#timeoutMs = timeoutMs;
    ws.onmessage = (m) => {
      const msg = JSON.parse(String(m.data));
      if (typeof msg.id === "number") {
        const p = this.#pending.get(msg.id);
        if (!p) return;
        this.#pending.delete(msg.id);
        if (msg.error) p.reject(new Error(`CDP error: ${JSON.stringify(msg.error)}`));
        else p.resolve(msg.result ?? {});
      } else if (typeof msg.method === "string") {
        const e: CdpEvent = { method: msg.method, params: msg.params ?? {} };
        if (msg.sessionId) e.sessionId = msg.sessionId;
        this.events.push(e);
        for (const l of this.#listeners) l(e);
      }
    };
    ws.onclose = () => {
      for (const p of this.#pending.values()) p.reject(new Error("DevTools connection closed"));
      this.#pending.clear();
    };
  }

  /**
   * Starts headless Chromium on a fresh profile and connects to its browser target.
   *
   * @param timeoutMs Bound on the start and on every later command.
   */
  static async launch(timeoutMs = 30_000): Promise<Browser> {
    const exe = await ensureChromium();
    const userDataDir = await Deno.makeTempDir({ prefix: "assay-chromium-" });
    const child = new Deno.Command(exe, {
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
        "--remote-debugging-port=0",
        `--user-data-dir=${userDataDir}`,
        "about:blank",
      ],
      // Keep everything Chromium writes (crash database, dconf cache) inside the profile.
      env: {
        HOME: userDataDir,
        XDG_CONFIG_HOME: `${userDataDir}/.config`,
        XDG_CACHE_HOME: `${userDataDir}/.cache`,
      },
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    let stderr = "";
    let drained: Promise<void> = Promise.resolve();
    try {
      const url = await withTimeout(
        (async () => {
          for await (const chunk of child.stderr) {
            stderr += decoder.decode(chunk, { stream: true });
            const m = stderr.match(/DevTools listening on (ws:\/\/\S+)/);
            if (m) return m[1]!;
          }
          throw new Error(`Chromium exited before listening:\n${stderr.slice(-2000)}`);
        })(),
        timeoutMs,
        "Chromium did not print its DevTools address",
      );
      // Keep draining stderr so that chromium never blocks on a full pipe.
      drained = (async () => {
        try {
          for await (const _ of child.stderr) { /* drain */ }
        } catch { /* closed */ }
      })();
      const ws = new WebSocket(url);
      await withTimeout(
        new Promise<void>((resolve, reject) => {
          ws.onopen = () => resolve();
          ws.onerror = () => reject(new Error(`Cannot connect to ${url}`));
        }),
        timeoutMs,
        "DevTools WebSocket did not open",
      );
      return new Browser(child, ws, userDataDir, timeoutMs, drained);
    } catch (e) {
      killQuietly(child);
      await child.status;
      await Deno.remove(userDataDir, { recursive: true }).catch(() => {});
      throw e;
    }
  }

  /** Sends a command, to the browser or to a page session, and waits for its result. */
  send(
    method: string,
    params: Record<string, unknown> = {},
    sessionId?: string,
  ): Promise<Record<string, unknown>> {
    const id = this.#nextId++;
    const msg: Record<string, unknown> = { id, method, params };
    if (sessionId) msg.sessionId = sessionId;
    const result = new Promise<Record<string, unknown>>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
    });
    this.#ws.send(JSON.stringify(msg));
    return withTimeout(result, this.#timeoutMs, `${method} timed out`).finally(() =>
      this.#pending.delete(id)
    );
  }

  /** Waits for the first event (already received or future) that matches. */
  waitFor(match: (e: CdpEvent) => boolean, what: string): Promise<CdpEvent> {
    const seen = this.events.find(match);
    if (seen) return Promise.resolve(seen);
    let listener: (e: CdpEvent) => void = () => {};
    const p = new Promise<CdpEvent>((resolve) => {
      listener = (e) => {
        if (match(e)) resolve(e);
      };
      this.#listeners.push(listener);
    });
    return withTimeout(p, this.#timeoutMs, `Timed out waiting for ${what}`).finally(() => {
      this.#listeners = this.#listeners.filter((l) => l !== listener);
    });
  }

  /**
   * Asks Chromium to quit (so that it takes its helper processes with it), kills it if it has
   * not exited within 5 s, closes the connection and removes its profile. Safe to call twice.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const exited = this.#child.status.then(() => true);
    if (this.#ws.readyState === WebSocket.OPEN) {
      this.#ws.send(JSON.stringify({ id: this.#nextId++, method: "Browser.close" }));
    }
    const quit = await Promise.race([
      exited,
      new Promise<false>((r) => {
        const t = setTimeout(() => r(false), 5_000);
        exited.then(() => clearTimeout(t));
      }),
    ]);
    if (!quit) killQuietly(this.#child);
    await this.#child.status;
    if (this.#ws.readyState !== WebSocket.CLOSED) {
      const closed = new Promise((r) => this.#ws.addEventListener("close", r, { once: true }));
      this.#ws.close();
      await closed;
    }
    await this.#drained;
    // A helper process may still be writing to the profile for a moment.
    for (let i = 0; i < 20; i++) {
      try {
        await Deno.remove(this.#userDataDir, { recursive: true });
        return;
      } catch (e) {
        if (e instanceof Deno.errors.NotFound) return;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    throw new Error(`Cannot remove Chromium's profile ${this.#userDataDir}`);
  }
}

function killQuietly(child: Deno.ChildProcess): void {
  try {
    child.kill("SIGKILL");
  } catch { /* already exited */ }
}

function withTimeout<T>(p: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${message} (after ${ms} ms)`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/** A page opened on a file: its DevTools session, a sender bound to it, and `evaluate`. */
export interface OpenPage {
  sessionId: string;
  send(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Evaluates an expression in the page; fails the test on an exception. */
  evaluate(expression: string): Promise<unknown>;
}

/**
 * Opens `url` in a new page of `browser` at the given viewport width (height 900) with the Page,
 * Runtime, Log and Network domains on, and waits for its load event.
 */
export async function openPage(browser: Browser, url: string, width: number): Promise<OpenPage> {
  const { targetId } = await browser.send("Target.createTarget", { url: "about:blank" });
  const { sessionId } = await browser.send("Target.attachToTarget", {
    targetId,
    flatten: true,
  }) as { sessionId: string };
  const send = (method: string, params: Record<string, unknown> = {}) =>
    browser.send(method, params, sessionId);
  for (const domain of ["Page", "Runtime", "Log", "Network"]) await send(`${domain}.enable`);
  await send("Emulation.setDeviceMetricsOverride", {
    width,
    height: 900,
    deviceScaleFactor: 1,
    mobile: false,
  });
  const navigated = await send("Page.navigate", { url });
  if (navigated.errorText !== undefined) {
    throw new Error(`navigation failed: ${navigated.errorText}`);
  }
  await browser.waitFor(
    (e) => e.sessionId === sessionId && e.method === "Page.loadEventFired",
    "the page's load event",
  );
  const evaluate = async (expression: string) => {
    const r = await send("Runtime.evaluate", {
      expression,
      returnByValue: true,
      awaitPromise: true,
    }) as {
      result: { value: unknown };
      exceptionDetails?: unknown;
    };
    if (r.exceptionDetails !== undefined) throw new Error(JSON.stringify(r.exceptionDetails));
    return r.result.value;
  };
  return { sessionId, send, evaluate };
}
