// ValidateEventCreate / ValidateEventUpdate with an events.k8s.io/v1 request version
// (pkg/apis/core/validation/events.go): legacyValidateEvent (validation.ts), then the strict rules.
// Upstream validates the internal (core) Event, so the field paths and the values in messages are
// the core ones (`involvedObject`, `message`, `source`, `firstTimestamp`), not events/v1's names;
// plat validates the converted core form to say the same. ObjectMeta (a DNS-subdomain name) is the
// generic store's, with the resource's validateName.
import { isDeepStrictEqual } from 'node:util';
import { fieldError, renderValue, type FieldError } from '../../core/api/field-errors.js';
import { EVENT_TYPE_NORMAL, EVENT_TYPE_WARNING, type CoreEvent, type EventSource, type ObjectReference } from '../../core/api/event.js';
import { goQuote } from '../../core/go-quote.js';
import { goTime } from '../../core/go-time-text.js';
import { validateEvent } from './validation.js';

const IMMUTABLE = 'field is immutable';

/** An unset Time or MicroTime (Go's zero time.Time). */
const zeroTime = (t: string | null | undefined): boolean => !t;

function validateSeries(e: CoreEvent): FieldError[] {
  const errs: FieldError[] = [];
  if (e.series) {
    if ((e.series.count ?? 0) < 2) errs.push(fieldError.invalid('series.count', '', 'should be at least 2'));
    if (zeroTime(e.series.lastObservedTime)) errs.push(fieldError.required('series.lastObservedTime', ''));
  }
  return errs;
}

export function validateV1EventCreate(e: CoreEvent): FieldError[] {
  const errs = validateEvent(e);
  errs.push(...validateSeries(e));
  if (zeroTime(e.eventTime)) errs.push(fieldError.required('eventTime', ''));
  const type = e.type ?? '';
  if (type !== EVENT_TYPE_NORMAL && type !== EVENT_TYPE_WARNING) errs.push(fieldError.invalid('type', '', `has invalid value: ${type}`));
  if (!zeroTime(e.firstTimestamp)) errs.push(fieldError.invalid('firstTimestamp', '', 'needs to be unset'));
  if (!zeroTime(e.lastTimestamp)) errs.push(fieldError.invalid('lastTimestamp', '', 'needs to be unset'));
  if ((e.count ?? 0) !== 0) errs.push(fieldError.invalid('count', '', 'needs to be unset'));
  if (e.source?.component || e.source?.host) errs.push(fieldError.invalid('source', '', 'needs to be unset'));
  return errs;
}

/** Go's `%#v` of a core ObjectReference, as field.Invalid prints a struct it has no String() for. */
function goObjectReference(r: ObjectReference): string {
  const f = (k: string, v: string | undefined) => `${k}:${goQuote(v ?? '')}`;
  return `core.ObjectReference{${[f('Kind', r.kind), f('Namespace', r.namespace), f('Name', r.name), f('UID', r.uid),
    f('APIVersion', r.apiVersion), f('ResourceVersion', r.resourceVersion), f('FieldPath', r.fieldPath)].join(', ')}}`;
}

const goEventSource = (s: EventSource): string => `core.EventSource{Component:${goQuote(s.component ?? '')}, Host:${goQuote(s.host ?? '')}}`;

/** A time as metav1.Time's String() prints it; the zero time as Go's zero. */
const goTimeValue = (t: string | null | undefined): string => (t ? goTime(new Date(t)) : '0001-01-01 00:00:00 +0000 UTC');

/** The internal struct's value: every field, unset ones as Go's zero. */
const goRef = (r: ObjectReference): Required<ObjectReference> => ({
  kind: r.kind ?? '', namespace: r.namespace ?? '', name: r.name ?? '', uid: r.uid ?? '', apiVersion: r.apiVersion ?? '',
  resourceVersion: r.resourceVersion ?? '', fieldPath: r.fieldPath ?? '',
});
const goSource = (s: EventSource): Required<EventSource> => ({ component: s.component ?? '', host: s.host ?? '' });
/** A time as an instant: two texts of one time are the same time. */
const instant = (t: string | null | undefined): number | null => (t ? Date.parse(t) : null);

/** ValidateImmutableField: Semantic.DeepEqual of the internal values (unset is the zero value), the new value as field.Invalid prints its Go type. */
function immutable(errs: FieldError[], field: string, now: unknown, was: unknown, goText: () => string): void {
  if (!isDeepStrictEqual(now, was)) errs.push({ type: 'FieldValueInvalid', field, message: `Invalid value: ${goText()}: ${IMMUTABLE}` });
}

export function validateV1EventUpdate(e: CoreEvent, old: CoreEvent): FieldError[] {
  const errs = validateEvent(e);
  if (!isDeepStrictEqual(e.series ?? null, old.series ?? null)) errs.push(...validateSeries(e));
  const text = (v: string | number) => () => renderValue(v);
  const ref = (r: ObjectReference) => () => goObjectReference(r);
  const time = (t: string | null) => () => goTimeValue(t);
  const io = e.involvedObject ?? {};
  immutable(errs, 'involvedObject', goRef(io), goRef(old.involvedObject ?? {}), ref(io));
  immutable(errs, 'reason', e.reason ?? '', old.reason ?? '', text(e.reason ?? ''));
  immutable(errs, 'message', e.message ?? '', old.message ?? '', text(e.message ?? ''));
  immutable(errs, 'source', goSource(e.source ?? {}), goSource(old.source ?? {}), () => goEventSource(e.source ?? {}));
  immutable(errs, 'firstTimestamp', instant(e.firstTimestamp), instant(old.firstTimestamp), time(e.firstTimestamp ?? null));
  immutable(errs, 'lastTimestamp', instant(e.lastTimestamp), instant(old.lastTimestamp), time(e.lastTimestamp ?? null));
  immutable(errs, 'count', e.count ?? 0, old.count ?? 0, text(e.count ?? 0));
  // Upstream checks reason twice; the answer's causes keep both.
  immutable(errs, 'reason', e.reason ?? '', old.reason ?? '', text(e.reason ?? ''));
  immutable(errs, 'type', e.type ?? '', old.type ?? '', text(e.type ?? ''));
  immutable(errs, 'eventTime', instant(e.eventTime), instant(old.eventTime), time(e.eventTime ?? null));
  immutable(errs, 'action', e.action ?? '', old.action ?? '', text(e.action ?? ''));
  // A nil *ObjectReference prints null.
  immutable(errs, 'related', e.related ? goRef(e.related) : null, old.related ? goRef(old.related) : null, e.related ? ref(e.related) : () => 'null');
  immutable(errs, 'reportingController', e.reportingComponent ?? '', old.reportingComponent ?? '', text(e.reportingComponent ?? ''));
  immutable(errs, 'reportingInstance', e.reportingInstance ?? '', old.reportingInstance ?? '', text(e.reportingInstance ?? ''));
  return errs;
}
