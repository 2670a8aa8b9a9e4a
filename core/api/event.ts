// core/v1 Event as clients write it: the shape the Events resource (plugins/events) serves and the
// recorder (core/client/events) writes. Times are RFC 3339 strings; a Time or MicroTime that is
// unset is null on the wire, as Go marshals the zero time.
import type { ApiObject } from './meta.js';

/** v1.ObjectReference: what an Event is about. */
export interface ObjectReference {
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiVersion?: string;
  resourceVersion?: string;
  fieldPath?: string;
}

export interface EventSource { component?: string; host?: string }

export interface EventSeries { count?: number; lastObservedTime?: string | null }

export const EVENT_TYPE_NORMAL = 'Normal';
export const EVENT_TYPE_WARNING = 'Warning';

export interface CoreEvent extends ApiObject {
  involvedObject?: ObjectReference;
  reason?: string;
  message?: string;
  source?: EventSource;
  firstTimestamp?: string | null;
  lastTimestamp?: string | null;
  count?: number;
  type?: string;
  eventTime?: string | null;
  series?: EventSeries | null;
  action?: string;
  related?: ObjectReference | null;
  reportingComponent?: string;
  reportingInstance?: string;
}
