// One JSON round trip to a webhook (token review, subject access review), as upstream's generic
// webhook client makes it: POST the body to the kubeconfig's server URL, read a JSON answer. The
// URL's query is the client's timeout alone (`?timeout=30s`): client-go's Request.URL sends the
// rest.Config Timeout that LoadKubeconfig (30s) or the authorizer's configured timeout sets, and
// builds the query from the request's own parameters, so a query written into the kubeconfig's
// server is not sent; its path is the server's as NewRequest joins it (path.Join: `/authorize/` is
// sent as `/authorize`).
//
// Two layers of retries, as upstream's: each attempt is one client-go Request.Do, bounded by the
// timeout (its r.timeout context), inside which an answer asking for a retry (429 or 5xx with a
// Retry-After of whole seconds) is sent again after that wait, up to 10 times (request-retry.ts).
// Around the attempts, WithExponentialBackoff with DefaultShouldRetry tries a failed attempt again
// when it is a connection reset, an answered error that is InternalError, Timeout or
// TooManyRequests, or one asking for a delay (webhook-should-retry.ts), with upstream's backoff
// (500ms, factor 1.5, jitter 0.2, 5 steps); every other failure, an attempt the timeout ended
// included, ends the call at once. The audit webhook sets its own ShouldRetry (every failure) and
// reads no answer (any 2xx is success): `retryEveryError`, `ignoreAnswer`. The timeout does not bound the attempts together; the caller's
// context does (post's `context`: the request's for the authorizer, the token cache's 30s shared
// lookup for the token webhook), as upstream hands its ctx to the backoff and to every Do.
//
// Errors are client-go's texts, as the callers' log lines and status show them: an answered error
// in the server's Status words or NewGenericServerResponse's (webhook-answer.ts), no answer as Go's
// url.Error (`Post "<url>": dial tcp ...: connect: connection refused`, `Post "<url>": context
// deadline exceeded`), an undecodable body in the decoder's words. They never carry the request (a
// webhook may echo a caller's token back; upstream's text of a text/plain answer is the answer's,
// so such a body is the webhook's own words).
import http from 'node:http';
import https from 'node:https';
import { createSecureContext } from 'node:tls';
import { sleep } from '../abort-wait.js';
import type { WebhookConnection } from './kubeconfig.js';
import { certificateChanged, type Credential } from './credential-source.js';
import { failOnAbortWhileTunnelling, ProxyAgent } from './proxy-connect.js';
import { checkServerIdentity } from './server-identity.js';
import { HandshakeLimitedAgent } from './tls-handshake-timeout.js';
import { goTransportReason } from './go-url-error.js';
import { linkedTimeout } from './linked-abort.js';
import { readAnswer } from './webhook-answer.js';
import { shouldRetryAnswer } from './webhook-should-retry.js';
import { answerRetryWait, RetryAfter, retryAfterSeconds, withRetryAfter } from './request-retry.js';
import { trackSocketAddresses } from './socket-addresses.js';
import { formatDuration } from '../flags/duration.js';
import { goPathClean } from '../go-path-clean.js';
import { withImpersonation } from './impersonation-headers.js';
import type { Logger } from '../log.js';
import { CANCELED, DEADLINE_EXCEEDED } from '../server/request-signal.js';

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
  /** Bounds each attempt (one Do, its Retry-After retries included), not the call. */
  readonly timeoutMs?: number;
  /**
   * The timeout is the REST client's own (http.Client.Timeout, the authorization webhook's) rather
   * than the caller's context (the token webhook's): Go then says `(Client.Timeout exceeded while
   * awaiting headers)` after `context deadline exceeded`.
   */
  readonly clientTimeout?: boolean;
  readonly backoff?: Backoff;
  /** Gets client-go's `Got a Retry-After ...` line (V(4)) before a retry within an attempt. */
  readonly logger?: Logger;
  /** The backoff's waits between attempts (ending early when the caller's context ends); injectable so tests need not sleep. */
  readonly sleep?: (ms: number, context?: AbortSignal) => Promise<void>;
  readonly random?: () => number;
  /** Every failed attempt is tried again (the audit webhook's retryOnError), not only what DefaultShouldRetry retries. */
  readonly retryEveryError?: boolean;
  /** Any 2xx answer is success, its body not read (the audit webhook's `Do(ctx).Error()`). */
  readonly ignoreAnswer?: boolean;
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
  readonly #deadlineText: string;
  readonly #backoff: Backoff;
  readonly #sleep: (ms: number, context?: AbortSignal) => Promise<void>;
  readonly #random: () => number;
  #agent: http.Agent;
  /** The client certificate of the connection's credentials (an exec plugin's) that the agent presents. */
  #presented: Credential = {};
  readonly #url: URL;
  readonly #logger: Logger | undefined;
  readonly #retryEveryError: boolean;
  readonly #ignoreAnswer: boolean;

  /** Throws (at start-up) on an unparsable CA, certificate or key, or a key that does not match. */
  constructor(o: WebhookClientOptions) {
    this.#conn = o.connection;
    this.timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#backoff = o.backoff ?? DEFAULT_BACKOFF;
    this.#sleep = o.sleep ?? ((ms, context) => sleep(ms, context));
    this.#random = o.random ?? Math.random;
    this.#logger = o.logger;
    this.#retryEveryError = o.retryEveryError ?? false;
    this.#ignoreAnswer = o.ignoreAnswer ?? false;
    const c = o.connection;
    this.#url = new URL(c.server);
    // NewRequest's path.Join("/", base.Path): a trailing slash or a doubled one is not sent.
    this.#url.pathname = goPathClean(`/${this.#url.pathname}`);
    this.#url.search = `?timeout=${formatDuration(this.timeoutMs)}`;
    // NewRESTClient drops the base URL's fragment; Go's url.Error names the URL without it.
    this.#url.hash = '';
    this.#deadlineText = `${this.#shown}: context deadline exceeded${o.clientTimeout ? ' (Client.Timeout exceeded while awaiting headers)' : ''}`;
    this.#agent = WebhookClient.#agentFor(c, c.clientCert, c.clientKey);
    this.#unfollow = c.clientCertFiles?.subscribe((pair) => {
      // A certificate from the credentials (an exec plugin's) is presented instead of the files'.
      if (this.#presented.cert) return;
      const old = this.#agent;
      this.#agent = WebhookClient.#agentFor(c, pair.cert, pair.key);
      old.destroy();
    }, o.logger);
  }

  /** Stops following the kubeconfig's client certificate files. */
  #unfollow: (() => void) | undefined;

  static #agentFor(c: WebhookConnection, cert: Buffer | undefined, key: Buffer | undefined): http.Agent {
    if (c.server.protocol !== 'https:') return new http.Agent({ keepAlive: true });
    const tls = { ...(c.ca ? { ca: c.ca } : {}), ...(cert && key ? { cert, key } : {}) };
    createSecureContext(tls);
    const options = { keepAlive: true, rejectUnauthorized: !c.insecureSkipTlsVerify, ...tls, checkServerIdentity };
    return c.proxyUrl ? new ProxyAgent(c.proxyUrl, options) : new HandshakeLimitedAgent(options);
  }

  /**
   * The connection's credential for one attempt (a failure ends the call, as client-go's round
   * tripper's `getting credentials` error does); a new client certificate replaces the agent.
   */
  async #credential(): Promise<Credential | undefined> {
    const source = this.#conn.credentials;
    if (!source) return undefined;
    let c: Credential;
    try {
      c = await source.get();
    } catch (e) {
      throw new WebhookCallError(`${this.#shown}: ${(e as Error).message}`);
    }
    if (certificateChanged(this.#presented, c)) {
      const old = this.#agent;
      this.#agent = WebhookClient.#agentFor(this.#conn, c.cert, c.key);
      this.#presented = c.cert && c.key ? { cert: c.cert, key: c.key } : {};
      old.destroy();
    }
    return c;
  }

  close(): void {
    this.#unfollow?.();
    this.#unfollow = undefined;
    this.#agent.destroy();
  }

  /** The attempt's timeout ended it: never retried (DefaultShouldRetry knows no client-side deadline). */
  #cut(signal: AbortSignal, context: AbortSignal | undefined): WebhookCallError | undefined {
    return signal.aborted ? this.#ended(context) ?? new WebhookCallError(this.#deadlineText) : undefined;
  }

  /** url.Error's `Post "<url>"`. */
  get #shown(): string { return `Post ${JSON.stringify(this.#url.toString())}`; }

  /**
   * POSTs `body` (JSON text) and resolves with the parsed answer; rejects with WebhookCallError.
   * `context`, when given, is the caller's context (upstream's ctx of WithExponentialBackoff and
   * each Do): its end cuts the attempt under way with its error and ends a backoff wait with the
   * last attempt's error, as WithExponentialBackoff returns it, so no attempt outlives it.
   */
  async post(body: string, context?: AbortSignal): Promise<unknown> {
    let delay = this.#backoff.initialMs;
    for (let attempt = 1; ; attempt++) {
      let last: WebhookCallError;
      try {
        return await this.#do(body, context);
      } catch (err) {
        if (!(err instanceof WebhookCallError)) throw new WebhookCallError(`webhook request failed: ${(err as Error).message}`);
        if (!(err.retriable || this.#retryEveryError) || attempt >= this.#backoff.steps) throw err;
        last = err;
      }
      const jittered = delay + delay * this.#backoff.jitter * this.#random();
      delay *= this.#backoff.factor;
      await this.#sleep(jittered, context);
      if (context?.aborted) throw last;
    }
  }

  /** The caller's context has ended: ctx.Err()'s text, as client-go's Do fails with it. */
  #ended(context: AbortSignal | undefined): WebhookCallError | undefined {
    if (!context?.aborted) return undefined;
    const reason = context.reason instanceof Error ? context.reason.message : '';
    return new WebhookCallError(`${this.#shown}: ${reason === CANCELED ? CANCELED : DEADLINE_EXCEEDED}`);
  }

  /**
   * One Request.Do: its own timeout, and client-go's Retry-After retries within it. A wait that
   * outlasts the timeout fails as client-go's next attempt on the ended context does, without
   * http.Client's note (its own timer had not run out).
   */
  async #do(body: string, context: AbortSignal | undefined): Promise<unknown> {
    // Not AbortSignal.any([AbortSignal.timeout(...), context]): on Node 20 a collection can take a
    // timeout signal held only there (nodejs/node#57736), and the call then outlived its timeout.
    const linked = context ? linkedTimeout(context, this.timeoutMs) : undefined;
    const signal = linked?.signal ?? AbortSignal.timeout(this.timeoutMs);
    const deadline = Date.now() + this.timeoutMs;
    try {
      return await withRetryAfter((mayRetry) => this.#once(body, signal, mayRetry, context),
        {
          deadline, signal, expired: () => this.#ended(context) ?? new WebhookCallError(`${this.#shown}: ${DEADLINE_EXCEEDED}`),
          retrying: (seconds, attempt) => this.#logger?.v(4).info(`Got a Retry-After ${formatDuration(seconds * 1000)} response for attempt ${attempt} to ${this.#url.href}`),
        });
    } finally {
      linked?.unlink();
    }
  }

  async #once(body: string, signal: AbortSignal, mayRetry: boolean, context: AbortSignal | undefined): Promise<unknown> {
    const c = this.#conn;
    const lib = c.server.protocol === 'https:' ? https : http;
    // A new client certificate in the files replaces the agent before this attempt takes one.
    if (this.#unfollow) c.clientCertFiles?.checkIfStale();
    const credential = await this.#credential();
    const authorization = credential?.authorization ?? (c.token ? `Bearer ${c.token}` : undefined);
    let status = 0;
    const answer = new Promise((resolve, reject) => {
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
          ...(authorization ? { authorization } : {}),
        }, c.impersonate),
      }, (res) => {
        status = res.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_RESPONSE_BYTES) { res.destroy(); reject(new WebhookCallError(`${this.#shown}: response body larger than ${MAX_RESPONSE_BYTES} bytes`)); return; }
          chunks.push(chunk);
        });
        res.on('error', (err: NodeJS.ErrnoException) => reject(this.#cut(signal, context) ?? new WebhookCallError(`${this.#shown}: ${goTransportReason(err, this.#url)}`)));
        res.on('end', () => {
          const wait = mayRetry ? answerRetryWait(res.statusCode ?? 0, res.headers) : undefined;
          if (wait !== undefined) { resolve(new RetryAfter(wait)); return; }
          const code = res.statusCode ?? 0;
          if (this.#ignoreAnswer && code >= 200 && code <= 206) { resolve(undefined); return; }
          const after = retryAfterSeconds(res.headers) ?? 0;
          const answer = readAnswer(res.statusCode ?? 0, res.headers['content-type'], Buffer.concat(chunks), after);
          if (answer.ok) resolve(answer.value);
          else reject(new WebhookCallError(answer.reason, answer.status !== undefined && shouldRetryAnswer(answer.status)));
        });
      });
      // utilnet.IsConnectionReset: a reset (not a server that closed first, Go's EOF) is retried.
      const ends = trackSocketAddresses(req);
      req.on('error', (err: NodeJS.ErrnoException) => {
        const cut = this.#cut(signal, context);
        if (cut) { reject(cut); return; }
        const reason = goTransportReason(Object.assign(err, ends), this.#url);
        reject(new WebhookCallError(`${this.#shown}: ${reason}`, reason.endsWith('connection reset by peer')));
      });
      failOnAbortWhileTunnelling(req, signal, () => reject(this.#cut(signal, context)));
      req.end(Buffer.from(body)); // the head may hold UTF-8 bytes (impersonation-headers.ts)
    });
    try {
      return await answer;
    } finally {
      // client-go's exec round tripper: a 401 runs the plugin again before the next attempt.
      if (credential && status === 401) await this.#conn.credentials!.unauthorized(credential);
    }
  }
}
