// The families 1.32's WithMaxInFlightLimit records into (endpoints/metrics): the per-second peak
// of the requests it let run (apiserver_current_inflight_requests, STABLE, set by the watermark
// maintenance each second), the requests it refused 429 (apiserver_dropped_requests_total, ALPHA)
// and, shared with the request deadline's 504, apiserver_request_terminations_total (ALPHA).
// Always registered, as upstream's; a family shows once something set it (no series before).
import type { CounterChild, GaugeChild, MetricsRegistry, MetricVec } from './registry.js';

/** The two request kinds, as upstream's ReadOnlyKind and MutatingKind. */
export type RequestKind = 'readOnly' | 'mutating';

/** RecordRequestTermination's labels, in upstream's order. */
export interface TerminationLabels {
  readonly verb: string; readonly group: string; readonly version: string; readonly resource: string;
  readonly subresource: string; readonly scope: string; readonly component: string;
}

export class InFlightMetrics {
  readonly #current: MetricVec<GaugeChild>;
  readonly #dropped: MetricVec<CounterChild>;

  constructor(registry: MetricsRegistry) {
    this.#current = registry.gauge({
      name: 'apiserver_current_inflight_requests', stabilityLevel: 'STABLE', labelNames: ['request_kind'],
      help: 'Maximal number of currently used inflight request limit of this apiserver per request kind in last second.',
    });
    this.#dropped = registry.counter({
      name: 'apiserver_dropped_requests_total', stabilityLevel: 'ALPHA', labelNames: ['request_kind'],
      help: "Number of requests dropped with 'Try again later' response",
    });
  }

  /** UpdateInflightRequestMetrics for the executing phase: the peaks of the second just ended. */
  peaks(readOnly: number, mutating: number): void {
    this.#current.labels('readOnly').set(readOnly);
    this.#current.labels('mutating').set(mutating);
  }

  dropped(kind: RequestKind): void {
    this.#dropped.labels(kind).inc();
  }
}

/** apiserver_request_terminations_total: requests the server ended in self-defense (429, 504); rare, so looked up each time. */
export class TerminationMetrics {
  readonly #vec: MetricVec<CounterChild>;

  constructor(registry: MetricsRegistry) {
    this.#vec = registry.counter({
      name: 'apiserver_request_terminations_total', stabilityLevel: 'ALPHA',
      help: 'Number of requests which apiserver terminated in self-defense.',
      labelNames: ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component', 'code'],
    });
  }

  record(l: TerminationLabels, code: number): void {
    this.#vec.labels(l.verb, l.group, l.version, l.resource, l.subresource, l.scope, l.component, String(code)).inc();
  }
}
