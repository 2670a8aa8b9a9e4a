// client-go's record.EventBroadcaster and EventRecorder: a recorder makes a core/v1 Event of an
// object, its source (component and host) and reason, and hands it on without waiting: each
// watcher (a sink writer, the structured log) has a queue of 1000 Events, and an Event that finds a
// queue full is dropped with an error line, as upstream's broadcaster with DropIfChannelFull (the
// structured log is written at once). A
// sink writer takes its queue one Event at a time through recordToSink (the correlator, retries).
// Nothing a recorder does can block or fail its caller.
import type { CoreEvent, EventSource, ObjectReference } from '../../api/event.js';
import { EVENT_TYPE_NORMAL, EVENT_TYPE_WARNING } from '../../api/event.js';
import type { ApiObject } from '../../api/meta.js';
import { rfc3339 } from '../../api/meta.js';
import { sleep } from '../../abort-wait.js';
import { silentLogger, type Logger } from '../../log.js';
import { EventCorrelator, eventName, type EventCorrelatorOptions } from './event-correlator.js';
import type { EventSink } from './event-sink.js';
import { recordToSink } from './record-to-sink.js';

/** maxQueuedEvents. */
export const MAX_QUEUED_EVENTS = 1000;

export interface EventRecorder {
  /** Records an Event about `object` (an API object, or a reference to one); never throws or waits. */
  event(object: ApiObject | ObjectReference, type: string, reason: string, message: string): void;
}

export interface EventBroadcasterOptions extends EventCorrelatorOptions {
  readonly logger?: Logger;
  readonly queueLength?: number;
  /** recordToSink's sleep between tries (10 s). */
  readonly sleepMs?: number;
  readonly random?: () => number;
}

/** reference.GetReference of an API object; a reference is taken as it is. */
export function referenceOf(object: ApiObject | ObjectReference): ObjectReference {
  if (!('metadata' in object) || typeof object.metadata !== 'object' || object.metadata === null) return { ...(object as ObjectReference) };
  const o = object as ApiObject;
  const ref: ObjectReference = {};
  if (o.kind) ref.kind = o.kind;
  if (o.metadata.namespace) ref.namespace = o.metadata.namespace;
  if (o.metadata.name) ref.name = o.metadata.name;
  if (o.metadata.uid) ref.uid = o.metadata.uid;
  if (o.apiVersion) ref.apiVersion = o.apiVersion;
  if (o.metadata.resourceVersion) ref.resourceVersion = o.metadata.resourceVersion;
  return ref;
}

interface Watcher { push(e: CoreEvent): boolean; stop(): void }

export class EventBroadcaster {
  readonly #o: EventBroadcasterOptions;
  readonly #log: Logger;
  readonly #now: () => number;
  readonly #watchers = new Set<Watcher>();
  readonly #loggers = new Set<(e: CoreEvent) => void>();
  readonly #stopped = new AbortController();

  constructor(o: EventBroadcasterOptions = {}) {
    this.#o = o;
    this.#log = o.logger ?? silentLogger;
    this.#now = o.now ?? Date.now;
  }

  /** NewRecorder: Events from `source` (Source, ReportingController = its component, ReportingInstance = its host). */
  newRecorder(source: EventSource): EventRecorder {
    return {
      event: (object, type, reason, message) => {
        try {
          this.#generate(source, object, type, reason, message);
        } catch (e) {
          this.#log.error('Could not record event', { reason, err: (e as Error).message });
        }
      },
    };
  }

  #generate(source: EventSource, object: ApiObject | ObjectReference, type: string, reason: string, message: string): void {
    if (this.#stopped.signal.aborted) return;
    if (type !== EVENT_TYPE_NORMAL && type !== EVENT_TYPE_WARNING) {
      this.#log.error('Unsupported event type', { eventType: type });
      return;
    }
    const ref = referenceOf(object);
    const now = this.#now();
    const t = rfc3339(new Date(now));
    const event: CoreEvent = {
      metadata: { name: eventName(ref.name, now), namespace: ref.namespace || 'default' },
      involvedObject: ref, reason, message, firstTimestamp: t, lastTimestamp: t, count: 1, type,
      source: { ...source }, reportingComponent: source.component ?? '', reportingInstance: source.host ?? '',
    };
    for (const log of this.#loggers) log(event);
    for (const w of this.#watchers) {
      if (!w.push(event)) this.#log.error('Unable to record event: too many queued events, dropped event', { event: `${event.metadata.namespace}/${event.metadata.name}`, reason });
    }
  }

  /**
   * StartStructuredLogging: each Event as an `Event occurred` line at V(verbosity). Written as the
   * Event is recorded (a line costs nothing worth queueing), so it comes before the caller's next line.
   */
  startStructuredLogging(verbosity: number, logger: Logger = this.#log): () => void {
    const log = (e: CoreEvent) => {
      const o = e.involvedObject ?? {};
      logger.v(verbosity).info('Event occurred', {
        object: o.namespace ? `${o.namespace}/${o.name ?? ''}` : (o.name ?? ''), fieldPath: o.fieldPath ?? '', kind: o.kind ?? '', apiVersion: o.apiVersion ?? '',
        type: e.type ?? '', reason: e.reason ?? '', message: e.message ?? '',
      });
    };
    this.#loggers.add(log);
    return () => { this.#loggers.delete(log); };
  }

  /** StartRecordingToSink: a correlator of its own and a queue written one Event at a time. */
  startRecordingToSink(sink: EventSink): () => void {
    const correlator = new EventCorrelator({ ...this.#o, now: this.#now });
    const signal = this.#stopped.signal;
    return this.#watch((e) => recordToSink(sink, e, correlator, {
      logger: this.#log, sleep: (ms) => sleep(ms, signal), stopped: () => signal.aborted,
      ...(this.#o.sleepMs !== undefined ? { sleepMs: this.#o.sleepMs } : {}), ...(this.#o.random ? { random: this.#o.random } : {}),
    }));
  }

  #watch(handle: (e: CoreEvent) => Promise<void>): () => void {
    const max = this.#o.queueLength ?? MAX_QUEUED_EVENTS;
    const queue: CoreEvent[] = [];
    let running: Promise<void> | undefined;
    let stopped = false;
    const drain = async () => {
      while (queue.length) {
        const e = queue.shift()!;
        try { await handle(e); } catch (err) { this.#log.error('event watcher failed', { err: (err as Error).message }); }
      }
      running = undefined;
    };
    const watcher: Watcher = {
      push: (e) => {
        if (stopped) return true;
        if (queue.length >= max) return false;
        queue.push(e);
        running ??= Promise.resolve().then(drain);
        return true;
      },
      stop: () => { stopped = true; this.#watchers.delete(watcher); },
    };
    this.#watchers.add(watcher);
    return () => watcher.stop();
  }

  /**
   * Shutdown: no more Events. Those queued are still written in the background (as upstream's
   * broadcaster hands on what it has queued), each tried once at most, since retries no longer
   * wait; nothing waits for them, so a server that does not answer holds up no one's stop.
   */
  shutdown(): void {
    this.#stopped.abort();
    for (const w of [...this.#watchers]) w.stop();
  }
}
