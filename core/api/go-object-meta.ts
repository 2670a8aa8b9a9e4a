// Go's `%#v` of a metav1.ObjectMeta value, as field.Invalid prints one ("metadata: Invalid value:
// v1.ObjectMeta{...}: must be empty" of the access reviews): every field in declaration order,
// nil slices, maps and pointers with their types. Go prints a non-nil pointer nested in a struct
// (an owner reference's `controller`, a managed-fields entry's `fieldsV1`) as its address, which
// is nothing plat has; it prints NON_NIL_ADDRESS there, in Go's form.
import { goQuote } from '../go-quote.js';
import { parseGoTime, RFC3339 } from './go-time.js';
import type { ManagedFieldsEntry, ObjectMeta, OwnerReference } from './meta.js';

const NON_NIL_ADDRESS = '0xc000000000';
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** time.Time.GoString; a metav1.Time decoded from JSON is in time.Local, the zero one in UTC. */
function goTimeValue(text: string | null | undefined): string {
  if (!text) return 'time.Date(1, time.January, 1, 0, 0, 0, 0, time.UTC)';
  let nanos = 0;
  let d: Date;
  try {
    const t = parseGoTime(text, RFC3339);
    nanos = t.nanos;
    d = new Date(t.seconds * 1000);
  } catch {
    d = new Date(text);
  }
  return `time.Date(${d.getFullYear()}, time.${MONTHS[d.getMonth()]}, ${d.getDate()}, ${d.getHours()}, ${d.getMinutes()}, ${d.getSeconds()}, ${nanos}, time.Local)`;
}

/** A *metav1.Time field: fmt calls its GoString, and prints `<nil>` when the nil receiver panics. */
const goTimePointer = (text: string | null | undefined): string => (text ? goTimeValue(text) : '<nil>');
const goPointer = (type: string, set: boolean): string => `(*${type})(${set ? NON_NIL_ADDRESS : 'nil'})`;

/** A []string as `%#v` prints it (field.Invalid's value for a list of strings). */
export const goStrings = (v: readonly string[] | undefined): string => goSlice('string', v, goQuote);

/** fmt prints map keys sorted. */
function goStringMap(m: Readonly<Record<string, string>> | undefined): string {
  if (!m) return 'map[string]string(nil)';
  const keys = Object.keys(m).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  return `map[string]string{${keys.map((k) => `${goQuote(k)}:${goQuote(m[k]!)}`).join(', ')}}`;
}

/** A v1.OwnerReference as `%#v` prints it (field.Invalid's value for a banned owner). */
export const goOwnerReference = (r: OwnerReference): string =>
  `v1.OwnerReference{APIVersion:${goQuote(r.apiVersion ?? '')}, Kind:${goQuote(r.kind ?? '')}, Name:${goQuote(r.name ?? '')}, UID:${goQuote(r.uid ?? '')}, ` +
  `Controller:${goPointer('bool', r.controller !== undefined)}, BlockOwnerDeletion:${goPointer('bool', r.blockOwnerDeletion !== undefined)}}`;

const goManagedFieldsEntry = (e: ManagedFieldsEntry): string =>
  `v1.ManagedFieldsEntry{Manager:${goQuote(e.manager ?? '')}, Operation:${goQuote(e.operation ?? '')}, APIVersion:${goQuote(e.apiVersion ?? '')}, ` +
  `Time:${goTimePointer(e.time)}, FieldsType:${goQuote(e.fieldsType ?? '')}, FieldsV1:${goPointer('v1.FieldsV1', e.fieldsV1 !== undefined && e.fieldsV1 !== null)}, ` +
  `Subresource:${goQuote(e.subresource ?? '')}}`;

export const goSlice = <T>(type: string, v: readonly T[] | undefined, each: (x: T) => string): string =>
  (v ? `[]${type}{${v.map(each).join(', ')}}` : `[]${type}(nil)`);

export function goObjectMeta(m: ObjectMeta): string {
  return 'v1.ObjectMeta{' + [
    `Name:${goQuote(m.name ?? '')}`,
    `GenerateName:${goQuote(m.generateName ?? '')}`,
    `Namespace:${goQuote(m.namespace ?? '')}`,
    `SelfLink:${goQuote(m.selfLink ?? '')}`,
    `UID:${goQuote(m.uid ?? '')}`,
    `ResourceVersion:${goQuote(m.resourceVersion ?? '')}`,
    `Generation:${m.generation ?? 0}`,
    `CreationTimestamp:${goTimeValue(m.creationTimestamp)}`,
    `DeletionTimestamp:${goTimePointer(m.deletionTimestamp)}`,
    `DeletionGracePeriodSeconds:${goPointer('int64', m.deletionGracePeriodSeconds !== undefined && m.deletionGracePeriodSeconds !== null)}`,
    `Labels:${goStringMap(m.labels)}`,
    `Annotations:${goStringMap(m.annotations)}`,
    `OwnerReferences:${goSlice('v1.OwnerReference', m.ownerReferences, goOwnerReference)}`,
    `Finalizers:${goStrings(m.finalizers)}`,
    `ManagedFields:${goSlice('v1.ManagedFieldsEntry', m.managedFields, goManagedFieldsEntry)}`,
  ].join(', ') + '}';
}
