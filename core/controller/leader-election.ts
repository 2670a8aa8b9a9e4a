// Leader election on a coordination Lease, as client-go's leaderelection with a LeaseLock: try to
// acquire every retry period (jittered); a lease held by another is taken only once it has not
// changed for a whole lease duration as measured on OUR monotonic clock (so neither clock skew
// between candidates nor a step of the wall clock matters); the leader renews at once, then a
// retry period after each renewal, and, if it cannot renew within the renew deadline, or as soon
// as it finds another holder in the Lease, stops leading. Updates carry the
// resourceVersion, so two candidates never both win. A leader renews with one PUT of the Lease it
// last wrote (upstream's optimistic fast path), reading it again only when that write fails.
// Every write sets the whole spec from the election record, as LeaseLock.Update's
// LeaderElectionRecordToLeaseSpec: fields the record does not carry (strategy, preferredHolder)
// are not written back. The log lines are client-go's (klog.Infof with the lock's Describe(),
// `plat-system/plat-controller-manager`): `attempting to acquire leader lease <lock>...`,
// `successfully acquired lease <lock>`, `failed to renew lease <lock>: <err>`, and at V(4)
// `failed to acquire lease <lock>` and `lock is held by <holder> and has not yet expired`.
// The elector is also the leadership fence (core/client/write-fence.ts) the controllers' writes
// pass: refusal() answers from the monotonic clock when asked, not from a timer.
import os from 'node:os';
import { randomUUID } from 'node:crypto';
import type { ApiObject } from '../api/meta.js';
import { goClientErrorText } from '../client/go-url-error.js';
import { isApiError, type RestClient } from '../client/rest-client.js';
import type { Logger } from '../log.js';
import type { LeaderElectionMetrics } from '../metrics/leader-election.js';
import type { EventRecorder } from '../client/events/event-broadcaster.js';
import { sleep } from '../abort-wait.js';
import { setLongTimeout, timeoutSignal } from '../long-timeout.js';
import { formatDuration } from '../flags/duration.js';
import type { WriteFence } from '../client/write-fence.js';

export interface LeaderElectionConfig {
  readonly client: RestClient;
  readonly namespace: string;
  readonly name: string;
  /** Unique per candidate; default `<hostname>_<uuid>` as upstream. */
  readonly identity?: string;
  readonly leaseDurationMs: number;
  readonly renewDeadlineMs: number;
  readonly retryPeriodMs: number;
  /** Give the lease up (holder cleared) when stopping while leading. */
  readonly releaseOnCancel?: boolean;
  readonly logger?: Logger;
  /** The wall clock (ms): the acquire and renew times written into the Lease. Date.now by default. */
  readonly now?: () => number;
  /**
   * A monotonic clock (ms): when a change of the Lease was observed, whether the lease is still
   * valid, the health check. performance.now by default, as Go's time.Now carries a monotonic
   * reading that observedTime.Add(d).After(now) and clock.Since use: a step of the wall clock (NTP,
   * an operator) must neither hand a live leader's Lease to a standby nor keep a dead one's.
   */
  readonly monotonicNow?: () => number;
  /** leader_election_master_status and leader_election_slowpath_total, labelled with `name`. */
  readonly metrics?: LeaderElectionMetrics;
  /** ResourceLockConfig.EventRecorder: where the LeaderElection Events on the Lease go (none: not recorded). */
  readonly eventRecorder?: EventRecorder;
}

export interface LeaderCallbacks {
  /** Runs while leading; its signal aborts when leadership is lost or the election stops. */
  onStartedLeading(signal: AbortSignal): Promise<void> | void;
  onStoppedLeading?(): void;
  onNewLeader?(identity: string): void;
}

interface LeaseSpec {
  holderIdentity?: string; leaseDurationSeconds?: number; acquireTime?: string; renewTime?: string; leaseTransitions?: number;
  strategy?: string; preferredHolder?: string;
}

/**
 * A read Lease as the election record LeaseSpecToLeaderElectionRecord makes of it: a change of
 * any field, not only of the holder or renew time, restarts a standby's wait (upstream compares
 * the raw records).
 */
