// client-go's EventCorrelator (tools/record/events_cache.go), which every Event a recorder sends
// passes through before the sink:
// - the aggregator: once 10 Events differing only in message are seen for one source, object,
//   type and reason within 10 minutes, the rest become one Event "(combined from similar events): <msg>";
// - the logger: an Event seen before (same source, object, type, reason and message) is not created
//   again but patched: its name and firstTimestamp kept, count one more, lastTimestamp now;
// - the spam filter: a token bucket per source and object (burst 25, refilled one every 5 minutes)
//   drops what is over it.
import type { CoreEvent } from '../../api/event.js';
import { rfc3339 } from '../../api/meta.js';
import { LruExpireCache } from '../../lru-expire-cache.js';

/** groupcache's LRU has no expiry: its entries go only when the cache is full. */
const NEVER = Number.POSITIVE_INFINITY;

export const MAX_LRU_CACHE_ENTRIES = 4096;
export const DEFAULT_AGGREGATE_MAX_EVENTS = 10;
export const DEFAULT_AGGREGATE_INTERVAL_SECONDS = 600;
export const DEFAULT_SPAM_BURST = 25;
export const DEFAULT_SPAM_QPS = 1 / 300;

export interface EventCorrelatorOptions {
  /** The wall clock in ms (Date.now). */
  readonly now?: () => number;
  readonly spamBurst?: number;
  readonly spamQps?: number;
  readonly aggregateMaxEvents?: number;
  readonly aggregateIntervalSeconds?: number;
}

export interface EventCorrelateResult {
  /** The Event to write (a copy: the caller's is not changed). */
  readonly event?: CoreEvent;
  /** A strategic merge patch of count, lastTimestamp and message when the Event exists already. */
  readonly patch?: Record<string, unknown>;
  /** The spam filter dropped it. */
  readonly skip: boolean;
}

const ref = (e: CoreEvent) => e.involvedObject ?? {};

/** getEventKey: everything that makes two Events the same occurrence. */
export function eventKey(e: CoreEvent): string {
  const o = ref(e);
  return [e.source?.component, e.source?.host, o.kind, o.namespace, o.name, o.fieldPath, o.uid, o.apiVersion, e.type, e.reason, e.message].map((s) => s ?? '').join('');
}

/** getSpamKey: the source and object (and type) a spam bucket is kept for. */
export function spamKey(e: CoreEvent): string {
  const o = ref(e);
  return [e.source?.component, e.source?.host, o.kind, o.namespace, o.name, o.uid, o.apiVersion, e.type].map((s) => s ?? '').join('');
}

/** EventAggregatorByReasonFunc: the group (everything but the message) and the member (the message). */
export function aggregateKeys(e: CoreEvent): [string, string] {
  const o = ref(e);
  return [[e.source?.component, e.source?.host, o.kind, o.namespace, o.name, o.uid, o.apiVersion, e.type, e.reason, e.reportingComponent, e.reportingInstance]
    .map((s) => s ?? '').join(''), e.message ?? ''];
}

/** flowcontrol's passive token bucket: TryAccept takes a token if one is there. */
class PassiveTokenBucket {
  #tokens: number;
  #last: number;
  constructor(private readonly qps: number, private readonly burst: number, private readonly now: () => number) {
    this.#tokens = burst;
    this.#last = now();
  }
  tryAccept(): boolean {
    const t = this.now();
    this.#tokens = Math.min(this.burst, this.#tokens + (Math.max(0, t - this.#last) / 1000) * this.qps);
    this.#last = t;
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }
}

interface AggregateRecord { localKeys: Set<string>; lastTimestamp: number }
interface EventLog { count: number; firstTimestamp: string | null | undefined; name: string; resourceVersion: string }

let lastNanos = 0n;

/**
 * The name upstream gives a recorded Event: the object's name, a dot, the time in ns as hex. A
 * JavaScript clock has whole milliseconds, where Go's has nanoseconds: two Events of one object
 * in the same millisecond would get one name (the second refused as AlreadyExists), so a time
 * already given is moved on by a nanosecond.
 */
export function eventName(objectName: string | undefined, ms: number): string {
  let ns = BigInt(Math.round(ms)) * 1_000_000n;
  if (ns <= lastNanos) ns = lastNanos + 1n;
  lastNanos = ns;
  return `${objectName ?? ''}.${ns.toString(16)}`;
}

