// An issuer's signing keys, found through OIDC discovery (`{url}/.well-known/openid-configuration`
// or the configured discoveryURL; its `issuer` must equal the configured URL; then `jwks_uri`).
// Initialised in the background with retries, so a broken issuer neither stops nor delays
// start-up; until then tokens of this issuer are refused ("authenticator not initialized"). Keys
// are cached and fetched again when no cached key verifies a token (a `kid` the cache lacks, no
// kid, or a key replaced under the same kid), as go-oidc's remote key set does, but through a
// RefreshLimiter and one fetch at a time.
import type { KeyObject } from 'node:crypto';
import { importJwk, JwtError } from '../../core/authn/jwt.js';
import type { Logger } from '../../core/log.js';
import type { FetchJson } from './https-get.js';
import { RefreshLimiter } from './refresh-limiter.js';

export interface CachedKey {
  readonly kid: string | undefined;
  readonly alg: string | undefined;
  readonly key: KeyObject;
}

export interface RemoteKeySetOptions {
  readonly issuerUrl: string;
  /** Used verbatim when set; otherwise `{issuerUrl}/.well-known/openid-configuration`. */
  readonly discoveryUrl?: string;
  readonly fetchJson: FetchJson;
  readonly logger: Logger;
  readonly limiter?: RefreshLimiter;
  /** Delays between background initialisation attempts (the last one repeats). */
  readonly retryDelaysMs?: readonly number[];
}

export class KeyFetchError extends Error {
  override readonly name = 'KeyFetchError';
}