const readRecord = (s: LeaseSpec): string => JSON.stringify([
  s.holderIdentity ?? '', s.leaseDurationSeconds ?? 0, s.acquireTime ?? '', s.renewTime ?? '', s.leaseTransitions ?? 0, s.strategy ?? '', s.preferredHolder ?? '',
]);
interface LeaseObject extends ApiObject { spec?: LeaseSpec }

/**
 * The spec LeaderElectionRecordToLeaseSpec writes: every field of the record, an empty holder
 * included (a pointer to ""); an acquire time the record lacks (upstream's zero time, which
 * serializes as null) is left out.
 */
const recordSpec = (r: { holder: string; durationS: number; acquireTime: string | undefined; renewTime: string; transitions: number }): LeaseSpec => ({
  holderIdentity: r.holder, leaseDurationSeconds: r.durationS,
  ...(r.acquireTime !== undefined ? { acquireTime: r.acquireTime } : {}),
  renewTime: r.renewTime, leaseTransitions: r.transitions,
});

const LEASES = { group: 'coordination.platform', version: 'v1', plural: 'leases' };
/** wait.Jitter's maxFactor: a standby waits retryPeriod × (1 + rand × 1.2) between attempts. */
const JITTER = 1.2;

/** How long a candidate that did not get the Lease waits before trying again (wait.JitterUntil's). */
export const standbyWaitMs = (retryPeriodMs: number, random = Math.random()): number => retryPeriodMs * (1 + random * JITTER);

/** RFC 3339 with microseconds, as metav1.MicroTime. */
export const microTime = (ms: number): string => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

/**
 * Which request of an attempt failed: a Lease that cannot be created (its namespace is missing,
 * RBAC refuses the create) is not reported as a failed read. The message is the cause's; `line`
 * is what 1.32's tryAcquireOrRenew logs for it with klog.Errorf.
 */
export class LeaseStepError extends Error {
  readonly line: string;
  constructor(readonly step: 'get' | 'create' | 'update', lock: string, cause: unknown) {
    super(goClientErrorText(cause), { cause });
    this.line = step === 'get' ? `error retrieving resource lock ${lock}: ${this.message}`
      : step === 'create' ? `error initially creating leader election record: ${this.message}` : `Failed to update lock: ${this.message}`;
  }
}

export class LeaderElector implements WriteFence {
  readonly identity: string;
  /** Between acquiring the Lease and the end of that term (lost, or stopped). */
  #leading = false;
  /** Monotonic time at which the last successful write of the Lease was sent (before its request). */
  #renewedAt = 0;
  #observed: { record: string; at: number } | undefined;
  #leader = '';
  /** The Lease as our last successful write returned it (its resourceVersion guards the fast path). */
  #written: LeaseObject | undefined;
  constructor(private readonly c: LeaderElectionConfig) {
    if (c.renewDeadlineMs >= c.leaseDurationMs) throw new RangeError('leaseDuration must be greater than renewDeadline');
    if (c.renewDeadlineMs <= JITTER * c.retryPeriodMs) throw new RangeError('renewDeadline must be greater than retryPeriod*JitterFactor');
    this.identity = c.identity ?? `${os.hostname()}_${randomUUID()}`;
    c.metrics?.leaderOff(c.name);
  }

  /** The lock as upstream's LeaseLock.Describe() names it. */
  get #lock(): string { return `${this.c.namespace}/${this.c.name}`; }

