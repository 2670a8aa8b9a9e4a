// The audit families of 1.32's apiserver/pkg/audit/metrics.go (all ALPHA), with upstream's names
// and help texts: every event handed to the backends (ObserveEvent), every request's policy level
// (ObservePolicyLevel, None included), events a backend failed to record (HandlePluginError, by
// the backend's plugin name: log, webhook, buffered, truncate) and requests refused because a
// blocking-strict backend failed their RequestReceived.
import type { CounterChild, MetricsRegistry, MetricVec } from './registry.js';

export class AuditMetrics {
  readonly #events: CounterChild;
  readonly #errors: MetricVec<CounterChild>;
  readonly #levels: MetricVec<CounterChild>;
  readonly #rejected: CounterChild;

  constructor(registry: MetricsRegistry) {
    this.#events = registry.counter({ name: 'apiserver_audit_event_total', help: 'Counter of audit events generated and sent to the audit backend.' }).labels();
    this.#errors = registry.counter({
      name: 'apiserver_audit_error_total', labelNames: ['plugin'],
      help: 'Counter of audit events that failed to be audited properly. Plugin identifies the plugin affected by the error.',
    });
    this.#levels = registry.counter({ name: 'apiserver_audit_level_total', help: 'Counter of policy levels for audit events (1 per request).', labelNames: ['level'] });
    this.#rejected = registry.counter({ name: 'apiserver_audit_requests_rejected_total', help: 'Counter of apiserver requests rejected due to an error in audit logging backend.' }).labels();
  }

  event(): void { this.#events.inc(); }
  level(level: string): void { this.#levels.labels(level).inc(); }
  rejected(): void { this.#rejected.inc(); }
  pluginError(plugin: string, events: number): void { this.#errors.labels(plugin).inc(events); }
}

/** What a backend reports its lost events to (HandlePluginError's count). */
export type AuditErrorCounter = (plugin: string, events: number) => void;
