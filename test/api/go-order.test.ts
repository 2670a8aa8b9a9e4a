// Objects in the key order kube-apiserver writes them: struct fields in declaration order, map keys
// sorted by UTF-8 bytes, resourceVersion after uid. The expected texts were printed by Go 1.19's
// json.Marshal of replicas of the k8s.io/api structs, decoding the same scrambled body.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { compareCodePoints, goOrdered, withResourceVersion } from '../../core/api/go-order.js';
import type { ApiObject } from '../../core/api/meta.js';
import { csrSchema } from '../../plugins/certificates/schema.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { csrPem } from '../admission/support.js';

const SCRAMBLED = '{"status":{"conditions":[{"lastUpdateTime":"2026-01-01T00:00:00Z","reason":"R","status":"True","type":"Approved","message":"m"}]},'
  + '"spec":{"extra":{"zz":["1"],"\uFFFD":["2"],"😀":["3"],"a":["4"]},"groups":["g"],"uid":"u","username":"alice","usages":["client auth"],"expirationSeconds":600,"signerName":"example.com/x","request":"AAAA"},'
  + '"metadata":{"finalizers":["f"],"annotations":{"b":"1","a":"2"},"labels":{"z":"1","a":"2"},"creationTimestamp":"2026-01-01T00:00:00Z","generation":3,"uid":"id","namespace":"","generateName":"g-","name":"n"},'
  + '"apiVersion":"certificates.k8s.io/v1","kind":"CertificateSigningRequest"}';
const GO_WROTE = '{"kind":"CertificateSigningRequest","apiVersion":"certificates.k8s.io/v1","metadata":{"name":"n","generateName":"g-","uid":"id","resourceVersion":"7","generation":3,"creationTimestamp":"2026-01-01T00:00:00Z","labels":{"a":"2","z":"1"},"annotations":{"a":"2","b":"1"},"finalizers":["f"]},'
  + '"spec":{"request":"AAAA","signerName":"example.com/x","expirationSeconds":600,"usages":["client auth"],"username":"alice","uid":"u","groups":["g"],"extra":{"a":["4"],"zz":["1"],"\uFFFD":["2"],"😀":["3"]}},'
  + '"status":{"conditions":[{"type":"Approved","status":"True","reason":"R","message":"m","lastUpdateTime":"2026-01-01T00:00:00Z"}]}}';

describe('goOrdered', () => {
  it('writes a CSR as Go does: declaration order, sorted maps, resourceVersion after uid', () => {
    const stored = goOrdered(JSON.parse(SCRAMBLED), csrSchema) as ApiObject;
    // Go keeps an empty namespace out (omitempty); plat's stores never keep one on a cluster-scoped object.
    delete stored.metadata.namespace;
    const served = { ...stored, metadata: withResourceVersion(stored.metadata, '7') };
    assert.equal(JSON.stringify(served), GO_WROTE);
  });

  it('leaves the value it is given alone, and unstructured content in its own order', () => {
    const input = { spec: { b: 1, a: 2 }, raw: { z: 1, a: 2 } };
    const schema = { type: 'object', properties: { raw: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } } as const;
    const out = goOrdered(input, schema) as Record<string, unknown>;
    assert.deepEqual(Object.keys(out), ['raw', 'spec'], 'named fields first, then the rest as they came');
    assert.deepEqual(Object.keys(out['raw'] as object), ['z', 'a']);
    assert.deepEqual(Object.keys(input), ['spec', 'raw']);
  });

  it('compares as UTF-8 bytes do', () => {
    const table: [string, string, number][] = [
      ['a', 'b', -1], ['b', 'a', 1], ['a', 'a', 0], ['a', 'ab', -1],
      ['\uFFFD', '😀', -1], ['😀', '\uE000', 1], ['😀', 'z', 1], ['\uD7FF', '😀', -1],
    ];
    for (const [a, b, sign] of table) assert.equal(Math.sign(compareCodePoints(a, b)), sign, `${a} vs ${b}`);
  });

  it('places resourceVersion before the first field Go declares after it', () => {
    const cases: [Record<string, unknown>, string[]][] = [
      [{}, ['resourceVersion']],
      [{ name: 'n', uid: 'u' }, ['name', 'uid', 'resourceVersion']],
      [{ name: 'n', labels: {} }, ['name', 'resourceVersion', 'labels']],
      [{ name: 'n', uid: 'u', generation: 1, creationTimestamp: 't' }, ['name', 'uid', 'resourceVersion', 'generation', 'creationTimestamp']],
      [{ name: 'n', resourceVersion: '1', managedFields: [] }, ['name', 'resourceVersion', 'managedFields']],
    ];
    for (const [meta, keys] of cases) {
      const out = withResourceVersion(meta, '9');
      assert.deepEqual(Object.keys(out), keys);
      assert.equal(out.resourceVersion, '9');
    }
  });
});

