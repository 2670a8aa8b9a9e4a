// A small REST client for plat's API (client-go's role): JSON requests over a keep-alive HTTPS
// agent with the connection's credentials (and its impersonation), client-side rate limiting (--plat-api-qps/-burst), a
// Status error for every non-2xx answer, and watches as an async stream of events.
import http from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';
import type { ApiObject } from '../api/meta.js';
import type { RestClientMetrics } from '../metrics/rest-client.js';
import type { Logger } from '../log.js';
import type { ClientConnection } from './connection.js';
import { certificateChanged, type Credential, type CredentialSource } from './credential-source.js';
import { failOnAbortWhileTunnelling, ProxyAgent } from './proxy-connect.js';
import { transportTlsOptions } from './transport-tls.js';
import { HandshakeLimitedAgent } from './tls-handshake-timeout.js';
import { MAX_TIMER_MS } from '../long-timeout.js';
import { trackSocketAddresses } from './socket-addresses.js';
import { resourceNameError } from './resource-name.js';
import { withTlsVerifyReason } from './tls-verify-error.js';
import { logThrottle } from './throttle-log.js';
import { TokenBucket } from './token-bucket.js';
import { warningTexts } from './warning-header.js';
import { withImpersonation } from './impersonation-headers.js';
import { sleep, sleepUnlessAborted } from '../abort-wait.js';
import { formatDuration } from '../flags/duration.js';
import { requestDeadline } from './request-deadline.js';
import { answerRetryWait, isLostConnection, MAX_RETRIES } from './request-retry.js';
import { responseError } from './response-error.js';
import { watchEvents, type WatchEvent } from './watch-events.js';
import { FencedWriteError, isMutating, type WriteFence } from './write-fence.js';

export interface ResourceRef {
  readonly group: string;
  readonly version: string;
  readonly plural: string;
  readonly namespace?: string;
  /** The kind of its objects, for log lines that name the type (`*v1.CertificateSigningRequest`). */
  readonly kind?: string;
}

/** A non-2xx answer: the Status the server sent (or a synthesised one). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(readonly code: number, readonly reason: string, message: string, readonly body?: unknown) { super(message); }
}

export const isApiError = (e: unknown, reason?: string): e is ApiError => e instanceof ApiError && (reason === undefined || e.reason === reason);

export interface RequestOptions {
  readonly body?: unknown;
  readonly contentType?: string;
  readonly query?: Record<string, string | number | boolean | undefined>;
  readonly signal?: AbortSignal;
  readonly headers?: Record<string, string>;
  /**
   * This request's timeout instead of the client's (client-go's Request.Timeout, which a client
   * built with its own rest.Config Timeout gives every request): bounds it, retries included, and
   * is sent as the `timeout` parameter.
   */
  readonly timeoutMs?: number;
  /** Not held back by the client's rate limit, as a request of a client-go client whose QPS is -1. */
  readonly unthrottled?: boolean;
}

export interface RestClientOptions {
  readonly qps?: number;
  readonly burst?: number;
  readonly userAgent?: string;
  /**
   * A timeout of the caller's for non-watch requests (client-go's rest.Config Timeout, kubectl's
   * --request-timeout): it bounds each request with its retries, and is sent as the `timeout`
   * parameter; 0 for none. Without one, a request whose connection is silent for 30s is given up.
   */
  readonly timeoutMs?: number;
  /** How long a watch may receive nothing before it is presumed dead (default WATCH_IDLE_TIMEOUT_MS). */
  readonly watchIdleTimeoutMs?: number;
  /**
   * Bearer tokens that change (client-go's ResettableTokenSource): asked before every request,
   * reset when the server answers 401 so that the next request gets a fresh one.
   */
  readonly tokenSource?: TokenSource;
  /** Called with the text of each `Warning` header of an answer (kubectl prints them as `Warning: <text>`). */
  readonly onWarning?: (text: string) => void;
  /** client-go's rest_client_* metrics of every request (core/metrics/rest-client.ts). */
  readonly metrics?: RestClientMetrics;
  /** For client-go's V(4) line before each retry. */
  readonly logger?: Logger;
  /**
   * Asked just before each mutating request goes out (write-fence.ts): a refusal fails it with
   * FencedWriteError, unsent. The controllers' clients under --leader-elect carry one.
   */
  readonly fence?: WriteFence;
}

