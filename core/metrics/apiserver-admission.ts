// The admission families of 1.32's apiserver/pkg/admission/metrics/metrics.go, with upstream's
// names, labels, help texts, buckets and stability levels: each phase as a whole (the step: type
// admit or validate), each admission plugin (the controller, named as upstream names it), each
// admission webhook call (named by the webhook), a webhook's rejections, calls and fail-opens.
// Upstream dropped the resource labels long ago (cardinality): the series are by operation. Every
// series is found through nested maps of the few label values it has, so an observation costs a
// few Map lookups and builds no string.
import { Children } from './children.js';
import type { CounterChild, HistogramChild, MetricsRegistry, MetricVec, SummaryChild } from './registry.js';

/** 5 ms to 2.5 s: the step, controller and match-condition histograms. */
export const ADMISSION_BUCKETS = [0.005, 0.025, 0.1, 0.5, 1.0, 2.5];
/** Admission webhooks time out at 30 s by default, so up to 25 s. */
export const WEBHOOK_BUCKETS = [0.005, 0.025, 0.1, 0.5, 1.0, 2.5, 10, 25];

/** The step type of an admission phase, as the plugin wrappers report it. */
export type StepType = 'admit' | 'validate';
/** What the webhook dispatchers report as type: `admit` for mutating, `validating` for validating. */
export type WebhookType = 'admit' | 'validating';
/** Why a webhook rejected: it said no, it could not be called, or the API server failed. */
export type WebhookRejectionErrorType = 'no_error' | 'calling_webhook_error' | 'apiserver_internal_error';

/** Codes above 600 are 600, as upstream bounds the series a misbehaving webhook can make. */
const boundedCode = (code: number): string => String(code > 600 ? 600 : code);

export class AdmissionMetrics {
  readonly #step: Children<readonly [HistogramChild, SummaryChild]>;
  readonly #controller: Children<HistogramChild>;
  readonly #webhook: Children<HistogramChild>;
  readonly #webhookRequests: Children<CounterChild>;
  readonly #rejections: Children<CounterChild>;
  readonly #failOpen: Children<CounterChild>;

  constructor(registry: MetricsRegistry) {
    const step = registry.histogram({
      name: 'apiserver_admission_step_admission_duration_seconds', stabilityLevel: 'STABLE', buckets: ADMISSION_BUCKETS,
      help: 'Admission sub-step latency histogram in seconds, broken out for each operation and API resource and step type (validate or admit).',
      labelNames: ['type', 'operation', 'rejected'],
    });
    const stepSummary = registry.summary({
      name: 'apiserver_admission_step_admission_duration_seconds_summary', stabilityLevel: 'ALPHA',
      help: 'Admission sub-step latency summary in seconds, broken out for each operation and API resource and step type (validate or admit).',
      labelNames: ['type', 'operation', 'rejected'],
    });
    const controller = registry.histogram({
      name: 'apiserver_admission_controller_admission_duration_seconds', stabilityLevel: 'STABLE', buckets: ADMISSION_BUCKETS,
      help: 'Admission controller latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
      labelNames: ['name', 'type', 'operation', 'rejected'],
    });
    const webhook = registry.histogram({
      name: 'apiserver_admission_webhook_admission_duration_seconds', stabilityLevel: 'STABLE', buckets: WEBHOOK_BUCKETS,
      help: 'Admission webhook latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
      labelNames: ['name', 'type', 'operation', 'rejected'],
    });
    const rejections = registry.counter({
      name: 'apiserver_admission_webhook_rejection_count', stabilityLevel: 'ALPHA',
      help: 'Admission webhook rejection count, identified by name and broken out for each admission type (validating or admit) and operation. Additional labels specify an error type (calling_webhook_error or apiserver_internal_error if an error occurred; no_error otherwise) and optionally a non-zero rejection code if the webhook rejects the request with an HTTP status code (honored by the apiserver when the code is greater or equal to 400). Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.',
      labelNames: ['name', 'type', 'operation', 'error_type', 'rejection_code'],
    });
    const failOpen = registry.counter({
      name: 'apiserver_admission_webhook_fail_open_count', stabilityLevel: 'ALPHA',
      help: 'Admission webhook fail open count, identified by name and broken out for each admission type (validating or mutating).',
      labelNames: ['name', 'type'],
    });
    const requests = registry.counter({
      name: 'apiserver_admission_webhook_request_total', stabilityLevel: 'ALPHA',
      help: 'Admission webhook request total, identified by name and broken out for each admission type (validating or mutating) and operation. Additional labels specify whether the request was rejected or not and an HTTP status code. Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.',
      labelNames: ['name', 'type', 'operation', 'code', 'rejected'],
    });
    this.#step = new Children((v) => [step.labels(...v), stepSummary.labels(...v)] as const);
    this.#controller = byValues(controller);
    this.#webhook = byValues(webhook);
    this.#webhookRequests = byValues(requests);
    this.#rejections = byValues(rejections);
    this.#failOpen = byValues(failOpen);
  }

  /** ObserveAdmissionStep: one admission phase, all its plugins. */
  step(type: StepType, operation: string, rejected: boolean, seconds: number): void {
    const [h, s] = this.#step.get(type, operation, rejected ? 'true' : 'false');
    h.observe(seconds);
    s.observe(seconds);
  }

  /** ObserveAdmissionController: one admission plugin in one phase. */
  controller(name: string, type: StepType, operation: string, rejected: boolean, seconds: number): void {
    this.#controller.get(name, type, operation, rejected ? 'true' : 'false').observe(seconds);
  }

  /** ObserveWebhook: one call of one webhook, with the code it ended with (200, the error's, or 0). */
  webhook(name: string, type: WebhookType, operation: string, rejected: boolean, code: number, seconds: number): void {
    const r = rejected ? 'true' : 'false';
    this.#webhookRequests.get(name, type, operation, boundedCode(code), r).inc();
    this.#webhook.get(name, type, operation, r).observe(seconds);
  }

  /** ObserveWebhookRejection. */
  webhookRejection(name: string, type: WebhookType, operation: string, errorType: WebhookRejectionErrorType, code: number): void {
    this.#rejections.get(name, type, operation, errorType, boundedCode(code)).inc();
  }

  /** ObserveWebhookFailOpen. */
  webhookFailOpen(name: string, type: WebhookType): void {
    this.#failOpen.get(name, type).inc();
  }
}

const byValues = <C>(vec: MetricVec<C>): Children<C> => new Children((v) => vec.labels(...v));