describe('objects served in Go\'s key order', () => {
  let plat: RunningPlat;
  before(async () => { plat = await startInProcess(); });
  after(async () => { await plat?.stop(); });

  it('create, get, list, watch and dry run write kind, apiVersion, then metadata in ObjectMeta order', async () => {
    const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';
    const request = Buffer.from(csrPem('/CN=order')).toString('base64');
    const body = `{"spec":{"usages":["client auth"],"signerName":"example.com/x","request":"${request}"},"metadata":{"labels":{"z":"1","a":"2"},"name":"order"}}`;
    const shape = (o: any) => ({ top: Object.keys(o), metadata: Object.keys(o.metadata), labels: Object.keys(o.metadata.labels), spec: Object.keys(o.spec) });
    const want = {
      top: ['kind', 'apiVersion', 'metadata', 'spec', 'status'],
      metadata: ['name', 'uid', 'resourceVersion', 'creationTimestamp', 'labels', 'managedFields'],
      labels: ['a', 'z'],
      spec: ['request', 'signerName', 'usages', 'username', 'groups', 'extra'],
    };
    const dry = await plat.admin.post(`${CSRS}?dryRun=All`, body, { 'content-type': 'application/json' });
    assert.equal(dry.status, 201, dry.text);
    assert.deepEqual(shape(dry.json), { ...want, metadata: ['name', 'uid', 'creationTimestamp', 'labels', 'managedFields'] });
    // A managedFields entry in ManagedFieldsEntry's order.
    assert.deepEqual(Object.keys(dry.json.metadata.managedFields[0]), ['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'fieldsV1']);
    const created = await plat.admin.post(CSRS, body, { 'content-type': 'application/json' });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(shape(created.json), want);
    assert.deepEqual(shape((await plat.admin.get(`${CSRS}/order`)).json), want);
    assert.deepEqual(shape((await plat.admin.get(CSRS)).json.items.find((i: any) => i.metadata.name === 'order')), want);
    const watch = await plat.admin.get(`${CSRS}?watch=1&timeoutSeconds=1&fieldSelector=metadata.name%3Dorder`);
    assert.deepEqual(shape(JSON.parse(watch.text.split('\n')[0]!).object), want);
  });

  it('a delete held by a finalizer marks the object in the same order, and removing the finalizer completes it', async () => {
    const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';
    const request = Buffer.from(csrPem('/CN=held')).toString('base64');
    const created = await plat.admin.post(CSRS, { metadata: { name: 'held', finalizers: ['example.com/hold'] }, spec: { signerName: 'example.com/x', request, usages: ['client auth'] } });
    assert.equal(created.status, 201, created.text);
    const marked = await plat.admin.delete(`${CSRS}/held`);
    assert.equal(marked.status, 200, marked.text);
    assert.deepEqual(Object.keys(marked.json.metadata), ['name', 'uid', 'resourceVersion', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'finalizers', 'managedFields']);
    assert.deepEqual(Object.keys((await plat.admin.get(`${CSRS}/held`)).json.metadata), Object.keys(marked.json.metadata));
    const released = await plat.admin.patch(`${CSRS}/held`, '{"metadata":{"finalizers":null}}', 'application/merge-patch+json');
    assert.equal(released.status, 200, released.text);
    assert.equal((await plat.admin.get(`${CSRS}/held`)).status, 404);
  });

  it('answers reviews and subresource creates, which are not stored, in the same order', async () => {
    const sar = await plat.admin.post('/apis/authorization.platform/v1/subjectaccessreviews',
      '{"spec":{"user":"bob","resourceAttributes":{"resource":"pods","verb":"get"}},"apiVersion":"authorization.platform/v1","kind":"SubjectAccessReview"}',
      { 'content-type': 'application/json' });
    assert.equal(sar.status, 201, sar.text);
    assert.equal(sar.text.replace(/\s+$/, ''), '{"kind":"SubjectAccessReview","apiVersion":"authorization.platform/v1","metadata":{"creationTimestamp":null},'
      + '"spec":{"resourceAttributes":{"verb":"get","resource":"pods"},"user":"bob"},"status":{"allowed":true}}');
    const sa = await plat.admin.post('/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'order' } });
    assert.equal(sa.status, 201, sa.text);
    const token = await plat.admin.post('/api/v1/namespaces/default/serviceaccounts/order/token', '{"spec":{"expirationSeconds":3600}}', { 'content-type': 'application/json' });
    assert.equal(token.status, 201, token.text);
    assert.deepEqual([Object.keys(token.json), Object.keys(token.json.status)], [['kind', 'apiVersion', 'metadata', 'spec', 'status'], ['token', 'expirationTimestamp']]);
  });
});
