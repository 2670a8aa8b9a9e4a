// ValidateEventCreate/ValidateEventUpdate with an events.k8s.io/v1 request version, after upstream's
// events_test.go cases for v1 (TestValidateEventForCoreV1Events' events/v1 rows, TestEventV1EventTimeImmutability,
// TestEventV1EventSeriesImmutability): each case's field paths and messages.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CoreEvent } from '../../core/api/event.js';
import { validateV1EventCreate, validateV1EventUpdate } from '../../plugins/events/v1-validation.js';
import { eventFromV1, eventToV1 } from '../../plugins/events/v1-conversion.js';

const T = '2026-01-01T00:00:00.000000Z';
const valid = (over: Partial<CoreEvent> = {}): CoreEvent => ({
  apiVersion: 'v1', kind: 'Event', metadata: { name: 'e', namespace: 'default' },
  involvedObject: { kind: 'Node', name: 'n' }, reason: 'R', action: 'A', type: 'Normal', eventTime: T,
  reportingComponent: 'platform/c', reportingInstance: 'i', ...over,
});
const render = (errs: { field: string; message: string }[]) => errs.map((e) => `${e.field}: ${e.message}`);

describe('events/v1 validation', () => {
  const cases: [string, Partial<CoreEvent>, string[]][] = [
    ['valid', {}, []],
    ['no eventTime (legacy branch, then required)', { eventTime: null, action: '' }, ['eventTime: Required value']],
    ['type neither Normal nor Warning', { type: 'Other' }, ['type: Invalid value: "": has invalid value: Other']],
    ['series count below 2', { series: { count: 1, lastObservedTime: T } }, ['series.count: Invalid value: "": should be at least 2']],
    ['series without lastObservedTime', { series: { count: 2, lastObservedTime: null } }, ['series.lastObservedTime: Required value']],
    ['deprecated fields set', { firstTimestamp: T, lastTimestamp: T, count: 1, source: { host: 'h' } },
      ['firstTimestamp: Invalid value: "": needs to be unset', 'lastTimestamp: Invalid value: "": needs to be unset', 'count: Invalid value: "": needs to be unset', 'source: Invalid value: "": needs to be unset']],
    ['no reporting controller, instance, action, reason', { reportingComponent: '', reportingInstance: '', action: '', reason: '' },
      // IsQualifiedName("") says both of its messages, as upstream's.
      ['reportingController: Required value', 'reportingController: Invalid value: "": name part must be non-empty',
        `reportingController: Invalid value: "": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
        'reportingInstance: Required value', 'action: Required value', 'reason: Required value']],
    ['note over 1 kB', { message: 'x'.repeat(1025) }, ['message: Invalid value: "": can have at most 1024 characters']],
    ['cluster-scoped object in another namespace', { metadata: { name: 'e', namespace: 'ns1' } }, ['involvedObject.namespace: Invalid value: "": does not match event.namespace']],
  ];
  for (const [name, over, want] of cases) {
    it(name, () => assert.deepEqual(render(validateV1EventCreate(valid(over))), want));
  }

  it('update: eventTime and the rest immutable, series checked only when it changed', () => {
    const old = valid({ series: { count: 1, lastObservedTime: T } });
    assert.deepEqual(render(validateV1EventUpdate(valid({ series: { count: 1, lastObservedTime: T } }), old)), []);
    assert.deepEqual(render(validateV1EventUpdate(valid({ series: { count: 1, lastObservedTime: '2026-01-01T00:01:00.000000Z' }, eventTime: '2026-01-02T00:00:00Z' }), old)), [
      'series.count: Invalid value: "": should be at least 2',
      'eventTime: Invalid value: 2026-01-02 00:00:00 +0000 UTC: field is immutable',
    ]);
    // The same instant written another way is no change.
    assert.deepEqual(render(validateV1EventUpdate(valid({ eventTime: '2026-01-01T00:00:00Z', series: old.series! }), old)), []);
    assert.deepEqual(render(validateV1EventUpdate(valid({ series: old.series!, related: { kind: 'Secret' } }), old)), [
      'related: Invalid value: core.ObjectReference{Kind:"Secret", Namespace:"", Name:"", UID:"", APIVersion:"", ResourceVersion:"", FieldPath:""}: field is immutable',
    ]);
  });

  it('round-trips core -> events/v1 -> core', () => {
    const core = valid({ message: 'm', source: { component: 'c' }, firstTimestamp: T, lastTimestamp: T, count: 3, related: { kind: 'Secret' }, series: { count: 2, lastObservedTime: T } });
    const v1 = eventToV1(core);
    assert.deepEqual([v1.note, v1.deprecatedSource, v1.deprecatedCount, v1.reportingController, v1.regarding], ['m', { component: 'c' }, 3, 'platform/c', { kind: 'Node', name: 'n' }]);
    const back = eventFromV1(v1);
    assert.deepEqual(back, { ...core, reportingComponent: 'platform/c', reportingInstance: 'i' });
    assert.deepEqual(Object.keys(back), ['apiVersion', 'kind', 'metadata', 'involvedObject', 'reason', 'message', 'source', 'firstTimestamp', 'lastTimestamp', 'count', 'type', 'eventTime', 'series', 'action', 'related', 'reportingComponent', 'reportingInstance']);
  });
});
