// core/v1 Namespaces, Secrets, ServiceAccounts (and the Node's finalizer rule) as kube-apiserver
// 1.32 validates and prepares them: ValidateSecret's per-type rules under plat's type names, the
// TLS pair warning, config-key `..` prefixes, the core finalizer-name rule, Namespace spec.finalizers
// and its status subresource (Terminating once a delete marks it), ServiceAccount secret
// references, NamespaceLifecycle on updates, and the Table cells and columns of upstream's printers.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';

const NS = '/api/v1/namespaces';
const secrets = (ns: string) => `${NS}/${ns}/secrets`;
const sas = (ns: string) => `${NS}/${ns}/serviceaccounts`;
const b64 = (s: string) => Buffer.from(s).toString('base64');
const TABLE = { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' };
const MERGE = 'application/merge-patch+json';
const NOT_STANDARD = 'name is neither a standard finalizer name nor is it fully qualified';

describe('core/v1 validation as kube-apiserver 1.32', () => {
  let plat: RunningPlat;
  before(async () => { plat = await startInProcess({ args: ['--controllers='] }); }); // no namespace controller: deleted namespaces stay as the tests leave them
  after(async () => { await plat?.stop(); });

  /** DELETE (Terminating), then PUT finalize with no spec finalizers: the namespace is removed. */
  const goneNow = async (name: string) => {
    const d = await plat.admin.delete(`${NS}/${name}`);
    assert.equal(d.status, 200, d.text);
    assert.equal(d.json.status.phase, 'Terminating');
    const f = await plat.admin.put(`${NS}/${name}/finalize`, { ...d.json, spec: {} });
    assert.equal(f.status, 200, f.text);
  };

  const secretCases: { name: string; type: string; data?: Record<string, string>; annotations?: Record<string, string>; message?: string }[] = [
    { name: 'sa-token-no-annotation', type: 'platform/service-account-token', message: 'metadata.annotations[platform/service-account.name]: Required value' },
    { name: 'sa-token-empty-annotation', type: 'platform/service-account-token', annotations: { 'platform/service-account.name': '' }, message: 'metadata.annotations[platform/service-account.name]: Required value' },
    { name: 'sa-token-ok', type: 'platform/service-account-token', annotations: { 'platform/service-account.name': 'default' } },
    { name: 'dockercfg-missing', type: 'platform/dockercfg', message: 'data[.dockercfg]: Required value' },
    { name: 'dockercfg-syntax', type: 'platform/dockercfg', data: { '.dockercfg': b64('{"a":') }, message: 'data[.dockercfg]: Invalid value: "<secret contents redacted>": unexpected end of JSON input' },
    { name: 'dockercfg-array', type: 'platform/dockercfg', data: { '.dockercfg': b64('[1]') }, message: 'data[.dockercfg]: Invalid value: "<secret contents redacted>": json: cannot unmarshal array into Go value of type map[string]interface {}' },
    { name: 'dockercfg-ok', type: 'platform/dockercfg', data: { '.dockercfg': b64('{"r":{}}') } },
    { name: 'dockerconfigjson-missing', type: 'platform/dockerconfigjson', message: 'data[.dockerconfigjson]: Required value' },
    { name: 'dockerconfigjson-string', type: 'platform/dockerconfigjson', data: { '.dockerconfigjson': b64('"x"') }, message: 'data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": json: cannot unmarshal string into Go value of type map[string]interface {}' },
    { name: 'dockerconfigjson-bad-char', type: 'platform/dockerconfigjson', data: { '.dockerconfigjson': b64('x') }, message: 'data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": invalid character \'x\' looking for beginning of value' },
    { name: 'basic-auth-neither', type: 'platform/basic-auth', message: '[data[username]: Required value, data[password]: Required value]' },
    { name: 'basic-auth-password-only', type: 'platform/basic-auth', data: { password: '' } },
    { name: 'ssh-auth-empty', type: 'platform/ssh-auth', data: { 'ssh-privatekey': '' }, message: 'data[ssh-privatekey]: Required value' },
    { name: 'tls-missing', type: 'platform/tls', data: { 'tls.key': b64('k') }, message: 'data[tls.crt]: Required value' },
    { name: 'tls-both-missing', type: 'platform/tls', message: '[data[tls.crt]: Required value, data[tls.key]: Required value]' },
    { name: 'bootstrap-unchecked', type: 'bootstrap.platform/token' },
    { name: 'upstream-spelling-unchecked', type: 'kubernetes.io/tls' },
    { name: 'dotdot-prefix', type: 'Opaque', data: { '..a': b64('x') }, message: 'data[..a]: Invalid value: "..a": must not start with \'..\'' },
  ];
  for (const c of secretCases) {
    it(`Secret ${c.type} ${c.name}: ${c.message ?? 'created'}`, async () => {
      const r = await plat.admin.post(secrets('default'), { metadata: { name: c.name, annotations: c.annotations }, type: c.type, data: c.data });
      if (!c.message) { assert.equal(r.status, 201, r.text); return; }
      assert.equal(r.status, 422, r.text);
      assert.equal(r.json.message, `Secret "${c.name}" is invalid: ${c.message}`);
    });
  }

  it('a bad generateName is reported before the name made from it (ValidateObjectMetaAccessor\'s order)', async () => {
    const r = await plat.admin.post(secrets('default'), { metadata: { generateName: 'x/' }, type: 'Opaque' });
    assert.equal(r.status, 422, r.text);
    assert.deepEqual(r.json.details.causes.map((c: { field: string }) => c.field), ['metadata.generateName', 'metadata.name']);
    assert.match(r.json.message, /^Secret "x\/[a-z0-9]{5}" is invalid: \[metadata\.generateName: Invalid value: "x\/": .*, metadata\.name: Invalid value: "x\/[a-z0-9]{5}": /);
  });

  it('a TLS Secret whose pair tls.X509KeyPair refuses is stored, with its error as a warning on create and update', async () => {
    const body = { metadata: { name: 'tls-bad-pair' }, type: 'platform/tls', data: { 'tls.crt': b64('not pem'), 'tls.key': b64('') } };
    const c = await plat.admin.post(secrets('default'), body);
    assert.equal(c.status, 201, c.text);
    assert.equal(c.headers.warning, '299 - "tls: failed to find any PEM data in certificate input"');
    const u = await plat.admin.patch(`${secrets('default')}/tls-bad-pair`, { metadata: { labels: { a: 'b' } } }, MERGE);
    assert.equal(u.status, 200, u.text);
    assert.equal(u.headers.warning, '299 - "tls: failed to find any PEM data in certificate input"');
  });

  it('a Secret update reports the type, then immutability, then ValidateSecret', async () => {
    const c = await plat.admin.post(secrets('default'), { metadata: { name: 'order' }, data: { a: b64('x') }, immutable: true });
    assert.equal(c.status, 201, c.text);
    const u = await plat.admin.put(`${secrets('default')}/order`, { ...c.json, type: 'platform/basic-auth', data: { '..b': b64('y') }, immutable: false });
    assert.equal(u.status, 422, u.text);
    assert.deepEqual(u.json.details.causes.map((x: any) => x.field), ['type', 'immutable', 'data', 'data[..b]', 'data[username]', 'data[password]']);
  });

  const finalizerCases: { kind: string; path: string; body: Record<string, unknown>; code: number }[] = [
    { kind: 'Secret', path: secrets('default'), body: { metadata: { name: 'fin', finalizers: ['foo'] } }, code: 422 },
    { kind: 'ServiceAccount', path: sas('default'), body: { metadata: { name: 'fin', finalizers: ['foo'] } }, code: 422 },
    { kind: 'Namespace', path: NS, body: { metadata: { name: 'fin', finalizers: ['foo'] } }, code: 422 },
    { kind: 'Node', path: '/api/v1/nodes', body: { metadata: { name: 'fin', finalizers: ['foo'] } }, code: 422 },
    { kind: 'Secret', path: secrets('default'), body: { metadata: { name: 'fin-ok', finalizers: ['orphan', 'platform', 'example.com/x'] } }, code: 201 },
    { kind: 'Secret', path: secrets('default'), body: { metadata: { name: 'fin-ok2', finalizers: ['foregroundDeletion'] } }, code: 201 },
    // ValidateFinalizers: the garbage collector's two together are refused, whatever the kind.
    { kind: 'Secret', path: secrets('default'), body: { metadata: { name: 'fin-both', finalizers: ['orphan', 'foregroundDeletion'] } }, code: 422 },
  ];
  for (const c of finalizerCases) {
    it(`${c.kind} metadata.finalizers ${JSON.stringify((c.body.metadata as any).finalizers)}: ${c.code}`, async () => {
      const r = await plat.admin.post(c.path, c.body);
      assert.equal(r.status, c.code, r.text);
      const name = (c.body.metadata as { name: string }).name;
      if (c.code === 422 && name === 'fin') assert.equal(r.json.message, `${c.kind} "fin" is invalid: metadata.finalizers[0]: Invalid value: "foo": ${NOT_STANDARD}`);
      if (c.code === 422 && name === 'fin-both') {
        assert.equal(r.json.message, `${c.kind} "fin-both" is invalid: metadata.finalizers: Invalid value: []string{"orphan", "foregroundDeletion"}: finalizer orphan and foregroundDeletion cannot be both set`);
      }
    });
  }

  it('an update is checked by the core finalizer rule too (twice, as ValidateObjectMetaUpdate and ValidateServiceAccount run it)', async () => {
    assert.equal((await plat.admin.post(sas('default'), { metadata: { name: 'upd' } })).status, 201);
    const u = await plat.admin.patch(`${sas('default')}/upd`, { metadata: { finalizers: ['bar'] } }, MERGE);
    assert.equal(u.status, 422, u.text);
    assert.equal(u.json.message, `ServiceAccount "upd" is invalid: metadata.finalizers[0]: Invalid value: "bar": ${NOT_STANDARD}`);
    assert.equal(u.json.details.causes.length, 2);
  });

  it('Namespace spec.finalizers: platform added on create, names validated, kept on update', async () => {
    const c = await plat.admin.post(NS, { metadata: { name: 'nsf' }, spec: { finalizers: ['example.com/a'] } });
    assert.equal(c.status, 201, c.text);
    assert.deepEqual(c.json.spec.finalizers, ['example.com/a', 'platform']);
    assert.deepEqual((await plat.admin.get(`${NS}/default`)).json.spec.finalizers, ['platform']);
    const bad = await plat.admin.post(NS, { metadata: { name: 'nsf-bad' }, spec: { finalizers: ['foo'] } });
    assert.equal(bad.status, 422, bad.text);
    assert.equal(bad.json.message, `Namespace "nsf-bad" is invalid: spec.finalizers: Invalid value: "foo": ${NOT_STANDARD}`);
    const u = await plat.admin.patch(`${NS}/nsf`, { spec: { finalizers: [] }, metadata: { labels: { x: 'y' } } }, MERGE);
    assert.equal(u.status, 200, u.text);
    assert.deepEqual(u.json.spec.finalizers, ['example.com/a', 'platform']);
    assert.equal(u.json.metadata.labels.x, 'y');
  });

  it('namespaces/status: get, patch, update; the spec stays, the phase must be Active while not deleted', async () => {
    const disc = await plat.admin.get('/api/v1');
    assert.deepEqual(disc.json.resources.find((r: any) => r.name === 'namespaces/status').verbs, ['get', 'patch', 'update']);
    const c = await plat.admin.post(NS, { metadata: { name: 'nss' } });
    assert.equal(c.status, 201, c.text);
    const bad = await plat.admin.patch(`${NS}/nss/status`, { status: { phase: 'Foo' } }, MERGE);
    assert.equal(bad.status, 422, bad.text);
    assert.equal(bad.json.message, 'Namespace "nss" is invalid: status.Phase: Invalid value: "Foo": may only be \'Active\' if `deletionTimestamp` is empty');
    const ok = await plat.admin.put(`${NS}/nss/status`, { ...c.json, spec: { finalizers: ['example.com/b'] }, status: {} });
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual(ok.json.spec.finalizers, ['platform']);
    assert.equal(ok.json.status.phase, 'Active');
  });

  it('ServiceAccount secrets[] keep only their names, on create and update', async () => {
    const c = await plat.admin.post(sas('default'), { metadata: { name: 'refs' }, secrets: [{ name: 's1', kind: 'Secret', uid: 'u', namespace: 'x' }, { kind: 'Secret' }] });
    assert.equal(c.status, 201, c.text);
    assert.deepEqual(c.json.secrets, [{ name: 's1' }, {}]);
    const u = await plat.admin.put(`${sas('default')}/refs`, { ...c.json, secrets: [{ name: 's2', fieldPath: 'f', apiVersion: 'v1' }] });
    assert.equal(u.status, 200, u.text);
    assert.deepEqual(u.json.secrets, [{ name: 's2' }]);
  });

  it('NamespaceLifecycle: updates in a namespace that is gone are 404, deletes are not', async () => {
    assert.equal((await plat.admin.post(NS, { metadata: { name: 'gone' } })).status, 201);
    const s = await plat.admin.post(secrets('gone'), { metadata: { name: 'left' }, data: { a: b64('x') } });
    assert.equal(s.status, 201, s.text);
    // Deleted, then finalized by hand before any namespace controller empties it (upstream's way to
    // force a namespace out): the namespace is gone and what was in it is left.
    await goneNow('gone');
    for (const r of [
      await plat.admin.put(`${secrets('gone')}/left`, s.json),
      await plat.admin.patch(`${secrets('gone')}/left`, { metadata: { labels: { a: 'b' } } }, MERGE),
    ]) {
      assert.equal(r.status, 404, r.text);
      assert.equal(r.json.message, 'namespaces "gone" not found');
    }
    assert.equal((await plat.admin.request('DELETE', `${secrets('gone')}/left`)).status, 200);
  });

  it('NamespaceLifecycle: an object being deleted in a namespace that is gone can still lose its finalizers', async () => {
    assert.equal((await plat.admin.post(NS, { metadata: { name: 'gone-held' } })).status, 201);
    const s = await plat.admin.post(secrets('gone-held'), { metadata: { name: 'held', finalizers: ['example.com/x'] } });
    assert.equal(s.status, 201, s.text);
    await goneNow('gone-held');
    const marked = await plat.admin.delete(`${secrets('gone-held')}/held`);
    assert.equal(marked.status, 200, marked.text);
    assert.ok(marked.json.metadata.deletionTimestamp, 'marked, not deleted');
    // Other updates of it pass too (the finalizer's owner may record progress first).
    const labelled = await plat.admin.patch(`${secrets('gone-held')}/held`, { metadata: { labels: { step: 'one' } } }, MERGE);
    assert.equal(labelled.status, 200, labelled.text);
    const finalized = await plat.admin.patch(`${secrets('gone-held')}/held`, { metadata: { finalizers: null } }, MERGE);
    assert.equal(finalized.status, 200, finalized.text);
    assert.equal((await plat.admin.get(`${secrets('gone-held')}/held`)).status, 404, 'the last finalizer gone, the object is');
  });

  it('a namespace that finalizers hold is Terminating once deleted, and its status can be written keeping that phase', async () => {
    const c = await plat.admin.post(NS, { metadata: { name: 'nst', finalizers: ['example.com/hold'] } });
    assert.equal(c.status, 201, c.text);
    const d = await plat.admin.delete(`${NS}/nst`);
    assert.equal(d.status, 200, d.text);
    assert.ok(d.json.metadata.deletionTimestamp);
    assert.equal(d.json.status.phase, 'Terminating', 'REST.Delete\'s answer');
    assert.equal((await plat.admin.get(`${NS}/nst`)).json.status.phase, 'Terminating');
    const kept = await plat.admin.patch(`${NS}/nst/status`, { metadata: { labels: { a: 'b' } } }, MERGE);
    assert.equal(kept.status, 200, kept.text);
    assert.equal(kept.json.status.phase, 'Terminating');
    const active = await plat.admin.patch(`${NS}/nst/status`, { status: { phase: 'Active' } }, MERGE);
    assert.equal(active.status, 422, active.text);
    assert.equal(active.json.message, 'Namespace "nst" is invalid: status.Phase: Invalid value: "Active": may only be \'Terminating\' if `deletionTimestamp` is not empty');
    // NamespaceLifecycle: nothing new goes into a Terminating namespace; what is there may change.
    const added = await plat.admin.post(secrets('nst'), { metadata: { generateName: 'late-' }, type: 'Opaque' });
    assert.equal(added.status, 403, added.text);
    assert.deepEqual(added.json, {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'secrets "late-" is forbidden: unable to create new content in namespace nst because it is being terminated',
      reason: 'Forbidden',
      details: { name: 'late-', kind: 'secrets', causes: [{ reason: 'NamespaceTerminating', message: 'namespace nst is being terminated', field: 'metadata.namespace' }] },
      code: 403,
    });
    // Both finalizer lists must empty out: the metadata one first leaves it Terminating.
    const unheld = await plat.admin.patch(`${NS}/nst`, { metadata: { finalizers: null } }, MERGE);
    assert.equal(unheld.status, 200, unheld.text);
    assert.equal((await plat.admin.get(`${NS}/nst`)).json.status.phase, 'Terminating');
    const done = await plat.admin.put(`${NS}/nst/finalize`, { ...unheld.json, spec: {} });
    assert.equal(done.status, 200, done.text);
    assert.equal((await plat.admin.get(`${NS}/nst`)).status, 404);
  });

  it('Tables: a Secret\'s Data and a ServiceAccount\'s Secrets are integers in "string" columns with upstream\'s descriptions', async () => {
    const st = await plat.admin.get(`${secrets('default')}/sa-token-ok`, TABLE);
    assert.equal(st.status, 200, st.text);
    assert.deepEqual(st.json.columnDefinitions.map((c: any) => [c.name, c.type]), [['Name', 'string'], ['Type', 'string'], ['Data', 'string'], ['Age', 'string']]);
    assert.equal(st.json.columnDefinitions[1].description, 'Used to facilitate programmatic handling of secret data. More info: https://kubernetes.io/docs/concepts/configuration/secret/#secret-types');
    assert.match(st.json.columnDefinitions[2].description, /^Data contains the secret data\. Each key must consist/);
    assert.equal(st.json.rows[0].cells[2], 0);
    const sa = await plat.admin.get(`${sas('default')}/refs`, TABLE);
    assert.equal(sa.status, 200, sa.text);
    assert.equal(sa.json.rows[0].cells[1], 1);
  });
});
