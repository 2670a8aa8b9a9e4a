// events.platform/v1 Events (upstream's events.k8s.io/v1) beside core/v1's: the same stored records
// served in two versions, so a write through one is read, listed, watched, patched and deleted
// through the other; events/v1's field selectors, Table, discovery and strict validation on create.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { WatchStream } from '../helpers/watch-stream.js';
import { v1Event } from './events-v1-support.js';

const CORE = '/api/v1/namespaces/default/events';
const V1 = '/apis/events.platform/v1/namespaces/default/events';
const TABLE = { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' };

const coreEvent = (name: string, over: Record<string, unknown> = {}) => ({
  apiVersion: 'v1', kind: 'Event', metadata: { name },
  involvedObject: { kind: 'Node', name: 'n1', uid: `uid-${name}`, apiVersion: 'v1', fieldPath: 'spec' },
  reason: 'Started', message: 'old style', type: 'Warning', source: { component: 'tester', host: 'h1' },
  firstTimestamp: '2026-01-01T00:00:00Z', lastTimestamp: '2026-01-01T00:05:00Z', count: 2, ...over,
});

describe('events.platform/v1 Events', () => {
  let plat: RunningPlat;
  before(async () => { plat = await startInProcess(); });
  after(async () => { await plat?.stop(); });

  it('an events/v1 create is the core/v1 Event, converted field by field', async () => {
    const r = await plat.admin.post(V1, v1Event('made-v1', { series: { count: 3, lastObservedTime: '2026-01-01T00:01:00.000000Z' }, related: { kind: 'Secret', name: 's' } }));
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.apiVersion, 'events.platform/v1');
    assert.deepEqual(Object.keys(r.json), ['kind', 'apiVersion', 'metadata', 'eventTime', 'series', 'reportingController', 'reportingInstance', 'action', 'reason',
      'regarding', 'related', 'note', 'type', 'deprecatedSource', 'deprecatedFirstTimestamp', 'deprecatedLastTimestamp']);
    const core = await plat.admin.get(`${CORE}/made-v1`);
    assert.equal(core.status, 200, core.text);
    assert.equal(core.json.apiVersion, 'v1');
    assert.deepEqual(
      [core.json.involvedObject, core.json.message, core.json.reportingComponent, core.json.reportingInstance, core.json.action, core.json.source,
        core.json.firstTimestamp, core.json.eventTime, core.json.series, core.json.related, core.json.type],
      [{ kind: 'Node', name: 'n1', uid: 'uid-made-v1', apiVersion: 'v1' }, 'hello', 'platform/tester', 'tester-1', 'Check', {}, null,
        '2026-01-01T00:00:00.000000Z', { count: 3, lastObservedTime: '2026-01-01T00:01:00.000000Z' }, { kind: 'Secret', name: 's' }, 'Normal'],
    );
    assert.equal(core.json.metadata.resourceVersion, r.json.metadata.resourceVersion);
  });

  it('a core/v1 Event reads through events/v1 with its deprecated fields', async () => {
    const c = await plat.admin.post(CORE, coreEvent('made-core'));
    assert.equal(c.status, 201, c.text);
    const r = await plat.admin.get(`${V1}/made-core`);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json, {
      kind: 'Event', apiVersion: 'events.platform/v1', metadata: c.json.metadata, eventTime: null, reason: 'Started',
      regarding: { kind: 'Node', name: 'n1', uid: 'uid-made-core', apiVersion: 'v1', fieldPath: 'spec' }, note: 'old style', type: 'Warning',
      deprecatedSource: { component: 'tester', host: 'h1' }, deprecatedFirstTimestamp: '2026-01-01T00:00:00Z', deprecatedLastTimestamp: '2026-01-01T00:05:00Z',
      deprecatedCount: 2,
    });
    const list = await plat.admin.get('/apis/events.platform/v1/events');
    assert.equal(list.status, 200, list.text);
    assert.equal(list.json.kind, 'EventList');
    assert.equal(list.json.apiVersion, 'events.platform/v1');
    assert.ok(list.json.items.some((i: { metadata: { name: string }; note?: string }) => i.metadata.name === 'made-core' && i.note === 'old style'));
  });

  it('a watch through events/v1 sees core/v1 writes in its own form, and the reverse', async () => {
    const start = (await plat.admin.get(V1)).json.metadata.resourceVersion as string;
    const w1 = await WatchStream.open(plat.admin, `${V1}?watch=true&resourceVersion=${start}`);
    const w0 = await WatchStream.open(plat.admin, `${CORE}?watch=true&resourceVersion=${start}`);
    try {
      assert.equal((await plat.admin.post(CORE, coreEvent('watched-core'))).status, 201);
      assert.equal((await plat.admin.post(V1, v1Event('watched-v1'))).status, 201);
      const a = await w1.waitFor((e) => e.object.metadata.name === 'watched-core', 'events/v1 ADDED of a core write');
      assert.deepEqual([a.type, a.object.apiVersion, a.object.note, a.object.deprecatedCount], ['ADDED', 'events.platform/v1', 'old style', 2]);
      const b = await w0.waitFor((e) => e.object.metadata.name === 'watched-v1', 'core ADDED of an events/v1 write');
      assert.deepEqual([b.type, b.object.apiVersion, b.object.message, b.object.reportingComponent], ['ADDED', 'v1', 'hello', 'platform/tester']);
      assert.equal((await plat.admin.delete(`${V1}/watched-core`)).status, 200);
      const d = await w0.waitFor((e) => e.type === 'DELETED', 'core DELETED of an events/v1 delete');
      assert.equal(d.object.metadata.name, 'watched-core');
    } finally {
      w1.close();
      w0.close();
    }
  });

  it('patches in every type through events/v1, with its field names', async () => {
    assert.equal((await plat.admin.post(V1, v1Event('patched', { series: { count: 2, lastObservedTime: '2026-01-01T00:01:00.000000Z' } }))).status, 201);
    const merge = await plat.admin.patch(`${V1}/patched`, { series: { count: 5, lastObservedTime: '2026-01-01T00:02:00.000000Z' } }, 'application/merge-patch+json');
    assert.equal(merge.status, 200, merge.text);
    const smp = await plat.admin.patch(`${V1}/patched`, { metadata: { labels: { a: 'b' } } }, 'application/strategic-merge-patch+json');
    assert.equal(smp.status, 200, smp.text);
    const json = await plat.admin.patch(`${V1}/patched`, [{ op: 'replace', path: '/series/count', value: 6 }], 'application/json-patch+json');
    assert.equal(json.status, 200, json.text);
    assert.deepEqual(json.json.series, { count: 6, lastObservedTime: '2026-01-01T00:02:00.000000Z' });
    const core = await plat.admin.get(`${CORE}/patched`);
    assert.deepEqual([core.json.series, core.json.metadata.labels], [{ count: 6, lastObservedTime: '2026-01-01T00:02:00.000000Z' }, { a: 'b' }]);
    // A core/v1 recorder's count update, then read through events/v1.
    const rec = await plat.admin.patch(`${CORE}/patched`, { message: 'again' }, 'application/strategic-merge-patch+json');
    assert.equal(rec.status, 200, rec.text);
    assert.equal((await plat.admin.get(`${V1}/patched`)).json.note, 'again');
  });

  it('an events/v1 update may not change what the Event says (core field paths, as upstream)', async () => {
    const cur = (await plat.admin.get(`${V1}/patched`)).json;
    const r = await plat.admin.put(`${V1}/patched`, { ...cur, note: 'changed', reason: 'Other', regarding: { kind: 'Node', name: 'n2' } });
    assert.equal(r.status, 422, r.text);
    assert.deepEqual(r.json.details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`), [
      'involvedObject: Invalid value: core.ObjectReference{Kind:"Node", Namespace:"", Name:"n2", UID:"", APIVersion:"", ResourceVersion:"", FieldPath:""}: field is immutable',
      'reason: Invalid value: "Other": field is immutable',
      'message: Invalid value: "changed": field is immutable',
      'reason: Invalid value: "Other": field is immutable',
    ]);
    assert.equal(r.json.message, 'Event.events.platform "patched" is invalid: [involvedObject: Invalid value: core.ObjectReference{Kind:"Node", Namespace:"", Name:"n2", UID:"", APIVersion:"", ResourceVersion:"", FieldPath:""}: field is immutable, reason: Invalid value: "Other": field is immutable, message: Invalid value: "changed": field is immutable]');
    // The core/v1 version keeps legacy validation only: the same change passes there.
    const core = (await plat.admin.get(`${CORE}/patched`)).json;
    assert.equal((await plat.admin.put(`${CORE}/patched`, { ...core, message: 'changed' })).status, 200);
  });

  it('selects by AddFieldLabelConversionsForEvent\'s labels, and refuses core\'s involvedObject ones', async () => {
    const names = async (selector: string) => {
      const r = await plat.admin.get(`/apis/events.platform/v1/events?fieldSelector=${encodeURIComponent(selector)}`);
      assert.equal(r.status, 200, r.text);
      return r.json.items.map((i: { metadata: { name: string } }) => i.metadata.name).sort();
    };
    assert.deepEqual(await names('regarding.uid=uid-made-v1'), ['made-v1']);
    assert.deepEqual(await names('regarding.uid=uid-made-core,regarding.fieldPath=spec,regarding.kind=Node'), ['made-core']);
    assert.deepEqual(await names('reportingController=platform/tester,regarding.name=n1,metadata.name=made-v1'), ['made-v1']);
    assert.deepEqual(await names('source=tester'), ['made-core']);
    assert.deepEqual(await names('type=Warning,reason=Started'), ['made-core']);
    const bad = await plat.admin.get('/apis/events.platform/v1/events?fieldSelector=involvedObject.kind%3DNode');
    assert.equal(bad.status, 400, bad.text);
    assert.match(bad.json.message, /field label not supported: involvedObject\.kind/);
  });

  it('answers printEvent\'s Table, as core/v1 does', async () => {
    const r = await plat.admin.get(`${V1}/made-core`, TABLE);
    const c = await plat.admin.get(`${CORE}/made-core`, TABLE);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json.columnDefinitions, c.json.columnDefinitions);
    assert.deepEqual(r.json.rows[0].cells, c.json.rows[0].cells);
    assert.deepEqual(r.json.rows[0].cells.slice(1, 7), ['Warning', 'Started', 'node/n1', 'spec', 'tester, h1', 'old style']);
  });

  it('is in discovery with short name ev, legacy and aggregated', async () => {
    const d = await plat.admin.get('/apis/events.platform/v1');
    assert.equal(d.status, 200, d.text);
    const res = d.json.resources.find((x: { name: string }) => x.name === 'events');
    assert.deepEqual([res.kind, res.namespaced, res.shortNames, [...res.verbs].sort()],
      ['Event', true, ['ev'], ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']]);
    const agg = await plat.admin.get('/apis', { accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' });
    assert.equal(agg.status, 200, agg.text);
    const group = agg.json.items.find((g: { metadata: { name: string } }) => g.metadata.name === 'events.platform');
    assert.ok(group, 'events.platform in aggregated discovery');
    assert.equal(group.versions[0].resources[0].resource, 'events');
    const oa = await plat.admin.get('/openapi/v3/apis/events.platform/v1');
    assert.equal(oa.status, 200, oa.text);
  });

  it('takes a server-side apply through events/v1 of an Event core/v1 wrote', async () => {
    assert.equal((await plat.admin.post(CORE, coreEvent('applied'))).status, 201);
    const r = await plat.admin.patch(`${V1}/applied?fieldManager=applier`, { apiVersion: 'events.platform/v1', kind: 'Event', metadata: { name: 'applied', labels: { x: 'y' } } },
      'application/apply-patch+yaml');
    assert.equal(r.status, 200, r.text);
    assert.deepEqual([r.json.metadata.labels, r.json.note], [{ x: 'y' }, 'old style']);
    const managers = r.json.metadata.managedFields.map((m: { manager: string; apiVersion: string }) => `${m.manager} ${m.apiVersion}`);
    assert.ok(managers.includes('applier events.platform/v1'), managers.join(', '));
  });

  it('a DELETE through events/v1 removes the core/v1 Event', async () => {
    assert.equal((await plat.admin.delete(`${V1}/made-core`)).status, 200);
    assert.equal((await plat.admin.get(`${CORE}/made-core`)).status, 404);
    const all = await plat.admin.delete(`${V1}?fieldSelector=regarding.kind%3DNode`);
    assert.equal(all.status, 200, all.text);
    assert.equal((await plat.admin.get(`${CORE}/made-v1`)).status, 404);
  });
});
