// /healthz, /livez, /readyz with per-check subpaths (/readyz/ping), ?verbose and ?exclude=,
// in apiserver's plain-text format, logging what healthz.go logs: the failed checks with their
// reasons at V(2) (the public body withholds them), an ?exclude that matches nothing at V(6).
import { goQuote } from '../go-quote.js';
import { silentLogger, type Logger } from '../log.js';

export interface HealthCheck {
  readonly name: string;
  /** Resolves when healthy; rejects (or returns an error text) when not. */
  check(): Promise<string | void>;
}

const PING: HealthCheck = { name: 'ping', check: async () => {} };

export interface HealthAnswer {
  readonly code: number;
  readonly body: string;
  /**
   * Whether the answer carries `X-Content-Type-Options: nosniff`: upstream's endpoint handler and
   * http.Error set it, a single check's `ok` is a bare fmt.Fprint whose type Go sniffs.
   */
  readonly nosniff: boolean;
}

export class HealthChecks {
  readonly #checks = new Map<string, HealthCheck[]>([['healthz', []], ['livez', []], ['readyz', []]]);
  /**
   * `pingWhenEmpty`: an endpoint without checks serves `ping` alone, and loses it with the first
   * check added, as healthz.InstallHandler installed anew by upstream's MutableHealthzHandler.
   */
  constructor(private readonly options: { pingWhenEmpty?: boolean; logger?: Logger } = {}) {}

  #observer: ((check: string, endpoint: string, status: 'success' | 'error') => void) | undefined;
  /** Told the outcome of each check an endpoint evaluates (healthz.go's slis.ObserveHealthcheck). */
  observeWith(observer: (check: string, endpoint: string, status: 'success' | 'error') => void): void { this.#observer = observer; }

  /** Adds a check to the given endpoints (default all three). */
  add(check: HealthCheck, endpoints: readonly ('healthz' | 'livez' | 'readyz')[] = ['healthz', 'livez', 'readyz']): void {
    for (const e of endpoints) this.#checks.get(e)!.push(check);
  }

  /** Every path served: each endpoint and each of its checks' (listed at `/`, as upstream's mux lists them). */
  paths(): string[] {
    return [...this.#checks].flatMap(([endpoint, registered]) => {
      const checks = registered.length === 0 && this.options.pingWhenEmpty ? [PING] : registered;
      return [`/${endpoint}`, ...checks.map((c) => `/${endpoint}/${c.name}`)];
    });
  }

  /** Answers a health path, or undefined when `path` is not a health endpoint. */
  async serve(path: string, query: URLSearchParams): Promise<HealthAnswer | undefined> {
    // Exact paths, as upstream's muxes register them: `/healthz/` and an unknown check are the
    // server's own not-found.
    const m = /^\/(healthz|livez|readyz)(?:\/([^/]+))?$/.exec(path);
    if (!m) return undefined;
    const registered = this.#checks.get(m[1]!)!;
    const checks = registered.length === 0 && this.options.pingWhenEmpty ? [PING] : registered;
    const endpoint = m[1]!;
    if (m[2]) {
      const one = checks.find((c) => c.name === m[2]);
      if (!one) return undefined;
      const err = await run(one);
      return err === undefined ? { code: 200, body: 'ok', nosniff: false } : { code: 500, body: `internal server error: ${err}\n`, nosniff: true };
    }
    const log = this.options.logger ?? silentLogger;
    const excluded = new Set(query.getAll('exclude'));
    const verbose = query.has('verbose');
    const lines: string[] = [];
    // The body withholds why a check failed (the endpoint is public); the log says it.
    const failures: { name: string; err: string }[] = [];
    for (const c of checks) {
      if (excluded.has(c.name)) { lines.push(`[+]${c.name} excluded: ok`); continue; }
      const err = await run(c);
      this.#observer?.(c.name, endpoint, err === undefined ? 'success' : 'error');
      if (err === undefined) lines.push(`[+]${c.name} ok`);
      else { failures.push({ name: c.name, err }); lines.push(`[-]${c.name} failed: reason withheld`); }
    }
    // One line for all of them, sorted, as upstream's formatQuoted(excluded.List()...).
    const unmatched = [...excluded].filter((name) => !checks.some((c) => c.name === name)).sort();
    if (unmatched.length) {
      const quoted = unmatched.map(goQuote).join(',');
      lines.push(`warn: some health checks cannot be excluded: no matches for ${quoted}`);
      log.v(6).info(`cannot exclude some health checks, no health checks are installed matching ${quoted}`);
    }
    if (failures.length) {
      log.v(2).info(`${failures.map((f) => f.name).join(',')} check failed: ${endpoint}\n${failures.map((f) => `[-]${f.name} failed: ${f.err}`).join('\n')}`);
      return { code: 500, body: `${lines.join('\n')}\n${endpoint} check failed\n`, nosniff: true };
    }
    return { code: 200, body: verbose ? `${lines.join('\n')}\n${endpoint} check passed\n` : 'ok', nosniff: true };
  }
}

async function run(c: HealthCheck): Promise<string | undefined> {
  try {
    const r = await c.check();
    return typeof r === 'string' && r ? r : undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

const componentChecks = new WeakMap<object, HealthChecks>();

/**
 * The health checks of a component's own endpoint (the controller manager's `leaderElection` and
 * one per running controller): the parts that know their health add checks, the plugin that
 * serves the endpoint serves them.
 */
export function componentHealthChecks(host: { readonly logger: Logger }): HealthChecks {
  let checks = componentChecks.get(host);
  if (!checks) componentChecks.set(host, (checks = new HealthChecks({ pingWhenEmpty: true, logger: host.logger.child('healthz') })));
  return checks;
}
