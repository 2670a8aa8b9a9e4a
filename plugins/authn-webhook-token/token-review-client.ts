// One TokenReview round trip to the webhook, as upstream's webhook token authenticator makes it:
// POST {apiVersion: authentication.platform/<version>, kind: TokenReview, spec: {token}} and read
// status.authenticated / status.user / status.error from the answer. Transient failures (connection
// reset, 429, 500, 504, or any answer with Retry-After) are retried with upstream's backoff
// (500ms, factor 1.5, jitter 0.2, 5 steps); every other failure ends the review at once. The whole
// review, retries included, is bounded by one timeout (30s, upstream's webhook default).
//
// Error messages never carry the token or the response body (a webhook may echo the token).
import https from 'node:https';
import http from 'node:http';
import { createSecureContext } from 'node:tls';
import type { UserInfo } from '../../core/authn/user.js';
import type { WebhookConnection } from '../../core/client/kubeconfig.js';

export const TOKEN_REVIEW_GROUP = 'authentication.platform';
export const WEBHOOK_VERSIONS = ['v1', 'v1beta1'] as const;
export type WebhookVersion = (typeof WEBHOOK_VERSIONS)[number];

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

export type ReviewResult =
  | { readonly authenticated: true; readonly user: UserInfo }
  | { readonly authenticated: false; readonly error?: string };

export interface TokenReviewClientOptions {
  readonly connection: WebhookConnection;
  readonly version: WebhookVersion;
  readonly timeoutMs?: number;
  readonly backoff?: Backoff;
  /** Waits between retries; injectable so tests need not sleep. */
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly random?: () => number;
}

export class TokenReviewError extends Error {
  constructor(message: string, readonly retriable = false) {
    super(message);
    this.name = 'TokenReviewError';
  }
}

const defaultSleep = (ms: number, signal: AbortSignal): Promise<void> => new Promise((resolve, reject) => {
  if (signal.aborted) return reject(signal.reason);
  const timer = setTimeout(() => { signal.removeEventListener('abort', onAbort); resolve(); }, ms);
  const onAbort = () => { clearTimeout(timer); reject(signal.reason); };
  signal.addEventListener('abort', onAbort, { once: true });
});

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');

/** Reads a TokenReview answer; throws TokenReviewError for anything not shaped like one. */
export function parseReview(body: unknown, apiVersion: string): ReviewResult {
  const bad = (why: string) => new TokenReviewError(`malformed TokenReview response: ${why}`);
  if (!isObj(body)) throw bad('not a JSON object');
  if (body['kind'] !== 'TokenReview') throw bad(`kind is ${JSON.stringify(body['kind'] ?? null)}, expected "TokenReview"`);
  if (body['apiVersion'] !== apiVersion) throw bad(`apiVersion is ${JSON.stringify(body['apiVersion'] ?? null)}, expected "${apiVersion}"`);
  const status = body['status'];
  if (status === undefined || status === null) return { authenticated: false };
  if (!isObj(status)) throw bad('status is not an object');
  const error = status['error'];
  if (error !== undefined && typeof error !== 'string') throw bad('status.error is not a string');
  const authenticated = status['authenticated'];
  if (authenticated !== undefined && typeof authenticated !== 'boolean') throw bad('status.authenticated is not a boolean');
  if (authenticated !== true) return error ? { authenticated: false, error } : { authenticated: false };

  const u = status['user'];
  if (!isObj(u)) throw bad('status.user is missing');
  const name = u['username'];
  // Upstream would accept an empty username; a user without a name is refused here (fail closed).
  if (typeof name !== 'string' || name === '') throw bad('status.user.username is missing');
  const uid = u['uid'];
  if (uid !== undefined && typeof uid !== 'string') throw bad('status.user.uid is not a string');
  const groups = u['groups'] ?? [];
  if (!isStrings(groups)) throw bad('status.user.groups is not a list of strings');
  const extraIn = u['extra'] ?? {};
  if (!isObj(extraIn)) throw bad('status.user.extra is not an object');
  const extra: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(extraIn)) {
    if (v === null) continue;
    if (!isStrings(v)) throw bad(`status.user.extra[${JSON.stringify(k)}] is not a list of strings`);
    extra[k] = [...v];
  }
  return {
    authenticated: true,
    user: {
      name,
      ...(uid ? { uid } : {}),
      groups: [...groups],
      ...(Object.keys(extra).length > 0 ? { extra } : {}),
    },
  };
}

