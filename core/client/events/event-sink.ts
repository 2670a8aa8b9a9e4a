// Where a broadcaster writes Events (client-go's EventSink): create, and the strategic merge patch
// of an Event seen again. restEventSink writes core/v1 Events through a RestClient, whose QPS and
// burst are the recorder's rate limit (the node agent's --event-qps/--event-burst client).
import type { CoreEvent } from '../../api/event.js';
import type { RestClient } from '../rest-client.js';

export interface EventSink {
  create(event: CoreEvent): Promise<CoreEvent>;
  patch(event: CoreEvent, patch: Record<string, unknown>): Promise<CoreEvent>;
}

const events = (namespace: string) => ({ group: '', version: 'v1', plural: 'events', namespace, kind: 'Event' });

/** A namespace-less Event cannot be written (EventSinkImpl refuses it as a request construction error). */
export class EventConstructionError extends Error {
  override readonly name = 'EventConstructionError';
}

export function restEventSink(client: RestClient): EventSink {
  const ns = (e: CoreEvent): string => {
    if (!e.metadata.namespace) throw new EventConstructionError(`can't write an event with an empty namespace: ${e.metadata.name ?? ''}`);
    return e.metadata.namespace;
  };
  return {
    create: (e) => client.create<CoreEvent>(events(ns(e)), { apiVersion: 'v1', kind: 'Event', ...e }),
    patch: (e, patch) => client.patch<CoreEvent>(events(ns(e)), e.metadata.name ?? '', patch, 'application/strategic-merge-patch+json'),
  };
}
