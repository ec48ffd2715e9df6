/**
 * The `simulate --html` page in headless Chromium (Debian's `chromium` package), driven over the Chrome
 * DevTools protocol on a pipe (`--remote-debugging-pipe`: JSON messages separated by NUL on fds 3/4),
 * so no WebSocket client or npm dependency is needed. Skipped when /usr/bin/chromium is absent.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable, Writable } from "node:stream";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundledTranscript as fixture, cliBin as bin, repoRoot as root } from "./support/cli.js";

const CHROMIUM = "/usr/bin/chromium";
const HAS_CHROMIUM = existsSync(CHROMIUM);

if (!HAS_CHROMIUM) console.warn(`report-browser.test.ts: skipped — ${CHROMIUM} is not installed (apt-get install -y chromium)`);

interface CdpMessage { id?: number; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown>; error?: { message: string }; sessionId?: string }

/** A minimal CDP client over Chromium's debugging pipe. */
class PipeCdp {
  private nextId = 1;
  private buffer = "";
  private readonly pending = new Map<number, { resolve: (r: Record<string, unknown>) => void; reject: (e: Error) => void }>();
  private readonly listeners: Array<(m: CdpMessage) => void> = [];

  constructor(private readonly toBrowser: Writable, fromBrowser: Readable) {
    fromBrowser.setEncoding("utf8");
    fromBrowser.on("data", (chunk: string) => {
      this.buffer += chunk;
      let end: number;
      while ((end = this.buffer.indexOf("\0")) >= 0) {
        const message = JSON.parse(this.buffer.slice(0, end)) as CdpMessage;
        this.buffer = this.buffer.slice(end + 1);
        if (message.id !== undefined) {
          const waiter = this.pending.get(message.id);
          this.pending.delete(message.id);
          if (message.error) waiter?.reject(new Error(message.error.message));
          else waiter?.resolve(message.result ?? {});
        } else {
          for (const listener of this.listeners) listener(message);
        }
      }
    });
  }

  send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    this.toBrowser.write(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }) + "\0");
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
  }

  on(listener: (m: CdpMessage) => void): void {
    this.listeners.push(listener);
  }

  waitFor(method: string): Promise<CdpMessage> {
    return new Promise((resolve) => this.on((m) => m.method === method && resolve(m)));
  }
}

function writeReport(dir: string): Promise<string> {
  const out = join(dir, "report.html");
  return new Promise((done, fail) => {
    execFile(process.execPath, [bin, "simulate", fixture, "--context-length", "8000", "--html", out], { cwd: root, env: { ...process.env, OPENAI_API_KEY: "", OPENROUTER_API_KEY: "" }, timeout: 60_000 }, (error, _stdout, stderr) => {
      if (error) fail(new Error(`simulate failed: ${stderr}`));
      else done(out);
    });
  });
}

