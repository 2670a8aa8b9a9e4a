// The events.platform/v1 Event schema (k8s.io/api/events/v1), fields in the Go struct's order and
// with upstream's descriptions for `kubectl explain`. Unset times are null, as Go writes them.
import { typeMetaProperties } from '../../core/api/object-meta-schema.js';
import type { JsonSchema } from '../../core/registry/resource.js';
import { microTime, objectReference, str, time } from './schema.js';

export const EVENTS_V1_DESCRIPTION = 'Event is a report of an event somewhere in the cluster. It generally denotes some state change in the system. Events have a limited retention time and triggers and messages may evolve with time.  Event consumers should not rely on the timing of an event with a given Reason reflecting a consistent underlying trigger, or the continued existence of events with that Reason.  Events should be treated as informative, best-effort, supplemental data.';

export const EVENTS_V1_DOCS = {
  eventTime: 'eventTime is the time when this Event was first observed. It is required.',
  series: "series is data about the Event series this event represents or nil if it's a singleton Event.",
  reportingController: 'reportingController is the name of the controller that emitted this Event, e.g. `kubernetes.io/kubelet`. This field cannot be empty for new Events.',
  reportingInstance: 'reportingInstance is the ID of the controller instance, e.g. `kubelet-xyzf`. This field cannot be empty for new Events and it can have at most 128 characters.',
  action: 'action is what action was taken/failed regarding to the regarding object. It is machine-readable. This field cannot be empty for new Events and it can have at most 128 characters.',
  reason: 'reason is why the action was taken. It is human-readable. This field cannot be empty for new Events and it can have at most 128 characters.',
  regarding: "regarding contains the object this Event is about. In most cases it's an Object reporting controller implements, e.g. ReplicaSetController implements ReplicaSets and this event is emitted because it acts on some changes in a ReplicaSet object.",
  related: 'related is the optional secondary object for more complex actions. E.g. when regarding object triggers a creation or deletion of related object.',
  note: 'note is a human-readable description of the status of this operation. Maximal length of the note is 1kB, but libraries should be prepared to handle values up to 64kB.',
  type: 'type is the type of this event (Normal, Warning), new types could be added in the future. It is machine-readable. This field cannot be empty for new Events.',
  deprecatedSource: 'deprecatedSource is the deprecated field assuring backward compatibility with core.v1 Event type.',
  deprecatedFirstTimestamp: 'deprecatedFirstTimestamp is the deprecated field assuring backward compatibility with core.v1 Event type.',
  deprecatedLastTimestamp: 'deprecatedLastTimestamp is the deprecated field assuring backward compatibility with core.v1 Event type.',
  deprecatedCount: 'deprecatedCount is the deprecated field assuring backward compatibility with core.v1 Event type.',
} as const;

export const eventsV1Schema: JsonSchema = {
  type: 'object', 'x-go-type': 'v1.Event', description: EVENTS_V1_DESCRIPTION,
  properties: {
    ...typeMetaProperties,
    eventTime: microTime(EVENTS_V1_DOCS.eventTime),
    series: {
      type: 'object', 'x-go-type': 'v1.EventSeries', description: EVENTS_V1_DOCS.series,
      properties: {
        count: { type: 'integer', format: 'int32', description: 'count is the number of occurrences in this series up to the last heartbeat time.' },
        lastObservedTime: microTime('lastObservedTime is the time when last Event from the series was seen before last heartbeat.'),
      },
    },
    reportingController: str(EVENTS_V1_DOCS.reportingController),
    reportingInstance: str(EVENTS_V1_DOCS.reportingInstance),
    action: str(EVENTS_V1_DOCS.action),
    reason: str(EVENTS_V1_DOCS.reason),
    regarding: objectReference(EVENTS_V1_DOCS.regarding),
    related: objectReference(EVENTS_V1_DOCS.related),
    note: str(EVENTS_V1_DOCS.note),
    type: str(EVENTS_V1_DOCS.type),
    deprecatedSource: {
      type: 'object', 'x-go-type': 'v1.EventSource', description: EVENTS_V1_DOCS.deprecatedSource,
      properties: { component: str('Component from which the event is generated.'), host: str('Node name on which the event is generated.') },
    },
    deprecatedFirstTimestamp: time(EVENTS_V1_DOCS.deprecatedFirstTimestamp),
    deprecatedLastTimestamp: time(EVENTS_V1_DOCS.deprecatedLastTimestamp),
    deprecatedCount: { type: 'integer', format: 'int32', description: EVENTS_V1_DOCS.deprecatedCount },
  },
};
