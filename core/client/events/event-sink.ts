// Where a broadcaster writes Events (client-go's EventSink): create, and the strategic merge patch
// of an Event seen again. restEventSink writes core/v1 Events through a RestClient, whose QPS and
// burst are the recorder's rate limit (the node agent's --event-qps/--event-burst client).
import type { CoreEvent } from '../../api/event.js';
import { objectPath, resourcePath, type RestClient } from '../rest-client.js';
import { TokenBucket } from '../token-bucket.js';

export interface EventSink {
  create(event: CoreEvent): Promise<CoreEvent>;
  patch(event: CoreEvent, patch: Record<string, unknown>): Promise<CoreEvent>;
}

const events = (namespace: string) => ({ group: '', version: 'v1', plural: 'events', namespace, kind: 'Event' });

/** A namespace-less Event cannot be written (EventSinkImpl refuses it as a request construction error). */
export class EventConstructionError extends Error {
  override readonly name = 'EventConstructionError';
}

/** An event client's own rate limit (the kubelet's eventRecordQPS and eventBurst). */
export interface EventClientLimits {
  /** 0 means 5, as a rest.Config's QPS. */
  readonly qps: number;
  /** 0 means 10, as a rest.Config's Burst. */
  readonly burst: number;
}

/** rest.Config's defaults for a QPS or burst of 0. */
export const DEFAULT_EVENT_CLIENT_QPS = 5;
export const DEFAULT_EVENT_CLIENT_BURST = 10;

/**
 * Writes through `client` (or the client `client()` gives now: a node's, whose certificate rotates).
 * With `limits` the writes wait for that bucket instead of the client's own limit, as the kubelet's
 * separate event client does.
 */
export function restEventSink(client: RestClient | (() => RestClient), limits?: EventClientLimits): EventSink {
  const current = typeof client === 'function' ? client : () => client;
  const bucket = limits ? new TokenBucket(limits.qps || DEFAULT_EVENT_CLIENT_QPS, limits.burst || DEFAULT_EVENT_CLIENT_BURST) : undefined;
  const ns = (e: CoreEvent): string => {
    if (!e.metadata.namespace) throw new EventConstructionError(`can't write an event with an empty namespace: ${e.metadata.name ?? ''}`);
    return e.metadata.namespace;
  };
  const send = async (method: 'POST' | 'PATCH', path: string, body: unknown, contentType?: string): Promise<CoreEvent> => {
    if (bucket) await bucket.wait();
    return current().request<CoreEvent>(method, path, { body, ...(contentType ? { contentType } : {}), ...(bucket ? { unthrottled: true } : {}) });
  };
  return {
    create: (e) => send('POST', resourcePath(events(ns(e))), { apiVersion: 'v1', kind: 'Event', ...e }),
    patch: (e, patch) => send('PATCH', objectPath(events(ns(e)), e.metadata.name ?? ''), patch, 'application/strategic-merge-patch+json'),
  };
}
