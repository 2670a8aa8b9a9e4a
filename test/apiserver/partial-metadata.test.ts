// `as=PartialObjectMetadata[List];g=meta.k8s.io` answers, as the handlers' transformObject makes
// them for client-go's metadata client (whose Accept headers are used verbatim): one object, a
// list and a watch reduced to metadata, in v1 and v1beta1; the other kind of the pair is a 406 in
// upstream's words. Over real HTTPS against an in-process `plat all`.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { baseCsr, fixtures, type Fixtures } from '../certificates/fixtures.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { WatchStream } from '../helpers/watch-stream.js';

const P = '/apis/certificates.platform/v1/certificatesigningrequests';
// k8s.io/client-go/metadata's Get/List and Watch Accept headers.
const GET_ACCEPT = 'application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json';
const LIST_ACCEPT = 'application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';

describe('PartialObjectMetadata answers', () => {
  let plat: RunningPlat;
  let fx: Fixtures;
  before(async () => {
    fx = fixtures();
    plat = await startInProcess();
    for (const name of ['pm-1', 'pm-2']) {
      const o = baseCsr(fx, name);
      o.metadata.labels = { suite: 'pm' };
      assert.equal((await plat.admin.post(P, o)).status, 201);
    }
  });
  after(async () => { await plat?.stop(); });

  it('GET: the object\'s metadata only, in the version asked for', async () => {
    const full = (await plat.admin.get(`${P}/pm-1`)).json;
    const r = await plat.admin.get(`${P}/pm-1`, { accept: GET_ACCEPT });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json, { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: full.metadata });
    const beta = await plat.admin.get(`${P}/pm-1`, { accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1beta1' });
    assert.equal(beta.json.apiVersion, 'meta.k8s.io/v1beta1');
    assert.equal(beta.json.kind, 'PartialObjectMetadata');
  });

  it('LIST: a PartialObjectMetadataList whose items carry their own kind', async () => {
    const r = await plat.admin.get(`${P}?labelSelector=suite%3Dpm&limit=1`, { accept: LIST_ACCEPT });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.kind, 'PartialObjectMetadataList');
    assert.equal(r.json.apiVersion, 'meta.k8s.io/v1');
    assert.ok(r.json.metadata.resourceVersion);
    assert.ok(r.json.metadata.continue, 'the list\'s continue token is kept');
    assert.deepEqual(r.json.items.map((i: any) => [i.kind, i.apiVersion, i.metadata.name, 'spec' in i]), [['PartialObjectMetadata', 'meta.k8s.io/v1', 'pm-1', false]]);
  });

  it('the other kind of the pair is 406 in transformObject\'s words', async () => {
    const one = await plat.admin.get(`${P}/pm-1`, { accept: 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1' });
    assert.equal(one.status, 406, one.text);
    assert.equal(one.json.reason, 'NotAcceptable');
    assert.equal(one.json.message, 'you requested PartialObjectMetadataList, but the requested object is not a list (*certificates.CertificateSigningRequest)');
    const list = await plat.admin.get(P, { accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1' });
    assert.equal(list.status, 406, list.text);
    assert.equal(list.json.message, 'you requested PartialObjectMetadata, but the requested object is a list (*certificates.CertificateSigningRequestList)');
  });

  it('a write answers in the form asked for too', async () => {
    const r = await plat.admin.request('PATCH', `${P}/pm-2`, { metadata: { labels: { extra: 'x' } } },
      { 'content-type': 'application/merge-patch+json', accept: GET_ACCEPT });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.kind, 'PartialObjectMetadata');
    assert.equal(r.json.metadata.labels.extra, 'x');
  });

  it('WATCH: each event\'s object, bookmarks included, reduced to metadata', async () => {
    const w = await WatchStream.open(plat.admin, `${P}?watch=true&labelSelector=suite%3Dpm&allowWatchBookmarks=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&timeoutSeconds=5`,
      { accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json' });
    try {
      assert.equal(w.status, 200);
      const evs = await w.waitForCount(3);
      assert.deepEqual(evs.map((e) => [e.type, e.object.kind, e.object.apiVersion]), [
        ['ADDED', 'PartialObjectMetadata', 'meta.k8s.io/v1'], ['ADDED', 'PartialObjectMetadata', 'meta.k8s.io/v1'], ['BOOKMARK', 'PartialObjectMetadata', 'meta.k8s.io/v1']]);
      assert.equal((evs[0]!.object as any).spec, undefined);
      assert.equal(evs[2]!.object.metadata?.annotations?.['k8s.io/initial-events-end'], 'true');
    } finally { w.close(); }
  });
});
