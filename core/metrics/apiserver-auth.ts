// The authentication and authorization families of 1.32's endpoints/filters/metrics.go (ALPHA):
// every request's authentication (success, failure: no authenticator knew the caller, error: one
// failed) with its duration, and the user of a successful one under compressUsername's few names;
// every authorization (allowed, denied, no-opinion, error) with its duration.
import type { CounterChild, HistogramChild, MetricsRegistry } from './registry.js';

/** ExponentialBuckets(0.001, 2, 15): 1ms to about 16s. */
const AUTH_BUCKETS = Array.from({ length: 15 }, (_, i) => 0.001 * 2 ** i);

export type AuthenticationResult = 'success' | 'failure' | 'error';
export type AuthorizationResult = 'allowed' | 'denied' | 'no-opinion' | 'error';

const KNOWN_USERNAMES = new Set(['admin', 'client', 'kube_proxy', 'kubelet', 'system:serviceaccount:kube-system:default']);

/** compressUsername: a few known internal identities by name, an email as email_id, the rest other. */
export function compressUsername(name: string): string {
  if (KNOWN_USERNAMES.has(name)) return name;
  return name.includes('@') ? 'email_id' : 'other';
}

interface Vec<C> { labels(...values: string[]): C }

/** One result's two children, made on first use: a result never seen is not exposed (as upstream's vectors). */
class ByResult {
  readonly #children = new Map<string, readonly [CounterChild, HistogramChild]>();
  constructor(private readonly attempts: Vec<CounterChild>, private readonly duration: Vec<HistogramChild>) {}
  observe(result: string, seconds: number): void {
    let c = this.#children.get(result);
    if (!c) this.#children.set(result, (c = [this.attempts.labels(result), this.duration.labels(result)]));
    c[0].inc();
    c[1].observe(seconds);
  }
}

export class AuthMetrics {
  readonly #users: Vec<CounterChild>;
  readonly #authn: ByResult;
  readonly #authz: ByResult;

  constructor(registry: MetricsRegistry) {
    this.#users = registry.counter({ name: 'authenticated_user_requests', help: 'Counter of authenticated requests broken out by username.', labelNames: ['username'] });
    this.#authn = new ByResult(
      registry.counter({ name: 'authentication_attempts', help: 'Counter of authenticated attempts.', labelNames: ['result'] }),
      registry.histogram({ name: 'authentication_duration_seconds', help: 'Authentication duration in seconds broken out by result.', labelNames: ['result'], buckets: AUTH_BUCKETS }),
    );
    this.#authz = new ByResult(
      registry.counter({ name: 'authorization_attempts_total', help: "Counter of authorization attempts broken down by result. It can be either 'allowed', 'denied', 'no-opinion' or 'error'.", labelNames: ['result'] }),
      registry.histogram({ name: 'authorization_duration_seconds', help: 'Authorization duration in seconds broken out by result.', labelNames: ['result'], buckets: AUTH_BUCKETS }),
    );
  }

  /** recordAuthenticationMetrics; `user` (the authenticated name) only on success. */
  authenticated(result: AuthenticationResult, seconds: number, user?: string): void {
    if (user !== undefined) this.#users.labels(compressUsername(user)).inc();
    this.#authn.observe(result, seconds);
  }

  /** recordAuthorizationMetrics. */
  authorized(result: AuthorizationResult, seconds: number): void {
    this.#authz.observe(result, seconds);
  }
}