/**
 * A watch that receives nothing, not even the bookmark a server sends every minute once its store
 * has moved since the watch began (plat's every 60s; a controller manager's own lease renewals
 * move it every few seconds), for this long is presumed dead: its server vanished without closing
 * the connection (power loss, partition), which otherwise only TCP keepalive notices, after about
 * 11 minutes. client-go's HTTP/2 health check (30s read idle, 15s ping) does the same for upstream.
 * The watch then ends as one whose connection broke (its caller watches again from the last
 * version it saw): a store nothing at all writes to gives no bookmarks, and its watches end so too.
 */
export const WATCH_IDLE_TIMEOUT_MS = 150_000;

export interface TokenSource {
  token(): Promise<string>;
  reset(): void;
}

export function resourcePath(r: ResourceRef, name?: string, subresource?: string): string {
  const base = r.group ? `/apis/${r.group}/${r.version}` : `/api/${r.version}`;
  const ns = r.namespace ? `/namespaces/${encodeURIComponent(r.namespace)}` : '';
  return `${base}${ns}/${r.plural}${name ? `/${encodeURIComponent(name)}` : ''}${subresource ? `/${subresource}` : ''}`;
}

/** The path of one named object; as client-go's Request.Name, a name that is no path segment is refused unsent. */
export function objectPath(r: ResourceRef, name: string, subresource?: string): string {
  const invalid = resourceNameError(name);
  if (invalid !== undefined) throw new InvalidResourceNameError(invalid);
  return resourcePath(r, name, subresource);
}

export class InvalidResourceNameError extends Error {
  override readonly name = 'InvalidResourceNameError';
}

export interface List<T extends ApiObject> { metadata: { resourceVersion?: string; continue?: string }; items: T[] }

/**
 * The URL of an API path on `server`: as client-go, the path goes after the server's own path
 * (`https://host/prefix` serves `/prefix/apis/...`, behind a proxy that routes by prefix), where
 * `new URL(path, server)` would drop the prefix. `path` may carry a query.
 */
export function apiUrl(server: URL, path: string): URL {
  const rel = new URL(path, 'http://path.invalid');
  const u = new URL(server);
  u.pathname = u.pathname.replace(/\/+$/, '') + rel.pathname;
  u.search = rel.search;
  u.hash = '';
  return u;
}

/** Keep-alive connections opened by `dial` (connection.ts) instead of TCP and TLS. */
class DialAgent extends http.Agent {
  constructor(private readonly dial: () => Duplex) {
    super({ keepAlive: true, maxSockets: 32 });
  }

  // The callback form, so that a dial that throws fails the request instead of its caller.
  override createConnection(_o: http.ClientRequestArgs, cb?: (err: Error | null, stream: Duplex) => void): undefined {
    let socket: Duplex;
    try {
      socket = this.dial();
    } catch (e) {
      cb?.(e as Error, undefined as never);
      return undefined;
    }
    cb?.(null, socket);
    return undefined;
  }
}

