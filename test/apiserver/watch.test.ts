// WATCH over real HTTPS (in-process `plat all`): synthetic ADDED for the current state, live
// ADDED/MODIFIED/DELETED, resourceVersion resumes, field and label selection (objects moving in
// and out of the selection), timeoutSeconds, sendInitialEvents with the end-marker bookmark,
// option validation, Table watches, compaction (410 Expired) and too-large resource versions (504)
// — k8s-behaviour.md §8.4–§8.6, kubectl-wire.md §9.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { baseCsr, fixtures, type Fixtures } from '../certificates/fixtures.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { WatchStream, type WatchEventJson } from '../helpers/watch-stream.js';
import { getApiServer } from '../../plugins/apiserver/index.js';

const P = '/apis/certificates.platform/v1/certificatesigningrequests';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';
const MERGE = 'application/merge-patch+json';

const names = (evs: WatchEventJson[]) => evs.map((e) => `${e.type} ${e.object.metadata.name}`);
const rvOf = (e: WatchEventJson) => Number(e.object.metadata.resourceVersion);
const q = (s: string) => encodeURIComponent(s);

describe('watch', () => {
  let plat: RunningPlat;
  let fx: Fixtures;
  const streams: WatchStream[] = [];
  const csr = (name: string, labels: Record<string, string>) => {
    const o = baseCsr(fx, name);
    o.metadata.labels = labels;
    return o;
  };
  const create = async (name: string, labels: Record<string, string>) => {
    const r = await plat.admin.post(P, csr(name, labels));
    assert.equal(r.status, 201, r.text);
    return r.json;
  };
  const label = async (name: string, labels: Record<string, string | null>) => {
    const r = await plat.admin.patch(`${P}/${name}`, { metadata: { labels } }, MERGE);
    assert.equal(r.status, 200, r.text);
    return r.json;
  };
  const remove = async (name: string) => {
    const r = await plat.admin.delete(`${P}/${name}`);
    assert.equal(r.status, 200, r.text);
    return r.json;
  };
  const listRv = async (query = '') => {
    const r = await plat.admin.get(`${P}${query}`);
    assert.equal(r.status, 200, r.text);
    return r.json.metadata.resourceVersion as string;
  };
  const watch = async (query: string, headers: Record<string, string> = {}) => {
    const w = await WatchStream.open(plat.admin, `${P}?watch=true&${query}`, headers);
    streams.push(w);
    return w;
  };

  before(async () => { fx = fixtures(); plat = await startInProcess(); });
  after(async () => { for (const w of streams) w.close(); await plat?.stop(); });

  it('without resourceVersion: synthetic ADDED for existing objects, then live ADDED/MODIFIED/DELETED', async () => {
    await create('live-a', { suite: 'live' });
    await create('live-b', { suite: 'live' });
    const w = await watch(`labelSelector=${q('suite=live')}`);
    assert.equal(w.status, 200);
    assert.match(String(w.headers['content-type']), /^application\/json/);
    assert.equal(w.headers['transfer-encoding'], 'chunked');
    const initial = await w.waitForCount(2);
    assert.deepEqual(names(initial), ['ADDED live-a', 'ADDED live-b']);
    for (const e of initial) {
      assert.equal(e.object.kind, 'CertificateSigningRequest');
      assert.equal(e.object.apiVersion, 'certificates.platform/v1');
    }

    const c = await create('live-c', { suite: 'live' });
    const modified = await label('live-a', { extra: 'yes' });
    await remove('live-a');
    const evs = await w.waitForCount(5);
    assert.deepEqual(names(evs.slice(2)), ['ADDED live-c', 'MODIFIED live-a', 'DELETED live-a']);
    const [added, mod, del] = evs.slice(2) as [WatchEventJson, WatchEventJson, WatchEventJson];
    assert.equal(added.object.metadata.resourceVersion, c.metadata.resourceVersion);
    assert.equal(mod.object.metadata.resourceVersion, modified.metadata.resourceVersion);
    assert.equal(mod.object.metadata.labels.extra, 'yes');
    // DELETED carries the last state with the deletion's revision.
    assert.ok(rvOf(del) > rvOf(mod), `DELETED rv ${rvOf(del)} should be above MODIFIED rv ${rvOf(mod)}`);
    assert.equal(del.object.metadata.uid, modified.metadata.uid);
    assert.equal(del.object.metadata.labels.extra, 'yes');
    assert.equal(Number(await listRv()), rvOf(del));
    assert.deepEqual(w.lines.garbage, []);
  });

  it('resourceVersion=X sends only the changes after X', async () => {
    await create('rv-1', { suite: 'rv' });
    const x = await listRv();
    await create('rv-2', { suite: 'rv' });
    const m = await label('rv-1', { touched: '1' });
    const w = await watch(`labelSelector=${q('suite=rv')}&resourceVersion=${x}`);
    const evs = await w.waitForCount(2);
    assert.deepEqual(names(evs), ['ADDED rv-2', 'MODIFIED rv-1']);
    assert.equal(evs[1]!.object.metadata.resourceVersion, m.metadata.resourceVersion);
    for (const e of evs) assert.ok(rvOf(e) > Number(x));
    // Nothing else arrives before the next real change.
    await remove('rv-2');
    const next = await w.waitForCount(3);
    assert.deepEqual(names(next.slice(2)), ['DELETED rv-2']);
    assert.equal(w.events.length, 3);
  });

  it('resourceVersion=0 replays the current state like no resourceVersion (kubectl get NAME -w)', async () => {
    await create('zero-1', { suite: 'zero' });
    const w = await watch(`labelSelector=${q('suite=zero')}&resourceVersion=0`);
    const evs = await w.waitForCount(1);
    assert.deepEqual(names(evs), ['ADDED zero-1']);
  });

  it('fieldSelector metadata.name=… watches one object', async () => {
    await create('fs-1', { suite: 'fs' });
    await create('fs-2', { suite: 'fs' });
    const w = await watch(`fieldSelector=${q('metadata.name=fs-1')}&resourceVersion=0`);
    assert.deepEqual(names(await w.waitForCount(1)), ['ADDED fs-1']);
    await label('fs-2', { other: 'x' });
    await label('fs-1', { mine: 'y' });
    await remove('fs-2');
    await remove('fs-1');
    const evs = await w.waitForCount(3);
    assert.deepEqual(names(evs), ['ADDED fs-1', 'MODIFIED fs-1', 'DELETED fs-1']);
    assert.equal(evs[1]!.object.metadata.labels.mine, 'y');
    assert.ok(!w.events.some((e) => e.object.metadata.name === 'fs-2'));
  });

  it('labelSelector: an object changing labels leaves the selection as DELETED and comes back as ADDED', async () => {
    const start = await listRv();
    const w = await watch(`labelSelector=${q('tier=gold')}&resourceVersion=${start}`);
    await create('ls-silver', { tier: 'silver' });
    const gold = await create('ls-gold', { tier: 'gold' });
    const moved = await label('ls-silver', { tier: 'gold' });
    const left = await label('ls-gold', { tier: 'bronze' });
    const back = await label('ls-gold', { tier: 'gold' });
    await label('ls-silver', { note: 'still-gold' });
    await remove('ls-gold');
    const evs = await w.waitForCount(6);
    assert.deepEqual(names(evs), [
      'ADDED ls-gold', 'ADDED ls-silver', 'DELETED ls-gold', 'ADDED ls-gold', 'MODIFIED ls-silver', 'DELETED ls-gold',
    ]);
    assert.equal(evs[0]!.object.metadata.resourceVersion, gold.metadata.resourceVersion);
    assert.equal(evs[1]!.object.metadata.resourceVersion, moved.metadata.resourceVersion);
    // Leaving the selection: the last state that matched, at the revision of the change (as the
    // watch cache does), so a client filtering locally still sees it match.
    assert.equal(evs[2]!.object.metadata.resourceVersion, left.metadata.resourceVersion);
    assert.equal(evs[2]!.object.metadata.labels.tier, 'gold');
    assert.equal(evs[3]!.object.metadata.resourceVersion, back.metadata.resourceVersion);
    assert.equal(evs[3]!.object.metadata.labels.tier, 'gold');
    assert.ok(!w.events.some((e) => e.object.metadata.labels?.tier === 'silver'));
  });

  it('timeoutSeconds ends the stream cleanly with 200', async () => {
    const w = await watch(`labelSelector=${q('suite=timeout')}&timeoutSeconds=1`);
    assert.equal(w.status, 200);
    await w.waitEnd();
    assert.equal(w.cleanEnd, true);
    assert.equal(w.error, undefined);
    assert.deepEqual(w.events, []);
    assert.equal(w.lines.rest, '');
  });

  it('a timeoutSeconds beyond the timer range keeps the stream open', async () => {
    // 2^31 ms is past what setTimeout takes; such a timeout must not end the watch at once.
    const w = await watch(`labelSelector=${q('suite=longtimeout')}&timeoutSeconds=2147484`);
    assert.equal(w.status, 200);
    await create('long-1', { suite: 'longtimeout' });
    assert.deepEqual(names(await w.waitForCount(1)), ['ADDED long-1']);
    assert.equal(w.ended, false);
  });

  it('sendInitialEvents: initial ADDED events, then the initial-events-end BOOKMARK at the state\'s RV, then live events', async () => {
    await create('sie-1', { suite: 'sie' });
    await create('sie-2', { suite: 'sie' });
    const stateRv = await listRv();
    const w = await watch(`labelSelector=${q('suite=sie')}&allowWatchBookmarks=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan`);
    assert.equal(w.status, 200);
    const evs = await w.waitForCount(3);
    assert.deepEqual(evs.map((e) => e.type), ['ADDED', 'ADDED', 'BOOKMARK']);
    assert.deepEqual(evs.slice(0, 2).map((e) => e.object.metadata.name), ['sie-1', 'sie-2']);
    const bookmark = evs[2]!.object;
    assert.equal(bookmark.kind, 'CertificateSigningRequest');
    assert.equal(bookmark.apiVersion, 'certificates.platform/v1');
    assert.deepEqual(bookmark.metadata, { resourceVersion: stateRv, annotations: { 'k8s.io/initial-events-end': 'true' } });
    assert.equal(bookmark.spec, undefined);
    const c = await create('sie-3', { suite: 'sie' });
    const live = await w.waitForCount(4);
    assert.deepEqual(names([live[3]!]), ['ADDED sie-3']);
    assert.equal(live[3]!.object.metadata.resourceVersion, c.metadata.resourceVersion);
    assert.ok(rvOf(live[3]!) > Number(stateRv));

    // With an explicit resourceVersion the state is read not older than it; without
    // allowWatchBookmarks there is no end marker.
    const w2 = await watch(`labelSelector=${q('suite=sie')}&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&resourceVersion=${stateRv}`);
    const initial = await w2.waitForCount(3);
    assert.deepEqual(names(initial), ['ADDED sie-1', 'ADDED sie-2', 'ADDED sie-3']);
    await create('sie-4', { suite: 'sie' });
    const more = await w2.waitForCount(4);
    assert.deepEqual(names(more.slice(3)), ['ADDED sie-4']);
    assert.ok(!w2.events.some((e) => e.type === 'BOOKMARK'));
  });

  it('sendInitialEvents=false with a resourceVersion sends only changes', async () => {
    await create('sief-1', { suite: 'sief' });
    const rv = await listRv();
    const w = await watch(`labelSelector=${q('suite=sief')}&sendInitialEvents=false&resourceVersionMatch=NotOlderThan&resourceVersion=${rv}`);
    assert.equal(w.status, 200);
    await create('sief-2', { suite: 'sief' });
    assert.deepEqual(names(await w.waitForCount(1)), ['ADDED sief-2']);
    // Without a resourceVersion: changes from the time of the request.
    const now = await watch(`labelSelector=${q('suite=sief')}&sendInitialEvents=false&resourceVersionMatch=NotOlderThan`);
    assert.equal(now.status, 200);
    await label('sief-1', { seen: 'yes' });
    assert.deepEqual(names(await now.waitForCount(1)), ['MODIFIED sief-1']);
  });

  it('option validation: sendInitialEvents needs resourceVersionMatch=NotOlderThan; resourceVersionMatch needs sendInitialEvents', async () => {
    const noMatch = await plat.admin.get(`${P}?watch=true&sendInitialEvents=true`);
    assert.equal(noMatch.status, 422);
    assert.equal(noMatch.json.kind, 'Status');
    assert.equal(noMatch.json.reason, 'Invalid');
    assert.match(noMatch.json.message, /^ListOptions\.meta\.k8s\.io "" is invalid: /);
    assert.ok(noMatch.json.message.includes('resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'), noMatch.json.message);

    const matchOnPlainWatch = await plat.admin.get(`${P}?watch=true&resourceVersion=1&resourceVersionMatch=NotOlderThan`);
    assert.equal(matchOnPlainWatch.status, 422);
    assert.ok(matchOnPlainWatch.json.message.includes('resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'), matchOnPlainWatch.json.message);

    const exactWithInitial = await plat.admin.get(`${P}?watch=true&sendInitialEvents=true&resourceVersionMatch=Exact&resourceVersion=1`);
    assert.equal(exactWithInitial.status, 422);
    const exactWithoutInitial = await plat.admin.get(`${P}?watch=true&sendInitialEvents=false&resourceVersionMatch=Exact&resourceVersion=1`);
    assert.equal(exactWithoutInitial.status, 422);
    assert.ok(exactWithoutInitial.json.message.includes('resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"'), exactWithoutInitial.json.message);

    // Upstream checks any explicit sendInitialEvents, false included.
    const falseWithoutMatch = await plat.admin.get(`${P}?watch=true&sendInitialEvents=false&resourceVersion=1`);
    assert.equal(falseWithoutMatch.status, 422);
    assert.ok(falseWithoutMatch.json.message.includes('sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'), falseWithoutMatch.json.message);

    const badSelector = await plat.admin.get(`${P}?watch=true&fieldSelector=${q('spec.nope=x')}`);
    assert.equal(badSelector.status, 400);
  });

  it('Table watch: Table objects, column definitions only in the first event', async () => {
    await create('tbl-1', { suite: 'tbl' });
    const w = await watch(`labelSelector=${q('suite=tbl')}&resourceVersion=0`, { accept: TABLE });
    assert.equal(w.status, 200);
    await w.waitForCount(1);
    await create('tbl-2', { suite: 'tbl' });
    await label('tbl-1', { x: '1' });
    await remove('tbl-2');
    const evs = await w.waitForCount(4);
    assert.deepEqual(evs.map((e) => e.type), ['ADDED', 'ADDED', 'MODIFIED', 'DELETED']);
    for (const [i, e] of evs.entries()) {
      assert.equal(e.object.kind, 'Table');
      assert.equal(e.object.apiVersion, 'meta.k8s.io/v1');
      assert.equal(e.object.rows.length, 1);
      assert.equal(e.object.rows[0].object.kind, 'PartialObjectMetadata');
      assert.equal(e.object.metadata.resourceVersion, e.object.rows[0].object.metadata.resourceVersion);
      if (i === 0) assert.ok(Array.isArray(e.object.columnDefinitions) && e.object.columnDefinitions.length > 0);
      else assert.equal(e.object.columnDefinitions, null);
    }
    assert.deepEqual(evs.map((e) => e.object.rows[0].cells[0]), ['tbl-1', 'tbl-2', 'tbl-1', 'tbl-2']);
    assert.equal(evs[0]!.object.columnDefinitions[0].name, 'Name');
  });
});