export const DEFAULT_RETRY_DELAYS_MS = [1_000, 2_000, 5_000, 10_000];

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export class RemoteKeySet {
  readonly #o: RemoteKeySetOptions;
  readonly #limiter: RefreshLimiter;
  /** Set once keys were fetched from it: the key set is then initialised. */
  #jwksUri: string | undefined;
  /** Found by discovery, not yet proven by a key fetch. */
  #pendingJwksUri: string | undefined;
  #keys: readonly CachedKey[] = [];
  #inflight: Promise<void> | undefined;
  #timer: NodeJS.Timeout | undefined;
  #attempts = 0;
  #stopped = false;
  #lastError = '';

  constructor(o: RemoteKeySetOptions) {
    this.#o = o;
    this.#limiter = o.limiter ?? new RefreshLimiter();
  }

  get initialized(): boolean { return this.#jwksUri !== undefined; }
  get keys(): readonly CachedKey[] { return this.#keys; }
  /** Why the last initialisation attempt failed ('' when none did). */
  get lastError(): string { return this.#lastError; }

  get discoveryUrl(): string {
    return this.#o.discoveryUrl || `${this.#o.issuerUrl.replace(/\/+$/, '')}/.well-known/openid-configuration`;
  }

  /** Starts background initialisation; resolves once the first attempt has settled. */
  start(): Promise<void> {
    return this.#initialise();
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** A request found the key set uninitialised: try again now, if the limiter allows. */
  nudge(): void {
    if (this.initialized || this.#inflight || this.#stopped || !this.#limiter.tryTake()) return;
    if (this.#timer) { clearTimeout(this.#timer); this.#timer = undefined; }
    void this.#initialise();
  }

  /**
   * Keys to try for a token's `kid` (all keys when it has none), fetching the key set again first
   * when `refresh` and the limiter allows. A failed fetch throws KeyFetchError: go-oidc refuses
   * the token with that error rather than falling back to the cached keys.
   */
  async candidates(kid: string | undefined, refresh: boolean): Promise<readonly CachedKey[]> {
    const pick = () => this.#keys.filter((k) => kid === undefined || k.kid === kid);
    if (!refresh) return pick();
    const shared = this.#inflight;
    if (shared || this.#limiter.tryTake()) {
      try {
        await (shared ?? this.#run(() => this.#fetchKeys()));
      } catch (err) {
        if (!shared) this.#o.logger.warn('fetching keys failed', { issuer: this.#o.issuerUrl, error: (err as Error).message });
        throw new KeyFetchError((err as Error).message);
      }
    }
    return pick();
  }

  /** One attempt at discovery + keys; on failure, schedules the next. */
  #initialise(): Promise<void> {
    return this.#run(async () => {
      await this.#discover();
      await this.#fetchKeys();
    }).then(() => {
      this.#lastError = '';
      this.#o.logger.v(1).info('issuer keys loaded', { issuer: this.#o.issuerUrl, keys: this.#keys.length });
    }, (err: Error) => {
      this.#lastError = err.message;
      this.#o.logger.error('oidc authenticator: initializing plugin', { issuer: this.#o.issuerUrl, error: err.message });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#stopped || this.initialized || this.#timer) return;
    const delays = this.#o.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
    const delay = delays[Math.min(this.#attempts++, delays.length - 1)] ?? 10_000;
    this.#timer = setTimeout(() => { this.#timer = undefined; if (!this.initialized) void this.#initialise(); }, delay);
    this.#timer.unref();
  }

  /** One remote operation at a time; concurrent callers share it. */
  #run(fn: () => Promise<void>): Promise<void> {
    if (this.#inflight) return this.#inflight;
    const p = fn().finally(() => { this.#inflight = undefined; });
    this.#inflight = p;
    return p;
  }

  async #discover(): Promise<void> {
    if (this.#jwksUri !== undefined) return;
    let doc: unknown;
    try {
      doc = await this.#o.fetchJson(this.discoveryUrl);
    } catch (err) {
      throw new Error(`oidc: get provider failed: ${(err as Error).message}`);
    }
    if (!isObj(doc)) throw new Error('oidc: failed to decode provider discovery object: not a JSON object');
    if (doc['issuer'] !== this.#o.issuerUrl) {
      throw new Error(`oidc: issuer did not match the issuer returned by provider, expected ${JSON.stringify(this.#o.issuerUrl)} got ${JSON.stringify(doc['issuer'] ?? '')}`);
    }
    const jwksUri = doc['jwks_uri'];
    if (typeof jwksUri !== 'string' || jwksUri === '') throw new Error('oidc: provider discovery object has no jwks_uri');
    // Keys are fetched with the issuer's trust settings, and only over HTTPS.
    if (!jwksUri.startsWith('https://')) throw new Error(`oidc: jwks_uri ${JSON.stringify(jwksUri)} is not an https URL`);
    this.#pendingJwksUri = jwksUri;
  }

  async #fetchKeys(): Promise<void> {
    const uri = this.#jwksUri ?? this.#pendingJwksUri;
    if (uri === undefined) throw new Error('oidc: no key set location yet');
    let doc: unknown;
    try {
      doc = await this.#o.fetchJson(uri);
    } catch (err) {
      throw new Error(`oidc: get keys failed: ${(err as Error).message}`);
    }
    if (!isObj(doc) || !Array.isArray(doc['keys'])) throw new Error('oidc: failed to decode keys: no "keys" list');
    const keys: CachedKey[] = [];
    for (const jwk of doc['keys']) {
      if (!isObj(jwk)) continue;
      if (jwk['use'] !== undefined && jwk['use'] !== 'sig') continue;
      try {
        keys.push({
          kid: typeof jwk['kid'] === 'string' ? jwk['kid'] : undefined,
          alg: typeof jwk['alg'] === 'string' ? jwk['alg'] : undefined,
          key: importJwk(jwk),
        });
      } catch (err) {
        // One unusable entry (an unknown key type) does not spoil the others.
        if (!(err instanceof JwtError)) throw err;
        this.#o.logger.v(2).info('skipping a key of the key set', { issuer: this.#o.issuerUrl, error: err.message });
      }
    }
    this.#keys = keys;
    this.#jwksUri = uri;
  }
}
