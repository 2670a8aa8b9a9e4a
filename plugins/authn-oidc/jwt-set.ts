// The JWT authenticators of one configuration, as upstream's jwtAuthenticatorWithCancel: one per
// issuer, their key sets started together, a health check (every key set initialised) and one
// stop for all. A reload builds a new set beside the serving one and swaps it in once healthy.
import type { JoseAlgorithm } from '../../core/authn/jwt.js';
import type { JWTAuthenticator } from '../../core/authn/authentication-config/index.js';
import type { Logger } from '../../core/log.js';
import type { CelCompiler } from './cel.js';
import { createFetchJson, type FetchJson } from './https-get.js';
import { JwtAuthenticator } from './jwt-authenticator.js';
import { RefreshLimiter } from './refresh-limiter.js';
import { RemoteKeySet } from './remote-key-set.js';

export interface JwtSetDeps {
  readonly now?: () => number;
  readonly fetchJson?: (issuer: JWTAuthenticator['issuer']) => FetchJson;
  readonly refreshBurst?: number;
  readonly refreshIntervalMs?: number;
  readonly retryDelaysMs?: readonly number[];
}

export class JwtSet {
  readonly byIssuer = new Map<string, JwtAuthenticator>();
  readonly #closers: (() => void)[] = [];
  #started = false;

  /** Builds the authenticators (CEL compiled, nothing fetched yet); start() begins discovery. */
  constructor(configs: readonly JWTAuthenticator[], algs: readonly JoseAlgorithm[], compiler: CelCompiler, log: Logger, deps: JwtSetDeps) {
    for (const config of configs) {
      let fetchJson: FetchJson;
      if (deps.fetchJson) fetchJson = deps.fetchJson(config.issuer);
      else {
        const f = createFetchJson(config.issuer.certificateAuthority ? { ca: config.issuer.certificateAuthority } : {});
        this.#closers.push(f.close);
        fetchJson = f.fetchJson;
      }
      const keys = new RemoteKeySet({
        issuerUrl: config.issuer.url,
        ...(config.issuer.discoveryURL ? { discoveryUrl: config.issuer.discoveryURL } : {}),
        fetchJson, logger: log,
        limiter: new RefreshLimiter(deps.refreshBurst, deps.refreshIntervalMs, deps.now),
        ...(deps.retryDelaysMs ? { retryDelaysMs: deps.retryDelaysMs } : {}),
      });
      this.#closers.push(() => keys.stop());
      this.byIssuer.set(config.issuer.url, new JwtAuthenticator({ config, signingAlgs: algs, compiler, keys, ...(deps.now ? { now: deps.now } : {}) }));
    }
  }

  /** Background discovery of every issuer; resolves once each first attempt has settled. */
  async start(): Promise<void> {
    if (this.#started) return;
    this.#started = true;
    await Promise.all([...this.byIssuer.values()].map((a) => a.keySet.start()));
  }

  /** Upstream's healthCheck: undefined when every issuer's keys are loaded, else each one's reason. */
  unhealthy(): string[] | undefined {
    const errs = [...this.byIssuer.values()].filter((a) => !a.keySet.initialized).map((a) =>
      `oidc: authenticator for issuer ${JSON.stringify(a.issuerUrl)} is not healthy: ${a.keySet.lastError || 'oidc: authenticator not initialized'}`);
    return errs.length ? errs : undefined;
  }

  stop(): void {
    for (const close of this.#closers.splice(0)) close();
  }
}
