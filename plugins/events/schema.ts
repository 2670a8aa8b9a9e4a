// The core/v1 Event schema, fields in the Go struct's order (the order objects are written in) and
// with upstream's descriptions for `kubectl explain`. Unset times are null, as Go writes them.
import { MICRO_TIME_GO_TYPE } from '../../core/api/go-time-fields.js';
import { typeMetaProperties } from '../../core/api/object-meta-schema.js';
import type { JsonSchema } from '../../core/registry/resource.js';

export const EVENT_DESCRIPTION = 'Event is a report of an event somewhere in the cluster.  Events have a limited retention time and triggers and messages may evolve with time.  Event consumers should not rely on the timing of an event with a given Reason reflecting a consistent underlying trigger, or the continued existence of events with that Reason.  Events should be treated as informative, best-effort, supplemental data.';

export const EVENT_DOCS = {
  involvedObject: 'The object that this event is about.',
  reason: "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.",
  message: 'A human-readable description of the status of this operation.',
  source: 'The component reporting this event. Should be a short machine understandable string.',
  firstTimestamp: 'The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)',
  lastTimestamp: 'The time at which the most recent occurrence of this event was recorded.',
  count: 'The number of times this event has occurred.',
  type: 'Type of this event (Normal, Warning), new types could be added in the future',
  eventTime: 'Time when this Event was first observed.',
  series: "Data about the Event series this event represents or nil if it's a singleton Event.",
  action: 'What action was taken/failed regarding to the Regarding object.',
  related: 'Optional secondary object for more complex actions.',
  reportingComponent: 'Name of the controller that emitted this Event, e.g. `kubernetes.io/kubelet`.',
  reportingInstance: 'ID of the controller instance, e.g. `kubelet-xyzf`.',
} as const;

export const OBJECT_REFERENCE_DOCS = {
  kind: 'Kind of the referent. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds',
  namespace: 'Namespace of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/namespaces/',
  name: 'Name of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names',
  uid: 'UID of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#uids',
  apiVersion: 'API version of the referent.',
  resourceVersion: 'Specific resourceVersion to which this reference is made, if any. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#concurrency-control-and-consistency',
  fieldPath: 'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2]. For example, if the object reference is to a container within a pod, this would take on a value like: "spec.containers{name}" (where "name" refers to the name of the container that triggered the event) or if no container name is specified "spec.containers[2]" (container with index 2 in this pod). This syntax is chosen only to have some well-defined way of referencing a part of an object.',
} as const;

export const str = (description: string): JsonSchema => ({ type: 'string', description });
export const time = (description: string): JsonSchema => ({ type: 'string', format: 'date-time', nullable: true, description });
export const microTime = (description: string): JsonSchema => ({ ...time(description), 'x-go-type': MICRO_TIME_GO_TYPE });

export const objectReference = (description: string): JsonSchema => ({
  type: 'object', 'x-go-type': 'v1.ObjectReference', 'x-kubernetes-map-type': 'atomic', description,
  properties: {
    kind: str(OBJECT_REFERENCE_DOCS.kind),
    namespace: str(OBJECT_REFERENCE_DOCS.namespace),
    name: str(OBJECT_REFERENCE_DOCS.name),
    uid: { ...str(OBJECT_REFERENCE_DOCS.uid), 'x-go-type': 'types.UID' },
    apiVersion: str(OBJECT_REFERENCE_DOCS.apiVersion),
    resourceVersion: str(OBJECT_REFERENCE_DOCS.resourceVersion),
    fieldPath: str(OBJECT_REFERENCE_DOCS.fieldPath),
  },
});

export const eventSchema: JsonSchema = {
  type: 'object', 'x-go-type': 'v1.Event', description: EVENT_DESCRIPTION,
  properties: {
    ...typeMetaProperties,
    involvedObject: objectReference(EVENT_DOCS.involvedObject),
    reason: str(EVENT_DOCS.reason),
    message: str(EVENT_DOCS.message),
    source: {
      type: 'object', 'x-go-type': 'v1.EventSource', description: EVENT_DOCS.source,
      properties: { component: str('Component from which the event is generated.'), host: str('Node name on which the event is generated.') },
    },
    firstTimestamp: time(EVENT_DOCS.firstTimestamp),
    lastTimestamp: time(EVENT_DOCS.lastTimestamp),
    count: { type: 'integer', format: 'int32', description: EVENT_DOCS.count },
    type: str(EVENT_DOCS.type),
    eventTime: microTime(EVENT_DOCS.eventTime),
    series: {
      type: 'object', 'x-go-type': 'v1.EventSeries', description: EVENT_DOCS.series,
      properties: {
        count: { type: 'integer', format: 'int32', description: 'Number of occurrences in this series up to the last heartbeat time' },
        lastObservedTime: microTime('Time of the last occurrence observed'),
      },
    },
    action: str(EVENT_DOCS.action),
    related: objectReference(EVENT_DOCS.related),
    reportingComponent: str(EVENT_DOCS.reportingComponent),
    reportingInstance: str(EVENT_DOCS.reportingInstance),
  },
};
