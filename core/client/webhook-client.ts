// One JSON round trip to a webhook (token review, subject access review), as upstream's generic
// webhook client makes it: POST the body to the kubeconfig's server URL, read a JSON answer. The
// URL's query is the client's timeout alone (`?timeout=30s`): client-go's Request.URL sends the
// rest.Config Timeout that NewGenericWebhook sets and builds the query from the request's own
// parameters, so a query written into the kubeconfig's server is not sent; its path is the
// server's as NewRequest joins it (path.Join: `/authorize/` is sent as `/authorize`). Transient failures (connection reset, 429, 500, 504, or any answer with Retry-After) are
// retried with upstream's backoff (500ms, factor 1.5, jitter 0.2, 5 steps: DefaultShouldRetry);
// every other failure ends the call at once. One timeout bounds the whole call, retries included.
//
// Error messages never carry the request or response body: a webhook may echo a caller's token.
import http from 'node:http';
import https from 'node:https';
import { createSecureContext } from 'node:tls';
import { sleepUnlessAborted } from '../abort-wait.js';
import type { WebhookConnection } from './kubeconfig.js';
import { failOnAbortWhileTunnelling, ProxyAgent } from './proxy-connect.js';
import { checkServerIdentity } from './server-identity.js';
import { goUrlErrorText } from './go-url-error.js';
import { trackSocketAddresses } from './socket-addresses.js';
import { formatDuration } from '../flags/duration.js';
import { goPathClean } from '../go-path-clean.js';
import { withImpersonation } from './impersonation-headers.js';

export interface Backoff {
  readonly initialMs: number;
  readonly factor: number;
  readonly jitter: number;
  readonly steps: number;
}

/** k8s.io/apiserver/pkg/util/webhook DefaultRetryBackoffWithInitialDelay(500ms). */
export const DEFAULT_BACKOFF: Backoff = { initialMs: 500, factor: 1.5, jitter: 0.2, steps: 5 };
export const DEFAULT_TIMEOUT_MS = 30_000;
const MAX_RESPONSE_BYTES = 1 << 20;

export interface WebhookClientOptions {
  readonly connection: WebhookConnection;
  /** What the answer should be, for messages: `malformed TokenReview response: not JSON`. */
  readonly kind: string;
  readonly timeoutMs?: number;
  readonly backoff?: Backoff;
  /** Waits between retries; injectable so tests need not sleep. */
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly random?: () => number;
}

export class WebhookCallError extends Error {
  constructor(message: string, readonly retriable = false) {
    super(message);
    this.name = 'WebhookCallError';
  }
}

export class WebhookClient {
  readonly timeoutMs: number;
  readonly #conn: WebhookConnection;
  readonly #kind: string;
  readonly #backoff: Backoff;
  readonly #sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly #random: () => number;
  readonly #agent: http.Agent;
  readonly #url: URL;

  /** Throws (at start-up) on an unparsable CA, certificate or key, or a key that does not match. */
  constructor(o: WebhookClientOptions) {
    this.#conn = o.connection;
    this.#kind = o.kind;
    this.timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#backoff = o.backoff ?? DEFAULT_BACKOFF;
    this.#sleep = o.sleep ?? sleepUnlessAborted;
    this.#random = o.random ?? Math.random;
    const c = o.connection;
    this.#url = new URL(c.server);
    // NewRequest's path.Join("/", base.Path): a trailing slash or a doubled one is not sent.
    this.#url.pathname = goPathClean(`/${this.#url.pathname}`);
    this.#url.search = `?timeout=${formatDuration(this.timeoutMs)}`;
    // NewRESTClient drops the base URL's fragment; Go's url.Error names the URL without it.
    this.#url.hash = '';
    if (c.server.protocol === 'https:') {
      const tls = {
        ...(c.ca ? { ca: c.ca } : {}),
        ...(c.clientCert && c.clientKey ? { cert: c.clientCert, key: c.clientKey } : {}),
      };
      createSecureContext(tls);
      const options = { keepAlive: true, rejectUnauthorized: !c.insecureSkipTlsVerify, ...tls, checkServerIdentity };
      this.#agent = c.proxyUrl ? new ProxyAgent(c.proxyUrl, options) : new https.Agent(options);
    } else {
      this.#agent = new http.Agent({ keepAlive: true });
    }
  }

  close(): void { this.#agent.destroy(); }

  /** POSTs `body` (JSON text) and resolves with the parsed answer; rejects with WebhookCallError. */
  async post(body: string): Promise<unknown> {
    const signal = AbortSignal.timeout(this.timeoutMs);
    const late = () => new WebhookCallError(`webhook did not answer within ${this.timeoutMs}ms`);
    let delay = this.#backoff.initialMs;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#once(body, signal);
      } catch (err) {
        if (signal.aborted) throw late();
        if (!(err instanceof WebhookCallError)) throw new WebhookCallError(`webhook request failed: ${(err as Error).message}`);
        if (!err.retriable || attempt >= this.#backoff.steps) throw err;
      }
      const jittered = delay + delay * this.#backoff.jitter * this.#random();
      delay *= this.#backoff.factor;
      try {
        await this.#sleep(jittered, signal);
      } catch {
        throw late();
      }
    }
  }

  #once(body: string, signal: AbortSignal): Promise<unknown> {
    const c = this.#conn;
    const lib = c.server.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const req = lib.request(this.#url, {
        method: 'POST',
        agent: this.#agent,
        signal,
        ...(c.tlsServerName ? { servername: c.tlsServerName } : {}),
        // A webhook kubeconfig that impersonates does so here too: NewGenericWebhook's REST client
        // wraps its transport as every client-go client's.
        headers: withImpersonation({
          'content-type': 'application/json',
          accept: 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          ...(c.token ? { authorization: `Bearer ${c.token}` } : {}),
        }, c.impersonate),
      }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_RESPONSE_BYTES) { res.destroy(); reject(new WebhookCallError('webhook response too large')); return; }
          chunks.push(chunk);
        });
        res.on('error', (err) => reject(err));
        res.on('end', () => {
          const code = res.statusCode ?? 0;
          if (code < 200 || code > 299) {
            const retriable = code === 429 || code === 500 || code === 504 || res.headers['retry-after'] !== undefined;
            reject(new WebhookCallError(`webhook answered HTTP ${code}`, retriable));
            return;
          }
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
          } catch {
            reject(new WebhookCallError(`malformed ${this.#kind} response: not JSON`));
          }
        });
      });
      // In client-go's words (the webhook's REST client): `Post "<url>": dial tcp <host:port>: connect: connection refused`.
      const ends = trackSocketAddresses(req);
      req.on('error', (err: NodeJS.ErrnoException) => {
        reject(new WebhookCallError(goUrlErrorText('POST', this.#url, Object.assign(err, ends)), err.code === 'ECONNRESET'));
      });
      failOnAbortWhileTunnelling(req, signal, reject);
      req.end(Buffer.from(body)); // the head may hold UTF-8 bytes (impersonation-headers.ts)
    });
  }
}
