// core/v1 Event (`/api/v1/namespaces/{ns}/events`, `/api/v1/events`), as upstream's event registry
// serves it: every verb, create on update and unconditional updates allowed, v1 validation
// (validation.ts), upstream's selectable fields, the printEvent Table (table.ts), no garbage
// collection policy (a DELETE's propagation sets no finalizers). Retention (--event-ttl) is the
// sweeper's (ttl-sweeper.ts).
import type { CoreEvent } from '../../core/api/event.js';
import type { ResourceDefinition } from '../../core/registry/resource.js';
import type { Strategy } from '../../core/registry/strategy.js';
import { EVENT_DESCRIPTION, eventSchema } from './schema.js';
import { eventTable } from './table.js';
import { validateEvent } from './validation.js';
import { goZeroFields } from './go-zero-fields.js';

/** An ObjectReference's selectable fields under `prefix` (involvedObject, events/v1's regarding). */
export function referenceFields(prefix: string, o: NonNullable<CoreEvent['involvedObject']>): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const k of ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'] as const) fields[`${prefix}.${k}`] = o[k] ?? '';
  return fields;
}

/** ToSelectableFields, beyond metadata.name and metadata.namespace (`source` falls back to the reporting controller). */
export function eventSelectableFields(e: CoreEvent): Record<string, string> {
  return {
    ...referenceFields('involvedObject', e.involvedObject ?? {}),
    reason: e.reason ?? '',
    reportingComponent: e.reportingComponent ?? '',
    source: e.source?.component || e.reportingComponent || '',
    type: e.type ?? '',
  };
}

const strategy: Strategy<CoreEvent> = {
  validate: (_ctx, e) => validateEvent(e),
  validateUpdate: (_ctx, e) => validateEvent(e),
};

export const eventResource: ResourceDefinition<CoreEvent> = {
  group: '', version: 'v1', kind: 'Event', listKind: 'EventList', plural: 'events', singular: 'event',
  shortNames: ['ev'], scope: 'Namespaced', schema: eventSchema, description: EVENT_DESCRIPTION, strategy,
  defaults: goZeroFields,
  allowCreateOnUpdate: true, allowUnconditionalUpdate: true,
  garbageCollectionUnsupported: true,
  selectableFields: eventSelectableFields,
  table: eventTable,
};