export class EventCorrelator {
  readonly #now: () => number;
  readonly #spam = new LruExpireCache<PassiveTokenBucket>(MAX_LRU_CACHE_ENTRIES);
  readonly #aggregates = new LruExpireCache<AggregateRecord>(MAX_LRU_CACHE_ENTRIES);
  readonly #logs = new LruExpireCache<EventLog>(MAX_LRU_CACHE_ENTRIES);
  readonly #o: Required<Omit<EventCorrelatorOptions, 'now'>>;

  constructor(o: EventCorrelatorOptions = {}) {
    this.#now = o.now ?? Date.now;
    this.#o = {
      spamBurst: o.spamBurst ?? DEFAULT_SPAM_BURST, spamQps: o.spamQps ?? DEFAULT_SPAM_QPS,
      aggregateMaxEvents: o.aggregateMaxEvents ?? DEFAULT_AGGREGATE_MAX_EVENTS,
      aggregateIntervalSeconds: o.aggregateIntervalSeconds ?? DEFAULT_AGGREGATE_INTERVAL_SECONDS,
    };
  }

  /** EventCorrelate: aggregate, then observe (dedup), then the spam filter. */
  correlate(event: CoreEvent): EventCorrelateResult {
    const [aggregated, key] = this.#aggregate(event);
    const [observed, patch] = this.#observe(aggregated, key);
    if (this.#filter(observed)) return { skip: true };
    return { event: observed, ...(patch ? { patch } : {}), skip: false };
  }

  /** UpdateState: what the server answered (its name and resourceVersion) is what later patches name. */
  updateState(event: CoreEvent): void {
    this.#logs.set(eventKey(event), {
      count: event.count ?? 0, firstTimestamp: event.firstTimestamp, name: event.metadata.name ?? '', resourceVersion: event.metadata.resourceVersion ?? '',
    }, NEVER);
  }

  #filter(event: CoreEvent): boolean {
    const key = spamKey(event);
    let bucket = this.#spam.get(key);
    if (!bucket) bucket = new PassiveTokenBucket(this.#o.spamQps, this.#o.spamBurst, this.#now);
    const filtered = !bucket.tryAccept();
    this.#spam.set(key, bucket, NEVER);
    return filtered;
  }

  #aggregate(event: CoreEvent): [CoreEvent, string] {
    const now = this.#now();
    const key = eventKey(event);
    const [aggregateKey, localKey] = aggregateKeys(event);
    let record = this.#aggregates.get(aggregateKey);
    if (!record || now - record.lastTimestamp > this.#o.aggregateIntervalSeconds * 1000) record = { localKeys: new Set(), lastTimestamp: 0 };
    record.localKeys.add(localKey);
    record.lastTimestamp = now;
    this.#aggregates.set(aggregateKey, record, NEVER);
    if (record.localKeys.size < this.#o.aggregateMaxEvents) return [event, key];
    // Keep the set from growing past the threshold (sets.String.PopAny takes any member).
    record.localKeys.delete(record.localKeys.values().next().value as string);
    const stamp = rfc3339(new Date(now));
    const combined: CoreEvent = {
      metadata: { name: eventName(event.involvedObject?.name, now), namespace: event.metadata.namespace ?? '' },
      count: 1, firstTimestamp: stamp, involvedObject: event.involvedObject ?? {}, lastTimestamp: stamp,
      message: `(combined from similar events): ${event.message ?? ''}`, type: event.type ?? '', reason: event.reason ?? '', source: event.source ?? {},
    };
    return [combined, aggregateKey];
  }

  #observe(event: CoreEvent, key: string): [CoreEvent, Record<string, unknown> | undefined] {
    const copy: CoreEvent = { ...event, metadata: { ...event.metadata } };
    const last = this.#logs.get(key);
    let patch: Record<string, unknown> | undefined;
    if (last && last.count > 0) {
      copy.metadata.name = last.name;
      copy.metadata.resourceVersion = last.resourceVersion;
      copy.firstTimestamp = last.firstTimestamp ?? null;
      copy.count = last.count + 1;
      // CreateTwoWayMergePatch of the Event without count, lastTimestamp and message to the Event.
      patch = { count: copy.count, lastTimestamp: copy.lastTimestamp ?? null, ...(copy.message ? { message: copy.message } : {}) };
    }
    this.#logs.set(key, { count: copy.count ?? 0, firstTimestamp: copy.firstTimestamp, name: copy.metadata.name ?? '', resourceVersion: copy.metadata.resourceVersion ?? '' }, NEVER);
    return [copy, patch];
  }
}
