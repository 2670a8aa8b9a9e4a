// Upstream's WithMaxInFlightLimit, kube-apiserver's filter when priority and fairness is off: at
// most --max-requests-inflight non-mutating (get, list, watch) and --max-mutating-requests-inflight
// other requests run at once (0: that kind unlimited); one more is answered http.Error's plain-text
// 429 with `Retry-After: 1`, unless its user (after impersonation, which runs before the filter) is
// in system:masters, which is always served. Long-running requests (watches) are not counted. It
// sits after audit and impersonation and before authorization, as DefaultBuildHandlerChain puts
// it, so a refused request is audited with its 429 and never authorized.
import type Koa from 'koa';
import { MASTERS_GROUP, type UserInfo } from '../authn/user.js';
import type { InFlightMetrics, RequestKind, TerminationMetrics } from '../metrics/apiserver-inflight.js';
import { isLongRunning } from './request-deadline.js';
import type { RequestInfo } from './request-info.js';
import { recordTermination } from './request-metrics.js';

const NON_MUTATING_VERBS = new Set(['get', 'list', 'watch']);
/** http.Error's body: the message and a newline. */
const TOO_MANY_REQUESTS_TEXT = 'Too many requests, please try again later.\n';
/** Upstream's constant; it says itself it may one day be dynamic. */
const RETRY_AFTER_SECONDS = '1';
/** inflightUsageMetricUpdatePeriod. */
export const WATERMARK_PERIOD_MS = 1000;

export interface InFlightLimits {
  /** --max-requests-inflight; 0 is no limit. */
  readonly readOnly: number;
  /** --max-mutating-requests-inflight; 0 is no limit. */
  readonly mutating: number;
}

/**
 * The two counts and their watermarks: the most requests of each kind running at once since the
 * last period ended, noted as a request starts and as it ends (upstream's requestWatermark, so a
 * period with neither reads 0 even while requests still run).
 */
export class InFlightRequests {
  readonly #running: Record<RequestKind, number> = { readOnly: 0, mutating: 0 };
  readonly #peak: Record<RequestKind, number> = { readOnly: 0, mutating: 0 };

  constructor(readonly limits: InFlightLimits, private readonly metrics?: InFlightMetrics) {}

  /** Takes a slot of this kind, or says there is none; a kind without a limit is not counted. */
  enter(kind: RequestKind): boolean | undefined {
    const limit = this.limits[kind];
    if (limit === 0) return undefined;
    if (this.#running[kind] >= limit) return false;
    this.#note(kind, ++this.#running[kind]);
    return true;
  }

  /** A request refused for want of a slot: apiserver_dropped_requests_total. */
  refused(kind: RequestKind): void {
    this.metrics?.dropped(kind);
  }

  leave(kind: RequestKind): void {
    this.#note(kind, --this.#running[kind]);
  }

  /** The period's end (startWatermarkMaintenance): its peaks go to the gauge, and start again from 0. */
  endPeriod(): void {
    this.metrics?.peaks(this.#peak.readOnly, this.#peak.mutating);
    this.#peak.readOnly = 0;
    this.#peak.mutating = 0;
  }

  #note(kind: RequestKind, running: number): void {
    if (this.#peak[kind] < running) this.#peak[kind] = running;
  }
}

const isMaster = (user: UserInfo | undefined) => user?.groups.includes(MASTERS_GROUP) === true;

export function withMaxInFlightLimit(requests: InFlightRequests, terminations?: TerminationMetrics): Koa.Middleware<{ info: RequestInfo; query: URLSearchParams; user: UserInfo }> {
  return async (ctx, next) => {
    const { info } = ctx.state;
    if (isLongRunning(info)) return next();
    const kind: RequestKind = NON_MUTATING_VERBS.has(info.verb) ? 'readOnly' : 'mutating';
    const entered = requests.enter(kind);
    if (entered === true) {
      try { return await next(); } finally { requests.leave(kind); }
    }
    if (entered === undefined || isMaster(ctx.state.user)) return next();
    requests.refused(kind);
    if (terminations) recordTermination(ctx as unknown as Koa.Context, info, ctx.state.query, terminations, 429);
    ctx.set('Retry-After', RETRY_AFTER_SECONDS);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.status = 429;
    ctx.type = 'text/plain; charset=utf-8';
    ctx.body = TOO_MANY_REQUESTS_TEXT;
  };
}