  get leader(): string { return this.#leader; }
  get isLeader(): boolean { return this.#leader !== '' && this.#leader === this.identity; }

  /**
   * client-go's HealthzAdaptor check: a leader that has not renewed for the lease duration plus
   * `toleranceMs` (upstream: 20s) is unhealthy (it should have stopped leading; a hung process
   * has not). A candidate that is not leading is healthy.
   */
  check(toleranceMs: number): string | undefined {
    if (!this.isLeader || !this.#observed) return undefined;
    if (this.#elapsed() - this.#observed.at > this.c.leaseDurationMs + toleranceMs) {
      return `failed election to renew leadership on lease ${this.c.name}`;
    }
    return undefined;
  }
  /**
   * The fence the controllers' writes and syncs pass (core/client/write-fence.ts): open only while
   * this term leads and less than the renew deadline has passed, on the monotonic clock, since
   * the last successful renewal was sent. Read from the clock when asked, not from a timer: a
   * process resumed after a pause handles the watch events that waited before any timer runs,
   * and its first sync already finds the fence closed. The renew deadline is shorter than the
   * lease duration, after which (counted from later still, when a standby saw our last renewal)
   * another candidate may take the Lease.
   */
  refusal(): string | undefined {
    if (!this.#leading) return 'not leading';
    if (!this.isLeader) return this.#leader ? `the lease is held by ${this.#leader}` : 'the lease was released';
    const since = this.#elapsed() - this.#renewedAt;
    if (since >= this.c.renewDeadlineMs) {
      return `the lease was last renewed ${formatDuration(Math.floor(since))} ago, not within the renew deadline (${formatDuration(this.c.renewDeadlineMs)})`;
    }
    return undefined;
  }

  #now(): number { return (this.c.now ?? Date.now)(); }
  #elapsed(): number { return (this.c.monotonicNow ?? performance.now.bind(performance))(); }

  /** One attempt; true when we hold the lease afterwards. `signal` abandons its requests. */
  async tryAcquireOrRenew(signal?: AbortSignal): Promise<boolean> {
    const ref = { ...LEASES, namespace: this.c.namespace };
    const opts = signal ? { signal } : {};
    const now = this.#now();
    const at = this.#elapsed();
    // As upstream's int(LeaseDuration / time.Second); a sub-second duration still writes a valid 1.
    const durationS = Math.max(1, Math.floor(this.c.leaseDurationMs / 1000));
    const fast = await this.#renewOptimistically(ref, durationS, now, at, opts);
    if (fast) { this.#renewedAt = at; return true; }
    let lease: LeaseObject;
    try {
      lease = await this.c.client.get<LeaseObject>(ref, this.c.name, undefined, opts);
    } catch (e) {
      if (!isApiError(e, 'NotFound')) throw new LeaseStepError('get', this.#lock, e);
      try {
        this.#written = await this.c.client.create<LeaseObject>(ref, {
          apiVersion: 'coordination.platform/v1', kind: 'Lease', metadata: { name: this.c.name, namespace: this.c.namespace },
          spec: { holderIdentity: this.identity, leaseDurationSeconds: durationS, acquireTime: microTime(now), renewTime: microTime(now), leaseTransitions: 0 },
        }, undefined, undefined, opts);
      } catch (err) {
        throw new LeaseStepError('create', this.#lock, err);
      }
      this.#observe(this.identity, `wrote ${microTime(now)}`);
      this.#renewedAt = at;
      return true;
    }
    const spec = lease.spec ?? {};
    const holder = spec.holderIdentity ?? '';
    this.#observe(holder, readRecord(spec));
    const heldByOther = holder !== '' && holder !== this.identity;
    // A Lease that gives no duration reads as 0 (LeaseSpecToLeaderElectionRecord), so it holds
    // nothing past the moment it was seen: not our own duration, which may be far longer.
    const expires = this.#observed!.at + (spec.leaseDurationSeconds ?? 0) * 1000;
    if (heldByOther && expires > at) {
      this.c.logger?.v(4).info(`lock is held by ${holder} and has not yet expired`);
      return false;
    }
    const mine = holder === this.identity;
    // Still leading, yet the optimistic write did not do: upstream's slow path.
    if (mine) this.c.metrics?.slowpathExercised(this.c.name);
    lease.spec = recordSpec({
      holder: this.identity, durationS, renewTime: microTime(now),
      acquireTime: mine ? spec.acquireTime : microTime(now),
      transitions: mine ? spec.leaseTransitions ?? 0 : (spec.leaseTransitions ?? 0) + 1,
    });
    try {
      this.#written = await this.c.client.update(ref, lease, undefined, opts);
    } catch (e) {
      if (isApiError(e, 'Conflict')) return false;
      throw new LeaseStepError('update', this.#lock, e);
    }
    this.#observe(this.identity, `wrote ${lease.spec.renewTime}`);
    this.#renewedAt = at;
    return true;
  }

  /**
   * Upstream's fast path: while leading within the lease we last observed, write the Lease we last
   * wrote with a new renewTime, no read first (half the requests of a renewal). A failure (a
   * conflict: someone else wrote it; or any other) falls back to the read-then-write path.
   */
  async #renewOptimistically(ref: typeof LEASES & { namespace: string }, durationS: number, now: number, at: number, opts: { signal?: AbortSignal }): Promise<boolean> {
    const written = this.#written;
    const observed = this.#observed;
    if (!this.isLeader || !written?.spec || !observed || observed.at + (written.spec.leaseDurationSeconds ?? durationS) * 1000 <= at) return false;
    const lease: LeaseObject = { ...written, spec: recordSpec({
      holder: this.identity, durationS, renewTime: microTime(now), acquireTime: written.spec.acquireTime, transitions: written.spec.leaseTransitions ?? 0,
    }) };
    try {
      this.#written = await this.c.client.update(ref, lease, undefined, opts);
    } catch (e) {
      if (opts.signal?.aborted) throw e;
      this.#written = undefined;
      this.c.logger?.error(`Failed to update lock optimitically: ${goClientErrorText(e)}, falling back to slow path`);
      return false;
    }
    this.#observe(this.identity, `wrote ${lease.spec!.renewTime}`);
    return true;
  }

  /**
   * LeaseLock.RecordEvent: a Normal LeaderElection Event on the Lease as last written (its uid and
   * resourceVersion), `<identity> <what>`.
   */
  #event(what: string): void {
    const meta = this.#written?.metadata ?? { namespace: this.c.namespace, name: this.c.name };
    this.c.eventRecorder?.event({ apiVersion: 'coordination.platform/v1', kind: 'Lease', metadata: meta }, 'Normal', 'LeaderElection', `${this.identity} ${what}`);
  }

  /**
   * Notes the record read or written; a change is timed when its answer came, as setObservedRecord.
   * Each write is a new record (its renew time); a read is compared with the last one noted.
   */
  #observe(holder: string, record: string): void {
    if (this.#observed?.record !== record) this.#observed = { record, at: this.#elapsed() };
    // Upstream's elector logs no change of leader (kube-controller-manager sets no OnNewLeader).
    this.#leader = holder;
  }

  /**
   * Gives the lease up if we hold it, so a standby takes over at once: upstream's release record,
   * holder "" (written as such), lease duration 1s, acquired and renewed now, the transitions
   * kept. Only safe once the work done while leading has stopped. Unlike upstream (which goes by
   * the record it last observed), a Lease someone else holds by now is left alone.
   */
  release(): Promise<void> { return this.#release(); }

  async #release(): Promise<void> {
    const ref = { ...LEASES, namespace: this.c.namespace };
    // Bounded like a renewal: a stop must not hang on an API server that does not answer (the
    // Lease then simply expires, as after a crash).
    const opts = { signal: timeoutSignal(this.c.renewDeadlineMs) };
    try {
      // A renewal abandoned as leading stopped may still land between the read and the write: the
      // write is then a conflict, and the Lease, read again, is released if it is still ours.
      for (let attempt = 0; ; attempt++) {
        const lease = await this.c.client.get<LeaseObject>(ref, this.c.name, undefined, opts);
        if (lease.spec?.holderIdentity !== this.identity) return;
        const now = microTime(this.#now());
        lease.spec = recordSpec({ holder: '', durationS: 1, acquireTime: now, renewTime: now, transitions: lease.spec.leaseTransitions ?? 0 });
        try {
          this.#written = await this.c.client.update(ref, lease, undefined, opts);
        } catch (e) {
          if (attempt < 2 && isApiError(e, 'Conflict')) continue;
          throw e;
        }
        this.#observe('', `wrote ${now}`);
        return;
      }
    } catch (e) {
      // leaderelection.go's release(): klog.Errorf("Failed to release lock: %v", err).
      this.c.logger?.error(`Failed to release lock: ${goClientErrorText(e)}`);
    }
  }

  /**
   * One renewal, as upstream's: attempts every retry period until one succeeds, all within the
   * renew deadline, and a request still hanging at the deadline is abandoned. So a leader cut off
   * from the API server stops leading within retry period + renew deadline of its last renewal,
   * before any standby may take the Lease (a lease duration after it last saw it change).
   */
  async #renew(leading: AbortSignal): Promise<boolean> {
    const attempt = new AbortController();
    // wait.PollImmediateUntil's error when the renew deadline's context ends first.
    const cancelDeadline = setLongTimeout(() => attempt.abort(new Error('timed out waiting for the condition')), this.c.renewDeadlineMs);
    const stop = () => attempt.abort();
    leading.addEventListener('abort', stop, { once: true });
    try {
      while (!attempt.signal.aborted) {
        try {
          if (await this.tryAcquireOrRenew(attempt.signal)) return true;
        } catch (e) {
          if (!attempt.signal.aborted) this.c.logger?.error(e instanceof LeaseStepError ? e.line : (e as Error).message);
        }
        // Another candidate holds the Lease (we were paused or cut off past the lease duration):
        // it stays theirs for a lease duration, longer than any retry within the renew deadline
        // (upstream retries to the deadline, a stale leader working beside the new one meanwhile).
        if (this.#leader !== '' && !this.isLeader) {
          attempt.abort(new Error(`the lease is held by ${this.#leader}`));
          break;
        }
        await sleep(this.c.retryPeriodMs, attempt.signal);
      }
      if (!leading.aborted) this.c.logger?.info(`failed to renew lease ${this.#lock}: ${(attempt.signal.reason as Error).message}`);
      return false;
    } finally {
      cancelDeadline();
      leading.removeEventListener('abort', stop);
    }
  }

  /**
   * Campaigns until leading, then runs `onStartedLeading` while renewing. Returns when `signal`
   * aborts or leadership is lost (after onStoppedLeading).
   */
  async run(cb: LeaderCallbacks, signal: AbortSignal): Promise<void> {
    const log = this.c.logger;
    let lastLeader = '';
    if (signal.aborted) return;
    log?.info(`attempting to acquire leader lease ${this.#lock}...`);
    // Acquire.
    for (;;) {
      if (signal.aborted) return;
      let ok = false;
      try {
        ok = await this.tryAcquireOrRenew(signal);
      } catch (e) {
        if (!signal.aborted) log?.error(e instanceof LeaseStepError ? e.line : `error retrieving resource lock ${this.#lock}: ${goClientErrorText(e)}`);
      }
      if (this.#leader !== lastLeader) { lastLeader = this.#leader; if (lastLeader) cb.onNewLeader?.(lastLeader); }
      if (ok) break;
      log?.v(4).info(`failed to acquire lease ${this.#lock}`);
      await sleep(standbyWaitMs(this.c.retryPeriodMs), signal);
    }
    // In acquire()'s order: the event (which names our identity), the metric, then the line.
    this.#event('became leader');
    this.c.metrics?.leaderOn(this.c.name);
    log?.info(`successfully acquired lease ${this.#lock}`);
    this.#leading = true;
    const leading = new AbortController();
    // The fence closes with the term, before the work is told to stop.
    const stopLeading = () => { this.#leading = false; leading.abort(); };
    signal.addEventListener('abort', stopLeading, { once: true });
    const work = Promise.resolve().then(() => cb.onStartedLeading(leading.signal));
    // Renew. As renew()'s wait.Until: the first renewal at once, then one retry period after each
    // renewal ends (a sliding period).
    while (!leading.signal.aborted) {
      if (!(await this.#renew(leading.signal))) {
        if (leading.signal.aborted) break;
        // What follows is the caller's to say (kube-controller-manager's OnStoppedLeading: "leaderelection lost").
        stopLeading();
        break;
      }
      await sleep(this.c.retryPeriodMs, leading.signal);
    }
    signal.removeEventListener('abort', stopLeading);
    this.#leading = false;
    this.#event('stopped leading');
    this.c.metrics?.leaderOff(this.c.name);
    await work.catch((e: Error) => log?.error('leading work failed', { error: e.message }));
    if (signal.aborted && this.c.releaseOnCancel) await this.#release();
    cb.onStoppedLeading?.();
  }
}
