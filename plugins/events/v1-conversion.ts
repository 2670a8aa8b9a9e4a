// events.platform/v1 Event <-> core/v1 Event, as upstream's Convert_v1_Event_To_core_Event and back
// (pkg/apis/events/v1/conversion.go): regarding is involvedObject, note is message,
// reportingController is reportingComponent, the deprecated* fields are source, firstTimestamp,
// lastTimestamp and count; everything else has one name. Each side is written in its Go struct's
// field order with the fields Go always writes, so the stored record is the one a core/v1 write
// leaves and an answer reads as upstream's.
import type { ApiObject } from '../../core/api/meta.js';
import type { CoreEvent, EventSeries, EventSource, ObjectReference } from '../../core/api/event.js';
import { goZeroFields } from './go-zero-fields.js';

export const EVENTS_GROUP = 'events.platform';
export const EVENTS_API_VERSION = `${EVENTS_GROUP}/v1`;

/** events/v1 Event (k8s.io/api/events/v1). */
export interface EventsV1Event extends ApiObject {
  eventTime?: string | null;
  series?: EventSeries | null;
  reportingController?: string;
  reportingInstance?: string;
  action?: string;
  reason?: string;
  regarding?: ObjectReference;
  related?: ObjectReference | null;
  note?: string;
  type?: string;
  deprecatedSource?: EventSource;
  deprecatedFirstTimestamp?: string | null;
  deprecatedLastTimestamp?: string | null;
  deprecatedCount?: number;
}

/** Only a field that is set (omitempty). */
const some = <K extends string, V>(key: K, value: V | undefined | null | '' | 0): Partial<Record<K, V>> =>
  (value === undefined || value === null || value === '' || value === 0 ? {} : { [key]: value } as Record<K, V>);

/** A stored core/v1 Event as events/v1 serves it: a new object (nested values are shared). */
export function eventToV1(e: CoreEvent): EventsV1Event {
  return {
    apiVersion: EVENTS_API_VERSION, kind: 'Event', metadata: e.metadata,
    eventTime: e.eventTime ?? null,
    // events/v1 EventSeries writes count and lastObservedTime always.
    ...(e.series ? { series: { count: e.series.count ?? 0, lastObservedTime: e.series.lastObservedTime ?? null } } : {}),
    ...some('reportingController', e.reportingComponent),
    ...some('reportingInstance', e.reportingInstance),
    ...some('action', e.action),
    ...some('reason', e.reason),
    regarding: e.involvedObject ?? {},
    ...some('related', e.related),
    ...some('note', e.message),
    ...some('type', e.type),
    deprecatedSource: e.source ?? {},
    deprecatedFirstTimestamp: e.firstTimestamp ?? null,
    deprecatedLastTimestamp: e.lastTimestamp ?? null,
    ...some('deprecatedCount', e.count),
  };
}

/** An events/v1 Event as core/v1 stores it: a new object (nested values are shared). */
export function eventFromV1(v: EventsV1Event): CoreEvent {
  const e: CoreEvent = {
    apiVersion: 'v1', kind: 'Event', metadata: v.metadata,
    involvedObject: v.regarding ?? {},
    ...some('reason', v.reason),
    ...some('message', v.note),
    source: v.deprecatedSource ?? {},
    firstTimestamp: v.deprecatedFirstTimestamp ?? null,
    lastTimestamp: v.deprecatedLastTimestamp ?? null,
    ...some('count', v.deprecatedCount),
    ...some('type', v.type),
    eventTime: v.eventTime ?? null,
    // core/v1 EventSeries omits a zero count.
    ...(v.series ? { series: { ...some('count', v.series.count), lastObservedTime: v.series.lastObservedTime ?? null } } : {}),
    ...some('action', v.action),
    ...some('related', v.related),
    reportingComponent: v.reportingController ?? '',
    reportingInstance: v.reportingInstance ?? '',
  };
  goZeroFields(e);
  return e;
}