describe.skipIf(!HAS_CHROMIUM)("the simulate --html page in headless Chromium", () => {
  let dir: string;
  let browser: ChildProcess;
  let cdp: PipeCdp;
  let session: string;
  const problems: string[] = [];
  const requests: string[] = [];

  const evaluate = async <T>(expression: string): Promise<T> => {
    const result = (await cdp.send("Runtime.evaluate", { expression, returnByValue: true }, session)) as { result: { value: T }; exceptionDetails?: unknown };
    if (result.exceptionDetails) throw new Error(`evaluate failed: ${JSON.stringify(result.exceptionDetails)}`);
    return result.result.value;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "ce-browser-"));
    const page = await writeReport(dir);
    browser = spawn(
      CHROMIUM,
      [
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--no-first-run", "--disable-quic", `--user-data-dir=${join(dir, "profile")}`, "--window-size=1200,900", "--remote-debugging-pipe", "about:blank",
      ],
      { stdio: ["ignore", "ignore", "ignore", "pipe", "pipe"] },
    );
    cdp = new PipeCdp(browser.stdio[3] as Writable, browser.stdio[4] as Readable);
    const { targetInfos } = (await cdp.send("Target.getTargets")) as { targetInfos: Array<{ targetId: string; type: string }> };
    const target = targetInfos.find((t) => t.type === "page");
    if (!target) throw new Error("Chromium opened no page");
    ({ sessionId: session } = (await cdp.send("Target.attachToTarget", { targetId: target.targetId, flatten: true })) as { sessionId: string });
    cdp.on((m) => {
      if (m.sessionId !== session) return;
      const p = m.params ?? {};
      if (m.method === "Runtime.consoleAPICalled" && (p.type === "error" || p.type === "assert")) problems.push(`console.${String(p.type)}: ${JSON.stringify(p.args)}`);
      if (m.method === "Runtime.exceptionThrown") problems.push(`exception: ${JSON.stringify(p.exceptionDetails)}`);
      if (m.method === "Log.entryAdded") {
        const entry = p.entry as { level: string; text: string; url?: string };
        if (entry.level === "error") problems.push(`log: ${entry.text} ${entry.url ?? ""}`);
      }
      if (m.method === "Network.requestWillBeSent") requests.push((p.request as { url: string }).url);
    });
    for (const domain of ["Runtime", "Log", "Page", "Network"]) await cdp.send(`${domain}.enable`, {}, session);
    const loaded = cdp.waitFor("Page.loadEventFired");
    await cdp.send("Page.navigate", { url: pathToFileURL(page).href }, session);
    await loaded;
  }, 90_000);

  afterAll(async () => {
    await cdp?.send("Browser.close").catch(() => undefined);
    if (browser && browser.exitCode === null) {
      // Wait for Chromium to exit so it is not still writing its profile while we remove it.
      const exited = new Promise((done) => browser!.once("exit", done));
      const timer = setTimeout(() => browser?.kill("SIGKILL"), 5_000);
      browser.kill();
      await exited;
      clearTimeout(timer);
    }
    // Chromium's helper processes can outlive the browser and still write the profile: a temp folder left
    // behind is harmless, so a failed removal must not fail the suite.
    try {
      if (dir) rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    } catch (error) {
      console.warn(`could not remove ${dir}: ${(error as Error).message}`);
    }
  });

  it("renders the page with its summary", async () => {
    const page = await evaluate<{ title: string; rows: number; width: number }>(
      `({ title: document.querySelector("h1").textContent, rows: document.querySelectorAll("table.summary tbody tr").length, width: document.body.getBoundingClientRect().width })`,
    );
    expect(page.title).toMatch(/^Replay report — .*python-to-rust-port\.json/);
    expect(page.rows).toBeGreaterThanOrEqual(10);
    expect(page.width).toBeGreaterThan(0);
  });

  it("draws the context chart with a path per series, the threshold line and compaction markers", async () => {
    const chart = await evaluate<{ series: string[]; rules: string[]; markers: number; height: number; points: number }>(`(() => {
      const svg = document.querySelector("svg#context-chart");
      return {
        series: [...svg.querySelectorAll("path[data-series]")].map((p) => p.getAttribute("data-series")),
        rules: [...svg.querySelectorAll("[data-rule]")].map((r) => r.getAttribute("data-rule")),
        markers: svg.querySelectorAll(".compaction-marker").length,
        height: svg.getBoundingClientRect().height,
        points: svg.querySelector('path[data-series="context"]').getTotalLength(),
      };
    })()`);
    expect(chart.series).toEqual(["context", "no-compaction"]);
    expect(chart.rules).toContain("agent-threshold");
    expect(chart.markers).toBeGreaterThanOrEqual(1);
    expect(chart.height).toBeGreaterThan(100);
    expect(chart.points).toBeGreaterThan(0);
  });

  it("draws the cumulative cost chart with a path per series", async () => {
    const series = await evaluate<string[]>(`[...document.querySelectorAll("svg#cost-chart path[data-series]")].map((p) => p.getAttribute("data-series"))`);
    expect(series).toEqual(["cost", "no-caching", "no-compaction-cost"]);
  });

  it("shows the request under the pointer when hovering a chart", async () => {
    const box = await evaluate<{ x: number; y: number; width: number; height: number }>(`(() => { const svg = document.querySelector("svg#context-chart"); svg.scrollIntoView(); const r = svg.getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height }; })()`);
    await cdp.send("Input.dispatchMouseEvent", { type: "mouseMoved", x: box.x + box.width * 0.4, y: box.y + box.height / 2 }, session);
    const readout = await evaluate<{ hidden: boolean; text: string }>(`({ hidden: document.getElementById("readout").hidden, text: document.getElementById("readout").textContent })`);
    expect(readout.hidden).toBe(false);
    expect(readout.text).toMatch(/^request \d+/);
    expect(readout.text).toContain("cache read");
  });

  it("logs no console errors and fetches nothing from the network", () => {
    expect(problems).toEqual([]);
    expect(requests.filter((url) => !url.startsWith("file:"))).toEqual([]);
  });
});
