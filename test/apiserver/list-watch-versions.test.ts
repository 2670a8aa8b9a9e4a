// Where a list or watch starts, as kube-apiserver 1.32's cacher and etcd3 store decide it, over real
// HTTPS (in-process `plat all`): sendInitialEvents=false from resourceVersion 0, a future
// resourceVersion with and without initial events, continue tokens (their decode errors, the rv -1
// token handed out after compaction), ListOptions validation, resourceVersion=0 with a limit, and
// the "too old resource version" number.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { baseCsr, fixtures, type Fixtures } from '../certificates/fixtures.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { WatchStream, type WatchEventJson } from '../helpers/watch-stream.js';
import { getApiServer } from '../../plugins/apiserver/index.js';

const P = '/apis/certificates.platform/v1/certificatesigningrequests';
const q = (s: string) => encodeURIComponent(s);
const names = (evs: WatchEventJson[]) => evs.map((e) => `${e.type} ${e.object.metadata?.name}`);
const token = (o: unknown) => Buffer.from(typeof o === 'string' ? o : JSON.stringify(o)).toString('base64url');
const decode = (t: string) => JSON.parse(Buffer.from(t, 'base64url').toString('utf8'));

describe('list and watch starting points', () => {
  let plat: RunningPlat;
  let fx: Fixtures;
  const streams: WatchStream[] = [];
  const create = async (name: string) => {
    const o = baseCsr(fx, name);
    o.metadata.labels = { suite: name.replace(/-\d+$/, '') };
    const r = await plat.admin.post(P, o);
    assert.equal(r.status, 201, r.text);
    return Number(r.json.metadata.resourceVersion);
  };
  const watch = async (query: string) => {
    const w = await WatchStream.open(plat.admin, `${P}?watch=true&${query}`);
    streams.push(w);
    return w;
  };
  const current = async () => getApiServer(plat.host!)!.storage.currentRevision();

  before(async () => { fx = fixtures(); plat = await startInProcess(); });
  after(async () => { for (const w of streams) w.close(); await plat?.stop(); });

  it('sendInitialEvents=false with resourceVersion=0 starts from now, not from the beginning', async () => {
    await create('zero-1');
    const w = await watch(`labelSelector=${q('suite=zero')}&resourceVersion=0&sendInitialEvents=false&resourceVersionMatch=NotOlderThan`);
    assert.equal(w.status, 200);
    await create('zero-2');
    assert.deepEqual(names(await w.waitForCount(1)), ['ADDED zero-2']);
  });

  it('a watch without initial events from a future resourceVersion opens at once and sends what comes after it', async () => {
    const future = (await current()) + 2;
    const w = await watch(`labelSelector=${q('suite=future')}&resourceVersion=${future}`);
    assert.equal(w.status, 200);
    const rvs: Record<string, number> = {};
    for (const n of ['future-1', 'future-2', 'future-3', 'future-4']) rvs[n] = await create(n);
    const expected = Object.keys(rvs).filter((n) => rvs[n]! > future).map((n) => `ADDED ${n}`);
    assert.ok(expected.includes('ADDED future-4'));
    assert.deepEqual(names(await w.waitForCount(expected.length)), expected);
  });

  it('sendInitialEvents=true from a future resourceVersion: 200 with one ERROR event carrying the 504', async () => {
    const far = (await current()) + 1_000_000;
    const w = await watch(`sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&resourceVersion=${far}`);
    assert.equal(w.status, 200);
    await w.waitEnd(15_000);
    assert.equal(w.events.length, 1, JSON.stringify(w.events));
    const [ev] = w.events;
    assert.equal(ev!.type, 'ERROR');
    assert.equal(ev!.object.kind, 'Status');
    assert.equal(ev!.object.code, 504);
    assert.equal(ev!.object.reason, 'Timeout');
    assert.match(ev!.object.message, new RegExp(`^Timeout: Too large resource version: ${far}, current: \\d+$`));
    assert.deepEqual(ev!.object.details, { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 });
  });

  it('GET of one object: a future resourceVersion waits for the store (the cacher\'s Get), then 504; a field selector is not a GET option', async () => {
    const rv = await create('get-1');
    // An older or current version, or 0, reads the object as it is now.
    for (const v of ['0', String(rv - 1), String(rv)]) {
      const r = await plat.admin.get(`${P}/get-1?resourceVersion=${v}`);
      assert.equal(r.status, 200, `${v}: ${r.text}`);
    }
    // The next version: answered once a write reaches it.
    const next = (await current()) + 1;
    const pending = plat.admin.get(`${P}/get-1?resourceVersion=${next}`);
    await new Promise((r) => setTimeout(r, 300));
    await create('get-2');
    const waited = await pending;
    assert.equal(waited.status, 200, waited.text);
    assert.equal(waited.json.metadata.name, 'get-1');
    const far = (await current()) + 1_000_000;
    const r = await plat.admin.get(`${P}/get-1?resourceVersion=${far}`);
    assert.equal(r.status, 504, r.text);
    assert.match(r.json.message, new RegExp(`^Timeout: Too large resource version: ${far}, current: \\d+$`));
    assert.equal(r.headers['retry-after'], '1');
    const bad = await plat.admin.get(`${P}/get-1?resourceVersion=abc`);
    assert.equal(bad.status, 400, bad.text);
    const other = await plat.admin.get(`${P}/get-1?fieldSelector=${q('metadata.name=get-2')}`);
    assert.equal(other.status, 200, other.text);
    assert.equal(other.json.metadata.name, 'get-1');
  });

  it('resourceVersion=0 with a limit lists everything (the watch cache ignores the limit); a negative limit too', async () => {
    for (const n of ['page-1', 'page-2', 'page-3']) await create(n);
    for (const query of ['resourceVersion=0&limit=1', 'limit=-1', 'resourceVersion=0&resourceVersionMatch=NotOlderThan&limit=2']) {
      const r = await plat.admin.get(`${P}?labelSelector=${q('suite=page')}&${query}`);
      assert.equal(r.status, 200, `${query}: ${r.text}`);
      assert.deepEqual(r.json.items.map((i: any) => i.metadata.name), ['page-1', 'page-2', 'page-3'], query);
      assert.equal(r.json.metadata.continue, undefined, query);
      assert.equal(r.json.metadata.remainingItemCount, undefined, query);
    }
    // A limit without resourceVersion=0 still pages.
    const paged = await plat.admin.get(`${P}?labelSelector=${q('suite=page')}&limit=1`);
    assert.equal(paged.json.items.length, 1);
    assert.ok(paged.json.metadata.continue);
  });

  it('list option errors are all reported, in ValidateListOptions\' order', async () => {
    const r = await plat.admin.get(`${P}?resourceVersionMatch=Foo&continue=abc`);
    assert.equal(r.status, 422, r.text);
    assert.deepEqual(r.json.details.causes, [
      { reason: 'FieldValueForbidden', message: 'Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided', field: 'resourceVersionMatch' },
      { reason: 'FieldValueForbidden', message: 'Forbidden: resourceVersionMatch is forbidden when continue is provided', field: 'resourceVersionMatch' },
      { reason: 'FieldValueNotSupported', message: 'Unsupported value: "Foo": supported values: "Exact", "NotOlderThan", ""', field: 'resourceVersionMatch' },
    ]);
  });

  it('continue tokens: storage.DecodeContinue\'s errors behind "invalid continue token: " (400)', async () => {
    const table: [string, string, string][] = [
      ['a character outside the alphabet', 'abc$', 'continue key is not valid: illegal base64 data at input byte 3'],
      ['a lone last character', 'abcde', 'continue key is not valid: illegal base64 data at input byte 4'],
      ['padding', 'YQ==', 'continue key is not valid: illegal base64 data at input byte 2'],
      ['not JSON', token('nope'), 'continue key is not valid: invalid character \'o\' in literal null (expecting \'u\')'],
      ['rv of the wrong type', token({ v: 'meta.k8s.io/v1', rv: '5', start: 'x' }), 'continue key is not valid: json: cannot unmarshal string into Go struct field continueToken.rv of type int64'],
      ['another version', token({ v: 'meta.k8s.io/v2', rv: 1, start: 'x' }), 'continue key is not valid: server does not recognize this encoded version meta.k8s.io/v2'],
      ['rv 0', token({ v: 'meta.k8s.io/v1', rv: 0, start: 'x' }), 'continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)'],
      ['an empty start', token({ v: 'meta.k8s.io/v1', rv: 1, start: '' }), 'continue key is not valid: encoded start key empty (version meta.k8s.io/v1)'],
      ['a start above the prefix', token({ v: 'meta.k8s.io/v1', rv: 1, start: '../x' }), 'continue key is not valid: ../x'],
      ['a start path.Clean changes', token({ v: 'meta.k8s.io/v1', rv: 1, start: '/a//b' }), 'continue key is not valid: /a//b'],
    ];
    for (const [what, t, message] of table) {
      const r = await plat.admin.get(`${P}?limit=1&continue=${q(t)}`);
      assert.equal(r.status, 400, `${what}: ${r.text}`);
      assert.equal(r.json.reason, 'BadRequest', what);
      assert.equal(r.json.message, `invalid continue token: ${message}`, what);
    }
    // The token is decoded before the resourceVersion beside it is refused.
    const withRv = await plat.admin.get(`${P}?limit=1&resourceVersion=5&continue=abc$`);
    assert.equal(withRv.json.message, 'invalid continue token: continue key is not valid: illegal base64 data at input byte 3');
    const goodWithRv = await plat.admin.get(`${P}?limit=1&resourceVersion=5&continue=${q(token({ v: 'meta.k8s.io/v1', rv: 1, start: 'x' }))}`);
    assert.equal(goodWithRv.status, 400);
    assert.equal(goodWithRv.json.message, 'specifying resource version is not allowed when using continue');
  });

  it('continue tokens with rv -1 (and a leading "/") continue at the latest revision', async () => {
    for (const n of ['latest-1', 'latest-2', 'latest-3']) await create(n);
    const r = await plat.admin.get(`${P}?labelSelector=${q('suite=latest')}&limit=5&continue=${q(token({ v: 'meta.k8s.io/v1', rv: -1, start: '/latest-1\u0000' }))}`);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json.items.map((i: any) => i.metadata.name), ['latest-2', 'latest-3']);
  });

  it('after compaction: a continue token at rv -1, and "too old resource version" names the oldest version accepted', async () => {
    for (const n of ['old-1', 'old-2', 'old-3']) await create(n);
    const page1 = await plat.admin.get(`${P}?labelSelector=${q('suite=old')}&limit=1`);
    const old = page1.json.metadata.resourceVersion as string;
    await create('old-4');
    const storage = getApiServer(plat.host!)!.storage;
    const compacted = await storage.currentRevision();
    await storage.compact(compacted);

    const cont = await plat.admin.get(`${P}?labelSelector=${q('suite=old')}&limit=1&continue=${q(page1.json.metadata.continue)}`);
    assert.equal(cont.status, 410, cont.text);
    const fresh = decode(cont.json.metadata.continue);
    assert.deepEqual(fresh, { ...decode(page1.json.metadata.continue), rv: -1 });
    const rest = await plat.admin.get(`${P}?labelSelector=${q('suite=old')}&continue=${q(cont.json.metadata.continue)}`);
    assert.equal(rest.status, 200, rest.text);
    assert.deepEqual(rest.json.items.map((i: any) => i.metadata.name), ['old-2', 'old-3', 'old-4']);

    const w = await watch(`resourceVersion=${old}`);
    const [err] = await w.waitForCount(1);
    assert.equal(err!.object.code, 410);
    assert.equal(err!.object.message, `too old resource version: ${old} (${await storage.compactedRevision()})`);
  });
});
