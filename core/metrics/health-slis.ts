// component-base's health-check SLIs (metrics/prometheus/slis, STABLE since 1.29), which
// kube-controller-manager and kube-apiserver serve at /metrics/slis from a registry of their own,
// apart from /metrics: each evaluation of a check by a health endpoint sets `kubernetes_healthcheck` to 1
// (passed) or 0 (failed) and counts it in `kubernetes_healthchecks_total`; a check left out by
// ?exclude is not evaluated, so not recorded. A DELETE of the path empties both where upstream
// installs SLIMetricsWithReset (the controller manager always, the API server with --profiling),
// which then answers `metrics reset`.
import type Koa from 'koa';
import { exposeText } from './exposition.js';
import { sendMetrics } from './serve.js';

export type HealthcheckStatus = 'success' | 'error';

export class HealthSlis {
  /** name\0type -> 1 or 0. */
  readonly #last = new Map<string, number>();
  /** name\0type\0status -> count. */
  readonly #total = new Map<string, number>();

  observe(name: string, type: string, status: HealthcheckStatus): void {
    this.#last.set(`${name}\0${type}`, status === 'success' ? 1 : 0);
    const key = `${name}\0${type}\0${status}`;
    this.#total.set(key, (this.#total.get(key) ?? 0) + 1);
  }

  reset(): void {
    this.#last.clear();
    this.#total.clear();
  }

  expose(): string {
    const split = (key: string) => key.split('\0');
    return exposeText([
      {
        name: 'kubernetes_healthcheck', help: '[STABLE] This metric records the result of a single healthcheck.', type: 'gauge',
        samples: [...this.#last].map(([k, value]) => { const [name = '', type = ''] = split(k); return { labels: [['name', name], ['type', type]] as const, value }; }),
      },
      {
        name: 'kubernetes_healthchecks_total', help: '[STABLE] This metric records the results of all healthcheck.', type: 'counter',
        samples: [...this.#total].map(([k, value]) => { const [name = '', type = '', status = ''] = split(k); return { labels: [['name', name], ['status', status], ['type', type]] as const, value }; }),
      },
    ]);
  }
}

/** The /metrics/slis handler: SLIMetricsWithReset with `reset`, else SLIMetrics (any method reads). */
export function serveSlis(ctx: Koa.Context, slis: HealthSlis, reset: boolean): void {
  // HandlerWithReset: a DELETE empties the registry and says only that (Go sniffs the type).
  if (reset && ctx.method === 'DELETE') {
    slis.reset();
    ctx.status = 200;
    ctx.set('Content-Type', 'text/plain; charset=utf-8');
    ctx.body = 'metrics reset\n';
    return;
  }
  sendMetrics(ctx, slis.expose());
}
