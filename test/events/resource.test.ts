// The core/v1 Event resource served by `plat all`: what is stored (Go's always-written fields), the
// 422 of v1 validation, upstream's field selectors, the printEvent Table, create on update,
// strategic merge patch, deletecollection, and a DELETE that sets no garbage-collection finalizer.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';

const EVENTS = '/api/v1/namespaces/default/events';
const TABLE = { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' };

const event = (name: string, over: Record<string, unknown> = {}) => ({
  apiVersion: 'v1', kind: 'Event', metadata: { name },
  involvedObject: { kind: 'Node', name: 'n1', uid: `uid-${name}`, apiVersion: 'v1', fieldPath: 'spec' },
  reason: 'Started', message: ' hello ', type: 'Normal', source: { component: 'tester', host: 'h1' },
  firstTimestamp: '2026-01-01T00:00:00Z', lastTimestamp: '2026-01-01T00:05:00Z', count: 2, ...over,
});

describe('core/v1 Events', () => {
  let plat: RunningPlat;
  before(async () => { plat = await startInProcess(); });
  after(async () => { await plat?.stop(); });

  it('stores an Event with the fields Go always writes', async () => {
    const r = await plat.admin.post(EVENTS, { apiVersion: 'v1', kind: 'Event', metadata: { name: 'bare' }, involvedObject: {} });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(
      [r.json.source, r.json.firstTimestamp, r.json.lastTimestamp, r.json.eventTime, r.json.reportingComponent, r.json.reportingInstance, r.json.involvedObject],
      [{}, null, null, null, '', '', {}],
    );
    assert.equal((await plat.admin.delete(`${EVENTS}/bare`)).status, 200);
    // EventSeries.LastObservedTime is a struct Go never omits.
    const series = await plat.admin.post(EVENTS, { apiVersion: 'v1', kind: 'Event', metadata: { name: 'series' }, involvedObject: {}, series: { count: 3 } });
    assert.equal(series.status, 201, series.text);
    assert.deepEqual(series.json.series, { count: 3, lastObservedTime: null });
    assert.equal((await plat.admin.delete(`${EVENTS}/series`)).status, 200);
  });

  it('a name too long for the store\'s keys is a 422 on metadata.name, and reads of it find nothing', async () => {
    const long = 'g'.repeat(2000);
    const r = await plat.admin.post(EVENTS, { apiVersion: 'v1', kind: 'Event', metadata: { name: long }, involvedObject: {} });
    assert.equal(r.status, 422, r.text);
    assert.equal(r.json.details.causes[0].field, 'metadata.name');
    assert.match(r.json.details.causes[0].message, /^Too long: may not be more than \d+ bytes$/);
    const put = await plat.admin.put(`${EVENTS}/${long}`, { apiVersion: 'v1', kind: 'Event', metadata: { name: long }, involvedObject: {} });
    assert.equal(put.status, 422, put.text);
    for (const n of [long, 'h'.repeat(5000)]) {
      assert.equal((await plat.admin.get(`${EVENTS}/${n}`)).status, 404);
      assert.equal((await plat.admin.delete(`${EVENTS}/${n}`)).status, 404);
    }
    const fits = 'f'.repeat(1900);
    assert.equal((await plat.admin.post(EVENTS, { apiVersion: 'v1', kind: 'Event', metadata: { name: fits }, involvedObject: {} })).status, 201);
    assert.equal((await plat.admin.delete(`${EVENTS}/${fits}`)).status, 200);
  });

  it('refuses an Event for another namespace\'s object with a field path (422)', async () => {
    const r = await plat.admin.post(EVENTS, event('wrong-ns', { involvedObject: { kind: 'Secret', namespace: 'plat-system', name: 's' } }));
    assert.equal(r.status, 422);
    assert.equal(r.json.reason, 'Invalid');
    assert.equal(r.json.message, 'Event "wrong-ns" is invalid: involvedObject.namespace: Invalid value: "plat-system": does not match event.namespace');
    assert.deepEqual(r.json.details.causes, [{ reason: 'FieldValueInvalid', message: 'Invalid value: "plat-system": does not match event.namespace', field: 'involvedObject.namespace' }]);
  });

  it('selects by upstream\'s event fields, across namespaces too', async () => {
    assert.equal((await plat.admin.post(EVENTS, event('sel-a'))).status, 201);
    assert.equal((await plat.admin.post(EVENTS, event('sel-b', { type: 'Warning', reason: 'Failed', source: {}, reportingComponent: 'rc' }))).status, 201);
    const names = async (selector: string, path = '/api/v1/events') => {
      const r = await plat.admin.get(`${path}?fieldSelector=${encodeURIComponent(selector)}`);
      assert.equal(r.status, 200, r.text);
      return r.json.items.map((i: { metadata: { name: string } }) => i.metadata.name).filter((n: string) => n.startsWith('sel-')).sort();
    };
    assert.deepEqual(await names('involvedObject.uid=uid-sel-a'), ['sel-a']);
    assert.deepEqual(await names('involvedObject.kind=Node,involvedObject.name=n1,involvedObject.namespace='), ['sel-a', 'sel-b']);
    assert.deepEqual(await names('involvedObject.apiVersion=v1,involvedObject.fieldPath=spec,involvedObject.resourceVersion='), ['sel-a', 'sel-b']);
    assert.deepEqual(await names('type=Warning'), ['sel-b']);
    assert.deepEqual(await names('reason=Started', EVENTS), ['sel-a']);
    assert.deepEqual(await names('source=tester'), ['sel-a']);
    assert.deepEqual(await names('source=rc'), ['sel-b'], 'source falls back to the reporting controller');
    assert.deepEqual(await names('reportingComponent=rc'), ['sel-b']);
    assert.deepEqual(await names('metadata.namespace=default,metadata.name=sel-a'), ['sel-a']);
    const bad = await plat.admin.get('/api/v1/events?fieldSelector=involvedObject.bogus%3Dx');
    assert.equal(bad.status, 400);
    assert.match(bad.json.message, /field label not supported: involvedObject\.bogus/);
  });

  it('answers printEvent\'s Table', async () => {
    const r = await plat.admin.get(`${EVENTS}/sel-a`, TABLE);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json.columnDefinitions.map((c: { name: string; priority: number }) => `${c.name}/${c.priority}`),
      ['Last Seen/0', 'Type/0', 'Reason/0', 'Object/0', 'Subobject/1', 'Source/1', 'Message/0', 'First Seen/1', 'Count/1', 'Name/1']);
    const cells = r.json.rows[0].cells;
    assert.deepEqual(cells.slice(1), ['Normal', 'Started', 'node/n1', 'spec', 'tester, h1', 'hello', cells[7], 2, 'sel-a']);
    assert.match(cells[0], /^\d+[dhy]/);
    const series = await plat.admin.post(EVENTS, event('series', {
      firstTimestamp: null, lastTimestamp: null, count: 0, source: {}, eventTime: '2026-01-01T00:00:00.000000Z',
      series: { count: 7, lastObservedTime: '2026-01-01T00:01:00.000000Z' }, action: 'Act', reportingComponent: 'platform/x', reportingInstance: 'i1',
      involvedObject: { kind: 'Secret', namespace: 'default', name: 's' },
    }));
    assert.equal(series.status, 201, series.text);
    const row = (await plat.admin.get(`${EVENTS}/series`, TABLE)).json.rows[0].cells;
    assert.deepEqual([row[3], row[5], row[8]], ['secret/s', 'platform/x, i1', 7]);
  });

  it('PUT creates a missing Event and updates one without a resourceVersion', async () => {
    assert.equal((await plat.admin.put(`${EVENTS}/put`, event('put'))).status, 201);
    const r = await plat.admin.put(`${EVENTS}/put`, event('put', { count: 3 }));
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.count, 3);
  });

  it('takes a strategic merge patch of count and lastTimestamp, as the recorder sends', async () => {
    const r = await plat.admin.patch(`${EVENTS}/put`, { count: 4, lastTimestamp: '2026-01-01T01:00:00Z', message: 'again' }, 'application/strategic-merge-patch+json');
    assert.equal(r.status, 200, r.text);
    assert.deepEqual([r.json.count, r.json.lastTimestamp, r.json.message, r.json.reason], [4, '2026-01-01T01:00:00Z', 'again', 'Started']);
  });

  it('a foreground DELETE removes it at once: no garbage-collection finalizer', async () => {
    assert.equal((await plat.admin.post(EVENTS, event('fg'))).status, 201);
    const r = await plat.admin.delete(`${EVENTS}/fg`, { propagationPolicy: 'Foreground' });
    assert.equal(r.status, 200, r.text);
    assert.equal((await plat.admin.get(`${EVENTS}/fg`)).status, 404);
  });

  it('deletecollection by field selector', async () => {
    const r = await plat.admin.delete(`${EVENTS}?fieldSelector=involvedObject.kind%3DNode`);
    assert.equal(r.status, 200, r.text);
    const left = (await plat.admin.get(EVENTS)).json.items.map((i: { metadata: { name: string } }) => i.metadata.name);
    assert.deepEqual(left, ['series']);
  });
});
