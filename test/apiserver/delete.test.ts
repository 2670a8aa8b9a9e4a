// DELETE and deletecollection as handlers/delete.go and the generic Store answer them, over real
// HTTPS: DeleteOptions from the body or else the query (uid/resourceVersion preconditions), their
// validation, rest.BeforeDelete's conflicts, the Success Status and the deleted list; objects
// being deleted (create over one, the update that removes the last finalizer); generateName
// conflicts; PUT's namespace and name checks; integer query parameters in strconv's words.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';

const S = '/api/v1/namespaces/default/secrets';
const secret = (name: string, extra: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name, ...extra } });

describe('delete', () => {
  let plat: RunningPlat;
  before(async () => { plat = await startInProcess(); });
  after(async () => { await plat?.stop(); });

  const make = async (name: string, extra: Record<string, unknown> = {}) => {
    const r = await plat.admin.post(S, secret(name, extra));
    assert.equal(r.status, 201, r.text);
    return r.json;
  };

  it('preconditions from the query when there is no body, and not when there is one', async () => {
    const s = await make('p1');
    const { uid, resourceVersion: rv } = s.metadata;
    const uidConflict = (given: string) => `Operation cannot be fulfilled on Secret "p1": the UID in the precondition (${given}) does not match the UID in record (${uid}). The object might have been deleted and then recreated`;
    const cases: { name: string; path: string; body?: unknown; code: number; message?: string }[] = [
      { name: 'query uid', path: `${S}/p1?uid=abc`, code: 409, message: uidConflict('abc') },
      { name: 'query resourceVersion', path: `${S}/p1?resourceVersion=1`, code: 409,
        message: `Operation cannot be fulfilled on Secret "p1": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${rv}). The object might have been modified` },
      { name: 'body uid wins over the query', path: `${S}/p1?uid=${uid}`, body: { preconditions: { uid: 'abc' } }, code: 409, message: uidConflict('abc') },
      { name: 'an empty body uid is a precondition', path: `${S}/p1`, body: { preconditions: { uid: '' } }, code: 409, message: uidConflict('') },
    ];
    for (const c of cases) {
      const r = await plat.admin.request('DELETE', c.path, c.body);
      assert.equal(r.status, c.code, `${c.name}: ${r.text}`);
      assert.equal(r.json.message, c.message, c.name);
      assert.equal(r.json.reason, 'Conflict', c.name);
      assert.deepEqual(r.json.details, { name: 'p1', kind: 'Secret' }, c.name);
    }
    assert.equal((await plat.admin.get(`${S}/p1`)).status, 200);
    const ok = await plat.admin.request('DELETE', `${S}/p1?uid=${uid}&resourceVersion=${rv}`);
    assert.equal(ok.status, 200, ok.text);
    // StatusDetails.group is omitempty: a core resource's Status has none.
    assert.deepEqual(ok.json, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: 'p1', kind: 'secrets', uid } });
    assert.equal((await plat.admin.get(`${S}/p1`)).status, 404);
  });

  it('a protobuf DeleteOptions body is read, as client-go\'s typed clients send it', async () => {
    await make('b1');
    // Length-delimited fields; the envelope is "k8s\0" + runtime.Unknown{typeMeta, raw}.
    const field = (no: number, bytes: Buffer) => Buffer.concat([Buffer.from([(no << 3) | 2, bytes.length]), bytes]);
    const options = field(2, field(1, Buffer.from('abc')));
    const typeMeta = Buffer.concat([field(1, Buffer.from('v1')), field(2, Buffer.from('DeleteOptions'))]);
    const body = Buffer.concat([Buffer.from('k8s\0', 'latin1'), field(1, typeMeta), field(2, options)]);
    const r = await plat.admin.request('DELETE', `${S}/b1`, body, { 'content-type': 'application/vnd.kubernetes.protobuf' });
    assert.equal(r.status, 409, r.text);
    assert.match(r.json.message, /the UID in the precondition \(abc\) does not match/);
  });

  it('a body replaces the query entirely: its dryRun is the only one', async () => {
    await make('q1');
    const r = await plat.admin.request('DELETE', `${S}/q1?dryRun=All`, { kind: 'DeleteOptions', apiVersion: 'v1' });
    assert.equal(r.status, 200, r.text);
    assert.equal((await plat.admin.get(`${S}/q1`)).status, 404);
  });

  it('DeleteOptions refused: media type, validation, integers', async () => {
    await make('v1');
    const cases: { name: string; path: string; body?: unknown; headers?: Record<string, string>; code: number; message: string }[] = [
      { name: 'text/plain body', path: `${S}/v1`, body: '{}', headers: { 'content-type': 'text/plain' }, code: 415,
        message: 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf' },
      { name: 'orphanDependents and propagationPolicy (query)', path: `${S}/v1?orphanDependents=true&propagationPolicy=Background`, code: 422,
        message: 'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Background": orphanDependents and deletionPropagation cannot be both set' },
      { name: 'orphanDependents and propagationPolicy (body)', path: `${S}/v1`, body: { orphanDependents: false, propagationPolicy: 'Foreground' }, code: 422,
        message: 'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Foreground": orphanDependents and deletionPropagation cannot be both set' },
      { name: 'gracePeriodSeconds not a number (query)', path: `${S}/v1?gracePeriodSeconds=abc`, code: 400, message: 'strconv.ParseInt: parsing "abc": invalid syntax' },
      { name: 'gracePeriodSeconds a string (body)', path: `${S}/v1`, body: { gracePeriodSeconds: 'abc' }, code: 400,
        message: 'json: cannot unmarshal string into Go struct field DeleteOptions.gracePeriodSeconds of type int64' },
      { name: 'uid a number (body)', path: `${S}/v1`, body: { preconditions: { uid: 5 } }, code: 400,
        message: 'json: cannot unmarshal number into Go struct field Preconditions.preconditions.uid of type types.UID' },
      // A body of another kind deletes nothing (upstream's decoder fails on it, a 500 there).
      { name: 'a body of another kind', path: `${S}/v1`, body: { kind: 'Pod', apiVersion: 'v1' }, code: 400,
        message: 'no kind "Pod" is registered for version "v1" in scheme "k8s.io/apimachinery/pkg/apis/meta/internalversion/scheme/register.go:27"' },
      { name: 'a kind without a version', path: `${S}/v1`, body: { kind: 'Secret', gracePeriodSeconds: 'abc' }, code: 400,
        message: 'no kind "Secret" is registered for version "meta.k8s.io/v1" in scheme "k8s.io/apimachinery/pkg/apis/meta/internalversion/scheme/register.go:27"' },
      { name: 'a meta kind that is not DeleteOptions', path: `${S}/v1`, body: { kind: 'Status', apiVersion: 'v1' }, code: 400,
        message: 'decoded object cannot be converted to DeleteOptions' },
    ];
    for (const c of cases) {
      const r = await plat.admin.request('DELETE', c.path, c.body, c.headers);
      assert.equal(r.status, c.code, `${c.name}: ${r.text}`);
      assert.equal(r.json.message, c.message, c.name);
    }
    assert.equal((await plat.admin.get(`${S}/v1`)).status, 200);
  });

  it('integer query parameters fail in strconv.ParseInt\'s words', async () => {
    const cases: [string, string][] = [
      [`${S}?limit=abc`, 'strconv.ParseInt: parsing "abc": invalid syntax'],
      [`${S}?limit=`, 'strconv.ParseInt: parsing "": invalid syntax'],
      [`${S}?limit=1.5`, 'strconv.ParseInt: parsing "1.5": invalid syntax'],
      [`${S}?limit=99999999999999999999`, 'strconv.ParseInt: parsing "99999999999999999999": value out of range'],
      [`${S}?watch=1&timeoutSeconds=x`, 'strconv.ParseInt: parsing "x": invalid syntax'],
    ];
    for (const [p, message] of cases) {
      const r = await plat.admin.get(p);
      assert.equal(r.status, 400, `${p}: ${r.text}`);
      assert.deepEqual([r.json.reason, r.json.message], ['BadRequest', message], p);
    }
    const del = await plat.admin.delete(`${S}?limit=abc`);
    assert.deepEqual([del.status, del.json.message], [400, 'strconv.ParseInt: parsing "abc": invalid syntax']);
    // ParseInt takes a sign; a boolean is false only for "0" and "false" (any case), else true.
    const limited = await plat.admin.get(`${S}?limit=%2B1&allowWatchBookmarks=yes`);
    assert.equal(limited.status, 200, limited.text);
    assert.equal(limited.json.items.length, 1);
  });

  it('deletecollection answers with the list it deleted; dryRun deletes nothing', async () => {
    for (const n of ['c1', 'c2']) await make(n, { labels: { set: 'c' } });
    await make('c3', { labels: { set: 'other' } });
    const dry = await plat.admin.delete(`${S}?labelSelector=set%3Dc&dryRun=All`);
    assert.equal(dry.status, 200, dry.text);
    assert.equal(dry.json.kind, 'SecretList');
    assert.deepEqual(dry.json.items.map((i: any) => i.metadata.name), ['c1', 'c2']);
    assert.equal((await plat.admin.get(`${S}?labelSelector=set%3Dc`)).json.items.length, 2);
    const r = await plat.admin.delete(`${S}?labelSelector=set%3Dc`);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual([r.json.kind, r.json.apiVersion], ['SecretList', 'v1']);
    assert.match(r.json.metadata.resourceVersion, /^\d+$/);
    assert.deepEqual(r.json.items.map((i: any) => [i.kind, i.metadata.name]), [['Secret', 'c1'], ['Secret', 'c2']]);
    assert.equal((await plat.admin.get(`${S}?labelSelector=set%3Dc`)).json.items.length, 0);
    assert.equal((await plat.admin.get(`${S}/c3`)).status, 200);
  });

  it('an object being deleted: create over it, 202 for orphanDependents=false, the update that removes the last finalizer', async () => {
    await make('f1', { finalizers: ['example.com/hold'] });
    const del = await plat.admin.request('DELETE', `${S}/f1?orphanDependents=false`);
    assert.equal(del.status, 202, del.text);
    assert.ok(del.json.metadata.deletionTimestamp);
    const again = await plat.admin.post(S, secret('f1'));
    assert.equal(again.status, 409);
    assert.equal(again.json.message, 'object is being deleted: secrets "f1" already exists');
    const cur = (await plat.admin.get(`${S}/f1`)).json;
    const put = await plat.admin.put(`${S}/f1`, { ...cur, metadata: { ...cur.metadata, finalizers: [] } });
    assert.equal(put.status, 200, put.text);
    assert.equal(put.json.metadata.finalizers, undefined);
    assert.equal(put.json.metadata.deletionTimestamp, cur.metadata.deletionTimestamp);
    assert.equal(put.json.metadata.resourceVersion, cur.metadata.resourceVersion);
    assert.equal((await plat.admin.get(`${S}/f1`)).status, 404);
  });

  it('a dry run of a deletion that finalizers hold answers with the object marked, and stores nothing', async () => {
    const VWC = '/apis/admissionregistration.platform/v1/validatingwebhookconfigurations';
    const held = [
      { path: S, object: secret('dry-held', { finalizers: ['example.com/hold'] }), generation: undefined },
      // A resource that counts generations: markAsDeleting counts the deletion too.
      { path: VWC, object: { metadata: { name: 'dry-held', finalizers: ['example.com/hold'] }, webhooks: [] }, generation: 2 },
    ];
    for (const h of held) {
      const made = await plat.admin.post(h.path, h.object);
      assert.equal(made.status, 201, made.text);
      const r = await plat.admin.request('DELETE', `${h.path}/dry-held?dryRun=All`);
      assert.equal(r.status, 200, r.text);
      assert.match(r.json.metadata.deletionTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/, h.path);
      assert.equal(r.json.metadata.deletionGracePeriodSeconds, 0, h.path);
      assert.equal(r.json.metadata.generation, h.generation, h.path);
      assert.equal(r.json.metadata.resourceVersion, made.json.metadata.resourceVersion, h.path);
      assert.deepEqual((await plat.admin.get(`${h.path}/dry-held`)).json, made.json, `${h.path}: nothing stored`);
    }
  });

  it('a name beside a generateName that is taken is a generateName conflict', async () => {
    await make('g1');
    const r = await plat.admin.post(S, secret('g1', { generateName: 'g-' }));
    assert.equal(r.status, 409);
    assert.deepEqual(r.json.details, { name: 'g1', kind: 'secrets', retryAfterSeconds: 1 });
    assert.equal(r.json.message, 'secrets "g1" already exists, the server was not able to generate a unique name for the object');
  });

  it('PUT: a body of another namespace, or without a name, is refused', async () => {
    const cur = await make('u1');
    const cases: [string, unknown, string][] = [
      ['other namespace', { ...cur, metadata: { ...cur.metadata, namespace: 'other' } }, 'the namespace of the provided object does not match the namespace sent on the request'],
      ['no name', { ...cur, metadata: { namespace: 'default' } }, 'the name of the object (u1 based on URL) was undeterminable: name must be provided'],
      ['another name', { ...cur, metadata: { ...cur.metadata, name: 'u2' } }, 'the name of the object (u2) does not match the name on the URL (u1)'],
    ];
    for (const [name, body, message] of cases) {
      const r = await plat.admin.put(`${S}/u1`, body);
      assert.equal(r.status, 400, `${name}: ${r.text}`);
      assert.deepEqual([r.json.reason, r.json.message], ['BadRequest', message], name);
    }
  });
});
