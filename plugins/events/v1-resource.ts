// events.platform/v1 Event (upstream's events.k8s.io/v1): the core/v1 Events' records served in the
// events/v1 form (v1-conversion.ts) through the same storage keys (ResourceDefinition.storedAs), so
// an Event written through either version is read, listed, watched, patched and deleted through the
// other, and one --event-ttl sweeper keeps both. The rest is upstream's event registry with an
// events.k8s.io/v1 request version: the strict validation (v1-validation.ts), a DNS-subdomain name,
// AddFieldLabelConversionsForEvent's selectors, printEvent's Table.
import type { ApiObject } from '../../core/api/meta.js';
import type { CoreEvent } from '../../core/api/event.js';
import type { ResourceDefinition } from '../../core/registry/resource.js';
import type { Strategy } from '../../core/registry/strategy.js';
import { nameIsDnsSubdomain } from '../../core/api/selectors/label-syntax.js';
import { referenceFields } from './resource.js';
import { eventTable } from './table.js';
import { eventFromV1, eventToV1, EVENTS_GROUP, type EventsV1Event } from './v1-conversion.js';
import { EVENTS_V1_DESCRIPTION, eventsV1Schema } from './v1-schema.js';
import { validateV1EventCreate, validateV1EventUpdate } from './v1-validation.js';

/**
 * AddFieldLabelConversionsForEvent of events/v1: its labels, read from the core fields they map to
 * (ToSelectableFields); `source` is still the source component, else the reporting controller.
 * Anything else (`involvedObject.kind` included) is `field label not supported`.
 */
export function eventsV1SelectableFields(e: EventsV1Event): Record<string, string> {
  return {
    reason: e.reason ?? '',
    ...referenceFields('regarding', e.regarding ?? {}),
    reportingController: e.reportingController ?? '',
    source: e.deprecatedSource?.component || e.reportingController || '',
    type: e.type ?? '',
  };
}

const strategy: Strategy<EventsV1Event> = {
  validate: (_ctx, e) => validateV1EventCreate(eventFromV1(e)),
  validateUpdate: (_ctx, e, old) => validateV1EventUpdate(eventFromV1(e), eventFromV1(old)),
};

/** The fields Go always writes in an events/v1 Event: regarding and deprecatedSource, the times. */
function goZeroV1Fields(e: EventsV1Event): void {
  e.eventTime ??= null;
  if (e.series && typeof e.series === 'object') {
    e.series.count ??= 0;
    e.series.lastObservedTime ??= null;
  }
  e.regarding ??= {};
  e.deprecatedSource ??= {};
  e.deprecatedFirstTimestamp ??= null;
  e.deprecatedLastTimestamp ??= null;
}

export const eventsV1Resource: ResourceDefinition<EventsV1Event> = {
  group: EVENTS_GROUP, version: 'v1', kind: 'Event', listKind: 'EventList', plural: 'events', singular: 'event',
  shortNames: ['ev'], scope: 'Namespaced', schema: eventsV1Schema, description: EVENTS_V1_DESCRIPTION, strategy,
  defaults: goZeroV1Fields,
  allowCreateOnUpdate: true, allowUnconditionalUpdate: true,
  garbageCollectionUnsupported: true,
  selectableFields: eventsV1SelectableFields,
  validateName: nameIsDnsSubdomain,
  table: { columns: eventTable.columns, cells: (e, now) => eventTable.cells(eventFromV1(e), now) },
  storedAs: {
    group: '', plural: 'events',
    fromStored: (stored: ApiObject) => eventToV1(stored as CoreEvent),
    toStored: (obj: ApiObject) => eventFromV1(obj as EventsV1Event),
  },
};