describe('watch and list after compaction, and too large resource versions', () => {
  let plat: RunningPlat;
  let fx: Fixtures;
  const streams: WatchStream[] = [];
  before(async () => { fx = fixtures(); plat = await startInProcess(); });
  after(async () => { for (const w of streams) w.close(); await plat?.stop(); });

  it('410 Expired: watch ERROR event, Exact list, and a continue token with a fresh token', async () => {
    for (const n of ['cmp-1', 'cmp-2', 'cmp-3']) assert.equal((await plat.admin.post(P, baseCsr(fx, n))).status, 201);
    const page1 = await plat.admin.get(`${P}?limit=1`);
    assert.equal(page1.status, 200);
    const token = page1.json.metadata.continue as string;
    assert.ok(token);
    const old = page1.json.metadata.resourceVersion as string;
    assert.equal((await plat.admin.post(P, baseCsr(fx, 'cmp-4'))).status, 201);
    const storage = getApiServer(plat.host!)!.storage;
    const current = await storage.currentRevision();
    assert.ok(current > Number(old));
    await storage.compact(current);

    const w = await WatchStream.open(plat.admin, `${P}?watch=true&resourceVersion=${old}`);
    streams.push(w);
    assert.equal(w.status, 200);
    const [err] = await w.waitForCount(1);
    assert.equal(err!.type, 'ERROR');
    assert.equal(err!.object.kind, 'Status');
    assert.equal(err!.object.apiVersion, 'v1');
    assert.equal(err!.object.status, 'Failure');
    assert.equal(err!.object.code, 410);
    assert.equal(err!.object.reason, 'Expired');
    assert.match(err!.object.message, new RegExp(`^too old resource version: ${old} \\(\\d+\\)$`));
    await w.waitEnd();
    assert.equal(w.events.length, 1);

    const exact = await plat.admin.get(`${P}?resourceVersion=${old}&resourceVersionMatch=Exact`);
    assert.equal(exact.status, 410);
    assert.equal(exact.json.reason, 'Expired');
    assert.equal(exact.json.message, 'The resourceVersion for the provided list is too old.');

    const cont = await plat.admin.get(`${P}?limit=1&continue=${q(token)}`);
    assert.equal(cont.status, 410);
    assert.equal(cont.json.reason, 'Expired');
    assert.equal(cont.json.code, 410);
    assert.equal(cont.json.message, 'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.');
    const fresh = cont.json.metadata.continue as string;
    assert.ok(fresh && fresh !== token, 'a new continue token');
    // The fresh token continues after the same item, at a revision that is still available.
    const rest: string[] = [];
    let next: string | undefined = fresh;
    while (next) {
      const r = await plat.admin.get(`${P}?limit=1&continue=${q(next)}`);
      assert.equal(r.status, 200, r.text);
      rest.push(...r.json.items.map((i: any) => i.metadata.name));
      next = r.json.metadata.continue;
    }
    assert.deepEqual([page1.json.items[0].metadata.name, ...rest], ['cmp-1', 'cmp-2', 'cmp-3', 'cmp-4']);

    // A watch from the compacted revision itself still works (only later events are needed).
    const ok = await WatchStream.open(plat.admin, `${P}?watch=true&resourceVersion=${current}`);
    streams.push(ok);
    assert.equal((await plat.admin.post(P, baseCsr(fx, 'cmp-5'))).status, 201);
    assert.deepEqual(names(await ok.waitForCount(1)), ['ADDED cmp-5']);
  });

  it('a resourceVersion far in the future: 504 Timeout after the server\'s bounded wait', async () => {
    const current = Number((await plat.admin.get(P)).json.metadata.resourceVersion);
    const far = current + 1_000_000;
    const r = await plat.admin.get(`${P}?resourceVersion=${far}&resourceVersionMatch=NotOlderThan`);
    assert.equal(r.status, 504);
    assert.equal(r.json.kind, 'Status');
    assert.equal(r.json.reason, 'Timeout');
    assert.equal(r.json.code, 504);
    assert.equal(r.json.message, `Timeout: Too large resource version: ${far}, current: ${current}`);
    assert.deepEqual(r.json.details, { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 });
  });
});