export class TokenReviewClient {
  readonly apiVersion: string;
  readonly #conn: WebhookConnection;
  readonly #timeoutMs: number;
  readonly #backoff: Backoff;
  readonly #sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly #random: () => number;
  readonly #agent: http.Agent;

  constructor(o: TokenReviewClientOptions) {
    this.apiVersion = `${TOKEN_REVIEW_GROUP}/${o.version}`;
    this.#conn = o.connection;
    this.#timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#backoff = o.backoff ?? DEFAULT_BACKOFF;
    this.#sleep = o.sleep ?? defaultSleep;
    this.#random = o.random ?? Math.random;
    const c = o.connection;
    if (c.server.protocol === 'https:') {
      const tls = {
        ...(c.ca ? { ca: c.ca } : {}),
        ...(c.clientCert && c.clientKey ? { cert: c.clientCert, key: c.clientKey } : {}),
      };
      // Fails now (start-up) on an unparsable CA, certificate or key, or a key that does not match.
      createSecureContext(tls);
      this.#agent = new https.Agent({ keepAlive: true, rejectUnauthorized: !c.insecureSkipTlsVerify, ...tls });
    } else {
      this.#agent = new http.Agent({ keepAlive: true });
    }
  }

  close(): void { this.#agent.destroy(); }

  /** Reviews `token`: resolves with the webhook's verdict, rejects with TokenReviewError. */
  async review(token: string): Promise<ReviewResult> {
    const body = JSON.stringify({ apiVersion: this.apiVersion, kind: 'TokenReview', spec: { token } });
    const signal = AbortSignal.timeout(this.#timeoutMs);
    let delay = this.#backoff.initialMs;
    for (let attempt = 1; ; attempt++) {
      try {
        return parseReview(await this.#post(body, signal), this.apiVersion);
      } catch (err) {
        if (signal.aborted) throw new TokenReviewError(`webhook did not answer within ${this.#timeoutMs}ms`);
        if (!(err instanceof TokenReviewError)) throw new TokenReviewError(`webhook request failed: ${(err as Error).message}`);
        if (!err.retriable || attempt >= this.#backoff.steps) throw err;
      }
      const jittered = delay + delay * this.#backoff.jitter * this.#random();
      delay *= this.#backoff.factor;
      try {
        await this.#sleep(jittered, signal);
      } catch {
        throw new TokenReviewError(`webhook did not answer within ${this.#timeoutMs}ms`);
      }
    }
  }

  #post(body: string, signal: AbortSignal): Promise<unknown> {
    const c = this.#conn;
    const lib = c.server.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const req = lib.request(c.server, {
        method: 'POST',
        agent: this.#agent,
        signal,
        ...(c.tlsServerName ? { servername: c.tlsServerName } : {}),
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          ...(c.token ? { authorization: `Bearer ${c.token}` } : {}),
        },
      }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_RESPONSE_BYTES) { res.destroy(); reject(new TokenReviewError('webhook response too large')); return; }
          chunks.push(chunk);
        });
        res.on('error', (err) => reject(err));
        res.on('end', () => {
          const code = res.statusCode ?? 0;
          if (code < 200 || code > 299) {
            const retriable = code === 429 || code === 500 || code === 504 || res.headers['retry-after'] !== undefined;
            reject(new TokenReviewError(`webhook answered HTTP ${code}`, retriable));
            return;
          }
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
          } catch {
            reject(new TokenReviewError('malformed TokenReview response: not JSON'));
          }
        });
      });
      req.on('error', (err: NodeJS.ErrnoException) => {
        const retriable = err.code === 'ECONNRESET';
        reject(new TokenReviewError(`webhook request failed: ${err.message}`, retriable));
      });
      req.end(body);
    });
  }
}
