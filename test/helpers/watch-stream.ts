// A watch client for tests: opens a streaming GET over node:https (HTTP/1.1), collects the
// newline-delimited JSON events as they arrive, and offers bounded waits for them.
import https from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import type { Client } from './plat.js';

export interface WatchEventJson { type: string; object: any }

const POLL_MS = 20;
const DEFAULT_WAIT_MS = 10_000;

/** Polls `check` until it returns a value other than undefined, failing after `timeoutMs`. */
export async function waitUntil<T>(check: () => T | undefined, what: string, timeoutMs = DEFAULT_WAIT_MS): Promise<T> {
  const attempts = Math.ceil(timeoutMs / POLL_MS);
  for (let i = 0; i < attempts; i++) {
    const v = check();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Splits a growing text buffer into complete lines, keeping the partial tail. */
export class LineCollector {
  #buf = '';
  readonly events: WatchEventJson[] = [];
  /** Lines that were not JSON (would be a server bug). */
  readonly garbage: string[] = [];
  push(chunk: string): void {
    this.#buf += chunk;
    let nl: number;
    while ((nl = this.#buf.indexOf('\n')) >= 0) {
      const line = this.#buf.slice(0, nl);
      this.#buf = this.#buf.slice(nl + 1);
      if (line.trim() === '') continue;
      try { this.events.push(JSON.parse(line) as WatchEventJson); } catch { this.garbage.push(line); }
    }
  }
  get rest(): string { return this.#buf; }
}

export class WatchStream {
  readonly lines = new LineCollector();
  ended = false;
  /** The body as received, for tests that count its bytes. */
  text = '';
  /** The response ended properly (for chunked bodies: the terminating chunk arrived). */
  cleanEnd = false;
  error: Error | undefined;
  #req: ReturnType<typeof https.request> | undefined;

  private constructor(readonly status: number, readonly headers: IncomingHttpHeaders) {}

  get events(): WatchEventJson[] { return this.lines.events; }

  /** Opens `path` (which should carry watch=true) and resolves once the response headers are in. */
  static open(client: Client, path: string, headers: Record<string, string> = {}): Promise<WatchStream> {
    const u = new URL(path, client.url);
    return new Promise((resolve, reject) => {
      const req = https.request({
        method: 'GET', hostname: u.hostname, port: u.port, path: u.pathname + u.search, agent: false,
        ca: client.creds.ca,
        ...(client.creds.cert ? { cert: client.creds.cert, key: client.creds.key } : {}),
        headers: { accept: 'application/json', ...headers },
      }, (res) => {
        const w = new WatchStream(res.statusCode ?? 0, res.headers);
        w.#req = req;
        res.setEncoding('utf8');
        res.on('data', (c: string) => { w.text += c; w.lines.push(c); });
        res.on('end', () => { w.cleanEnd = true; w.ended = true; });
        res.on('close', () => { w.ended = true; });
        res.on('error', (e) => { w.error = e; w.ended = true; });
        resolve(w);
      });
      req.on('error', reject);
      req.end();
    });
  }

  /** Waits until at least `n` events have arrived; returns the first `n`. */
  async waitForCount(n: number, timeoutMs?: number): Promise<WatchEventJson[]> {
    return waitUntil(() => (this.events.length >= n ? this.events.slice(0, n) : undefined),
      `${n} watch events (have ${this.events.length}: ${this.describe()})`, timeoutMs);
  }

  /** Waits for the first event (at index >= `from`) that satisfies `pred`. */
  async waitFor(pred: (e: WatchEventJson) => boolean, what: string, from = 0, timeoutMs?: number): Promise<WatchEventJson> {
    return waitUntil(() => this.events.slice(from).find(pred), `${what} (have: ${this.describe()})`, timeoutMs);
  }

  /** Waits until the server has ended the response. */
  async waitEnd(timeoutMs?: number): Promise<void> {
    await waitUntil(() => (this.ended ? true : undefined), 'the watch stream to end', timeoutMs);
  }

  describe(): string {
    return this.events.map((e) => `${e.type} ${e.object?.metadata?.name ?? e.object?.kind ?? '?'}@${e.object?.metadata?.resourceVersion ?? ''}`).join(', ');
  }

  close(): void {
    this.#req?.destroy();
  }
}