export class RestClient {
  #agent: http.Agent;
  #connection: ClientConnection;
  readonly #limiter: TokenBucket | undefined;
  /** Stops following the connection's client certificate files. */
  #unfollow: (() => void) | undefined;
  constructor(connection: ClientConnection, private readonly opts: RestClientOptions = {}) {
    this.#connection = connection;
    this.#agent = RestClient.#agentFor(connection);
    this.#unfollow = connection.clientCertFiles?.subscribe((pair) => {
      // A certificate from the credentials (an exec plugin's) is presented instead of the files'.
      if (this.#presented.cert) return;
      this.#replaceAgent({ ...this.#connection, clientCert: pair.cert, clientKey: pair.key });
    }, opts.logger);
    // qps <= 0 means no client-side limit, as client-go's -1.
    this.#limiter = (opts.qps ?? 0) > 0 ? new TokenBucket(opts.qps!, Math.max(1, opts.burst ?? 1)) : undefined;
  }

  get connection(): ClientConnection { return this.#connection; }

  /**
   * Presents another client certificate from now on (a rotated one): new requests use it and the
   * old connections are closed, as client-go's transport closes them on rotation.
   */
  setClientCertificate(cert: Buffer | string, key: Buffer | string): void {
    this.#unfollow?.();
    this.#unfollow = undefined;
    const { clientCertFiles: _files, ...rest } = this.#connection;
    this.#replaceAgent({ ...rest, clientCert: cert, clientKey: key });
  }

  #replaceAgent(connection: ClientConnection): void {
    const old = this.#agent;
    this.#connection = connection;
    this.#agent = RestClient.#agentFor(connection);
    old.destroy();
  }

  /** The client certificate the connection's credentials last gave (an exec plugin's), which the agent presents. */
  #presented: Credential = {};

  /**
   * The connection's credential for one request; a failure fails the request as client-go's round
   * tripper fails it (`getting credentials: ...` inside the url.Error). A new client certificate
   * rebuilds the agent, closing the old connections (the exec authenticator's connTracker.CloseAll).
   */
  async #credential(source: CredentialSource, method: string, url: URL): Promise<Credential> {
    let c: Credential;
    try {
      c = await source.get();
    } catch (e) {
      throw Object.assign(new Error((e as Error).message), { url: url.href, method });
    }
    if (certificateChanged(this.#presented, c)) {
      const { clientCert: _c, clientKey: _k, ...rest } = this.#connection;
      this.#replaceAgent(c.cert && c.key ? { ...rest, clientCert: c.cert, clientKey: c.key } : rest);
      this.#presented = c.cert && c.key ? { cert: c.cert, key: c.key } : {};
    }
    return c;
  }

  static #agentFor(c: ClientConnection): http.Agent {
    if (c.dial) return new DialAgent(c.dial);
    // A kubeconfig may name a plain-HTTP server on a loopback host (kubeconfig.ts), as kubectl's may.
    if (c.server.protocol === 'http:') return new http.Agent({ keepAlive: true, maxSockets: 32 });
    const options: https.AgentOptions = { keepAlive: true, maxSockets: 32, ...transportTlsOptions(c) };
    return c.proxyUrl ? new ProxyAgent(c.proxyUrl, options) : new HandshakeLimitedAgent(options);
  }

  close(): void {
    this.#unfollow?.();
    this.#unfollow = undefined;
    this.#agent.destroy();
  }

  #url(path: string, query: RequestOptions['query']): URL {
    const u = apiUrl(this.#connection.server, path);
    // Over a dialled connection the same requests travel as plain HTTP (connection.ts).
    if (this.#connection.dial) u.protocol = 'http:';
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) u.searchParams.set(k, String(v));
    // Go's url.Values.Encode orders the parameters by name; the throttling lines show them so.
    u.searchParams.sort();
    return u;
  }

  async #open(method: string, url: URL, o: RequestOptions, timeoutMs: number | undefined): Promise<import('node:http').IncomingMessage> {
    const payload = o.body === undefined ? undefined : typeof o.body === 'string' ? o.body : JSON.stringify(o.body);
    const source = this.opts.tokenSource;
    const token = source ? await source.token() : this.#connection.token;
    // A new client certificate in the files replaces the agent before this request takes one.
    if (this.#unfollow) this.#connection.clientCertFiles?.checkIfStale();
    // Most connections (the controllers', the node agent's) have fixed credentials: no wait for them.
    const credential = this.#connection.credentials === undefined ? undefined : await this.#credential(this.#connection.credentials, method, url).catch((e: unknown) => {
      this.opts.metrics?.result('<error>', method, this.#connection.server.host);
      throw e;
    });
    const authorization = credential?.authorization ?? (token ? `Bearer ${token}` : undefined);
    const fence = this.opts.fence && isMutating(method) ? this.opts.fence : undefined;
    // Asked again once a socket is ours (one may be waited for behind others): the last moment
    // before the request's first byte is written.
    const refused = fence?.refusal();
    if (refused !== undefined) {
      this.opts.metrics?.result('<error>', method, this.#connection.server.host);
      throw new FencedWriteError(method, url.href, refused);
    }
    const res = await new Promise<import('node:http').IncomingMessage>((resolve, reject) => {
      const req = (url.protocol === 'http:' ? http : https).request(url, {
        method, agent: this.#agent,
        headers: withImpersonation({
          accept: 'application/json',
          'user-agent': this.opts.userAgent ?? 'plat',
          ...(payload !== undefined ? { 'content-type': o.contentType ?? 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
          ...(authorization ? { authorization } : {}),
          ...o.headers,
        }, this.#connection.impersonate),
        ...(o.signal ? { signal: o.signal } : {}),
        // A socket's idle timer overflows as any timer does (a 1 ms idle timeout); one that long is none.
        ...(timeoutMs && timeoutMs <= MAX_TIMER_MS ? { timeout: timeoutMs } : {}),
      }, resolve);
      // Still connecting when the connection has been silent this long: client-go's dialer (30s)
      // would have given up on the dial (`dial tcp <host:port>: i/o timeout`).
      req.on('timeout', () => req.destroy(req.socket?.connecting
        ? Object.assign(new Error(`connect ETIMEDOUT ${url.host}`), { code: 'ETIMEDOUT', syscall: 'connect' })
        : new Error(`request timed out after ${timeoutMs}ms`)));
      failOnAbortWhileTunnelling(req, o.signal, (e) => reject(Object.assign(e, { url: url.href, method })));
      // As Go's url.Error, a failed request names the method and URL it went to: kubectl's words for
      // a refused connection name the kubeconfig's host, not the address it resolved to; a
      // connection that broke once made names its two ends, as Go's net.OpError.
      const ends = trackSocketAddresses(req);
      // Whether the request had gone out whole when it failed (an abort while its answer was
      // awaited): the server may have acted on it, and a caller must not say it was not sent.
      let sent = false;
      req.once('finish', () => { sent = true; });
      req.on('error', (e) => reject(Object.assign(withTlsVerifyReason(e), { url: url.href, method }, ends, sent ? { requestSent: true } : {})));
      // A Buffer: the head may hold UTF-8 bytes (impersonation-headers.ts) a string body would garble.
      const body = payload === undefined ? undefined : Buffer.from(payload);
      // Nothing of a request (its head included) is written before end(): a fenced one waits for
      // its socket, and is destroyed there, unsent, when the fence has closed meanwhile.
      if (!fence) req.end(body);
      else {
        req.once('socket', () => {
          const reason = fence.refusal();
          if (reason === undefined) req.end(body);
          else req.destroy(new FencedWriteError(method, url.href, reason));
        });
      }
    }).catch((e: unknown) => {
      this.opts.metrics?.result('<error>', method, this.#connection.server.host);
      throw e;
    });
    this.opts.metrics?.result(res.statusCode ?? 0, method, this.#connection.server.host);
    if (source && res.statusCode === 401) source.reset();
    if (credential && res.statusCode === 401) await this.#connection.credentials!.unauthorized(credential);
    return res;
  }

  async request<T = unknown>(method: string, path: string, o: RequestOptions = {}): Promise<T> {
    const metrics = this.opts.metrics;
    if (!metrics) return this.#request<T>(method, path, o);
    const started = performance.now();
    try {
      return await this.#request<T>(method, path, o);
    } finally {
      metrics.latency(method, this.#connection.server.host, (performance.now() - started) / 1000);
    }
  }

  async #request<T>(method: string, path: string, o: RequestOptions): Promise<T> {
    // The first token is taken before the timeout starts, as client-go's: a throttled client
    // should not time out a request it has not sent.
    const waited = o.unthrottled ? undefined : await this.#throttle(o.signal);
    const timeoutMs = o.timeoutMs ?? this.opts.timeoutMs;
    const deadline = requestDeadline(timeoutMs, o.signal);
    const query = deadline ? { ...o.query, timeout: formatDuration(deadline.ms) } : o.query;
    const url = this.#url(path, query);
    if (waited !== undefined) logThrottle(this.opts.logger, waited, method, url.href);
    const signal = deadline?.signal ?? o.signal;
    const attemptOptions = signal ? { ...o, signal } : o;
    // Without a timeout of the caller's, a connection silent this long is given up.
    const idleMs = timeoutMs === undefined ? 30_000 : undefined;
    try {
      const res = await this.#openRetrying(method, url, attemptOptions, idleMs, method === 'GET');
      const code = res.statusCode ?? 0;
      let text: string;
      try {
        text = await readBody(res);
      } catch (e) {
        throw new Error(`unexpected error when reading response body. Please retry. Original error: ${deadline?.expired() ? 'context deadline exceeded' : 'unexpected EOF'}`, { cause: e });
      }
      if (this.opts.onWarning) for (const w of warningTexts(res.headersDistinct['warning'])) this.opts.onWarning(w);
      if (code < 200 || code > 299) {
        const err = responseError(code, res.headers['content-type'], text, method, path);
        throw new ApiError(code, err.reason, err.message, err.body);
      }
      let json: unknown;
      try { json = text ? JSON.parse(text) : undefined; } catch { json = undefined; }
      return json as T;
    } catch (e) {
      if (deadline?.expired()) throw Object.assign(deadline.error(url), { method });
      throw e;
    } finally {
      deadline?.clear();
    }
  }

  /** Waits for a token of the client's rate limit; how long it waited (ms), undefined without a limit. */
  async #throttle(signal: AbortSignal | undefined): Promise<number | undefined> {
    if (!this.#limiter) return undefined;
    const started = performance.now();
    await this.#limiter.wait(signal);
    return performance.now() - started;
  }

  /**
   * One request as client-go's withRetry sends it: an answer that asks for a retry (429, or 5xx
   * with Retry-After) is waited for and sent again, and so is a lost connection when `retryLost`
   * (a GET: writes may have landed), up to MAX_RETRIES times; then the last answer or error stands.
   */
  async #openRetrying(method: string, url: URL, o: RequestOptions, idleMs: number | undefined, retryLost: boolean): Promise<http.IncomingMessage> {
    for (let retries = 0; ; retries++) {
      let res: http.IncomingMessage;
      try {
        res = await this.#open(method, url, o, idleMs);
      } catch (e) {
        if (!retryLost || !isLostConnection(e) || o.signal?.aborted || retries >= MAX_RETRIES) throw e;
        await this.#beforeRetry(method, 1, o, retries + 1, url, `retries: ${retries + 1}, retry-after: 1s - retry-reason: due to retryable error, error: ${(e as Error).message}`);
        continue;
      }
      const code = res.statusCode ?? 0;
      const wait = code >= 200 && code <= 299 ? undefined : answerRetryWait(code, res.headers);
      if (wait === undefined || retries >= MAX_RETRIES) return res;
      discard(res);
      await this.#beforeRetry(method, wait, o, retries + 1, url, retryReason(retries + 1, wait, code, res.headers['x-kubernetes-pf-flowschema-uid']));
    }
  }

  /**
   * client-go's withRetry.Before: wait as the server asked (abortable), then take a token again
   * (a watch's too: only its first attempt skips the limit), then say so.
   */
  async #beforeRetry(method: string, seconds: number, o: RequestOptions, attempt: number, url: URL, reason: string): Promise<void> {
    const signal = o.signal;
    if (seconds > 0) {
      if (signal) await sleepUnlessAborted(seconds * 1000, signal);
      else await sleep(seconds * 1000);
    }
    if (signal?.aborted) throw signal.reason;
    const waited = o.unthrottled ? undefined : await this.#throttle(signal);
    if (waited !== undefined) logThrottle(this.opts.logger, waited, method, url.href, reason);
    this.opts.logger?.v(4).info(`Got a Retry-After ${formatDuration(seconds * 1000)} response for attempt ${attempt} to ${url.href}`);
  }

  async get<T extends ApiObject>(r: ResourceRef, name: string, subresource?: string, o: { signal?: AbortSignal } = {}): Promise<T> {
    return this.request<T>('GET', objectPath(r, name, subresource), o);
  }
  list<T extends ApiObject>(r: ResourceRef, query: RequestOptions['query'] = {}, o: { signal?: AbortSignal } = {}): Promise<List<T>> {
    return this.request<List<T>>('GET', resourcePath(r), { query, ...o });
  }
  async create<T extends ApiObject>(r: ResourceRef, obj: T, subresource?: string, name?: string, o: { signal?: AbortSignal } = {}): Promise<T> {
    return this.request<T>('POST', name === undefined ? resourcePath(r, name, subresource) : objectPath(r, name, subresource), { body: obj, ...o });
  }
  async update<T extends ApiObject>(r: ResourceRef, obj: T, subresource?: string, o: { signal?: AbortSignal } = {}): Promise<T> {
    return this.request<T>('PUT', objectPath(r, obj.metadata.name ?? '', subresource), { body: obj, ...o });
  }
  async patch<T extends ApiObject>(r: ResourceRef, name: string, patch: unknown, type = 'application/merge-patch+json', subresource?: string): Promise<T> {
    return this.request<T>('PATCH', objectPath(r, name, subresource), { body: patch, contentType: type });
  }
  async delete(r: ResourceRef, name: string, body?: unknown, o: { signal?: AbortSignal } = {}): Promise<unknown> {
    return this.request('DELETE', objectPath(r, name), body === undefined ? o : { body, ...o });
  }

  /**
   * A watch from `resourceVersion`; ends when the server closes it, its connection breaks (as
   * client-go's StreamWatcher, a reset or EOF is a plain end: the caller watches again from the last
   * version), it receives nothing for the idle timeout (a plain end too) or `signal` aborts.
   * Opening it is retried as a request is (a lost connection, a 429 or 5xx with Retry-After); a
   * connection still lost after the last retry is an empty watch.
   */
  async *watch<T extends ApiObject>(r: ResourceRef, o: { resourceVersion?: string; timeoutSeconds?: number; fieldSelector?: string; labelSelector?: string; signal?: AbortSignal; headers?: Record<string, string> } = {}): AsyncGenerator<WatchEvent<T>> {
    // Not rate limited (client-go's Request.Watch: "We specifically don't want to rate limit
    // watches"): a watch that waited behind lists would leave the cache stale for as long.
    const path = resourcePath(r);
    const url = this.#url(path, {
      watch: 'true', allowWatchBookmarks: 'true', resourceVersion: o.resourceVersion, timeoutSeconds: o.timeoutSeconds,
      fieldSelector: o.fieldSelector, labelSelector: o.labelSelector,
    });
    let res: http.IncomingMessage;
    try {
      res = await this.#openRetrying('GET', url, { ...(o.signal ? { signal: o.signal } : {}), ...(o.headers ? { headers: o.headers } : {}) }, undefined, true);
    } catch (e) {
      if (!isLostConnection(e) || o.signal?.aborted) throw e;
      return; // still lost after the last retry: an empty watch, as client-go's NewEmptyWatch
    }
    const code = res.statusCode ?? 0;
    if (code !== 200) {
      const err = responseError(code, res.headers['content-type'], await readBody(res), 'GET', path);
      throw new ApiError(code, err.reason, err.message, err.body);
    }
    // An in-process connection (dial) has no network to lose it silently: a watch of a quiet store,
    // which gets no bookmarks, would be torn down every 150 s for nothing.
    const idleMs = this.#connection.dial ? 0 : this.opts.watchIdleTimeoutMs ?? WATCH_IDLE_TIMEOUT_MS;
    const idle = new Error(`watch received nothing for ${idleMs / 1000}s (not even a bookmark): the connection is presumed dead`);
    if (idleMs > 0) res.setTimeout(idleMs, () => res.destroy(idle));
    try {
      yield* watchEvents<T>(res);
    } catch (e) {
      // A connection presumed dead ends the watch as one that broke: its caller watches again from
      // the last version it saw, and a server that is gone fails that. The store may only have
      // been quiet (no bookmarks), so this is no warning.
      if (e === idle && !o.signal?.aborted) {
        this.opts.logger?.v(2).info(`${idle.message}; the watch of ${path} ends, to be opened again`);
        return;
      }
      if (!isLostConnection(e) || o.signal?.aborted) throw e;
    } finally {
      res.destroy();
    }
  }
}

/** The whole body of an answer. */
async function readBody(res: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of res) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * client-go's readAndCloseResponseBody before a retry: a small body is read to its end so that the
 * connection can carry the next attempt; a large one is not worth it, and the connection is closed.
 */
function discard(res: http.IncomingMessage): void {
  if (Number(res.headers['content-length'] ?? -1) > MAX_DRAINED_BYTES) { res.destroy(); return; }
  let read = 0;
  res.on('data', (c: Buffer) => { read += c.length; if (read > MAX_DRAINED_BYTES) res.destroy(); });
  res.on('error', () => {});
}

/** withRetry's getRetryReason. */
function retryReason(attempt: number, seconds: number, code: number, flowSchemaUid: string | string[] | undefined): string {
  const message = `retries: ${attempt}, retry-after: ${seconds}s`;
  if (code === 429) return `${message} - retry-reason: due to server-side throttling, FlowSchema UID: ${JSON.stringify(typeof flowSchemaUid === 'string' ? flowSchemaUid : flowSchemaUid?.[0] ?? '')}`;
  return `${message} - retry-reason: ${code}`;
}

/** client-go's maxBodySlurpSize. */
const MAX_DRAINED_BYTES = 2 << 10;
