// ValidateEventCreate/Update for core/v1 (legacyValidateEvent): each case's field errors, in
// upstream's paths and words.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CoreEvent } from '../../core/api/event.js';
import { validateEvent } from '../../plugins/events/validation.js';

const ev = (namespace: string, over: Partial<CoreEvent> = {}): CoreEvent => ({ metadata: { name: 'e', namespace }, ...over });
const NEW_STYLE = { eventTime: '2026-01-01T00:00:00.000000Z', reportingComponent: 'platform/node-controller', reportingInstance: 'cm-1', action: 'Sync', reason: 'Done' };
const long = (n: number) => 'x'.repeat(n);

const cases: [string, CoreEvent, string[]][] = [
  ['old style, namespaced object in its namespace', ev('ns1', { involvedObject: { kind: 'Secret', namespace: 'ns1', name: 's' } }), []],
  ['old style, namespaced object elsewhere', ev('ns2', { involvedObject: { namespace: 'ns1' } }),
    ['involvedObject.namespace: Invalid value: "ns1": does not match event.namespace']],
  ['old style, cluster-scoped object in default', ev('default', { involvedObject: { kind: 'Node', name: 'n' } }), []],
  ['old style, cluster-scoped object in another namespace', ev('ns1', { involvedObject: { kind: 'Node', name: 'n' } }),
    ['involvedObject.namespace: Invalid value: "": does not match event.namespace']],
  ['old style has no length limits', ev('default', { reason: long(200), message: long(2000), type: 'Odd' }), []],
  ['new style, complete', ev('ns1', { ...NEW_STYLE, involvedObject: { namespace: 'ns1' } }), []],
  ['new style, cluster-scoped object in plat-system', ev('plat-system', NEW_STYLE), []],
  ['new style, cluster-scoped object in default', ev('default', NEW_STYLE), []],
  ['new style, cluster-scoped object in another namespace', ev('ns1', NEW_STYLE),
    ['involvedObject.namespace: Invalid value: "": does not match event.namespace']],
  ['new style, nothing but eventTime', ev('default', { eventTime: NEW_STYLE.eventTime }), [
    'reportingController: Required value',
    'reportingController: Invalid value: "": name part must be non-empty',
    "reportingController: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    'reportingInstance: Required value', 'action: Required value', 'reason: Required value',
  ]],
  ['new style, too long', ev('default', { ...NEW_STYLE, reportingInstance: long(129), action: long(129), reason: long(129), message: long(1025) }), [
    'reportingInstance: Invalid value: "": can have at most 128 characters',
    'action: Invalid value: "": can have at most 128 characters',
    'reason: Invalid value: "": can have at most 128 characters',
    'message: Invalid value: "": can have at most 1024 characters',
  ]],
  ['new style, at the limits', ev('default', { ...NEW_STYLE, reportingInstance: long(128), action: long(128), reason: long(128), message: long(1024) }), []],
  ['lengths are bytes', ev('default', { ...NEW_STYLE, reason: 'é'.repeat(65) }), ['reason: Invalid value: "": can have at most 128 characters']],
  ['new style, reporting controller not a qualified name', ev('default', { ...NEW_STYLE, reportingComponent: 'a/b/c' }),
    ["reportingController: Invalid value: \"a/b/c\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"]],
];

describe('core/v1 Event validation', () => {
  for (const [name, event, want] of cases) {
    it(name, () => {
      assert.deepEqual(validateEvent(event).map((e) => `${e.field}: ${e.message}`), want);
    });
  }
});
