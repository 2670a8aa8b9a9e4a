// Server-side apply refuses a configuration holding a field the resource's schema does not declare,
// or a value of another type than the schema's, under every fieldValidation (structuredMergeManager
// .Apply's typed conversion of the patch object): a 500 with no reason and structured-merge-diff's
// text, nothing written, so no manager ever owns a field the object cannot hold and no later apply
// conflicts on one. Over real HTTPS, for the resources plat serves.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';

const APPLY = 'application/apply-patch+yaml';
const VALIDATIONS = ['', 'Strict', 'Warn', 'Ignore'];

interface Case { what: string; path: string; name: string; body: string; want: string }

const LEASES = '/apis/coordination.platform/v1/namespaces/default/leases';
const SECRETS = '/api/v1/namespaces/default/secrets';
const ROLES = '/apis/rbac.authorization.platform/v1/clusterroles';
const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';
const LEASE = 'apiVersion: coordination.platform/v1\nkind: Lease\nmetadata: {name: l1, namespace: default}\n';
const SECRET = 'apiVersion: v1\nkind: Secret\n';
const ROLE = 'apiVersion: rbac.authorization.platform/v1\nkind: ClusterRole\nmetadata: {name: r1}\n';
const CSR = 'apiVersion: certificates.platform/v1\nkind: CertificateSigningRequest\nmetadata: {name: c1}\n';
const prefix = (ns: string, name: string, gvk: string) => `failed to create typed patch object (${ns}/${name}; ${gvk}): `;

const cases: Case[] = [
  { what: 'Lease spec', path: `${LEASES}/l1`, name: 'l1', body: `${LEASE}spec: {holderIdentityy: me, leaseDurationSeconds: 10}\n`,
    want: `${prefix('default', 'l1', 'coordination.platform/v1, Kind=Lease')}.spec.holderIdentityy: field not declared in schema` },
  { what: 'Lease status (a Lease has none)', path: `${LEASES}/l1`, name: 'l1', body: `${LEASE}status: {foo: 1}\n`,
    want: `${prefix('default', 'l1', 'coordination.platform/v1, Kind=Lease')}.status: field not declared in schema` },
  { what: 'Lease metadata, even as null', path: `${LEASES}/l1`, name: 'l1', body: `${LEASE.replace('namespace: default', 'namespace: default, lables: null')}`,
    want: `${prefix('default', 'l1', 'coordination.platform/v1, Kind=Lease')}.metadata.lables: field not declared in schema` },
  { what: 'Secret: one error per map, in document order', path: `${SECRETS}/s1`, name: 's1',
    body: `${SECRET}metadata:\n  name: s1\n  lables: {a: b}\n  labelz: {c: d}\ndatta: {a: Yg==}\n`,
    want: `${prefix('', 's1', '/v1, Kind=Secret')}errors:\n  .metadata.lables: field not declared in schema\n  .datta: field not declared in schema` },
  { what: 'ClusterRole: inside an atomic list', path: `${ROLES}/r1`, name: 'r1', body: `${ROLE}rules:\n- verbs: [get]\n  resources: [leases]\n  verbz: [list]\n`,
    want: `${prefix('', 'r1', 'rbac.authorization.platform/v1, Kind=ClusterRole')}.rules[0].verbz: field not declared in schema` },
  { what: 'ClusterRole under the upstream group (the wire alias): the kind as the client sent it', path: '/apis/rbac.authorization.k8s.io/v1/clusterroles/r1', name: 'r1',
    body: `${ROLE.replace('platform', 'k8s.io')}aggregationRule: {clusterRoleSelectors: [{matchLabelz: {a: b}}]}\n`,
    want: `${prefix('', 'r1', 'rbac.authorization.k8s.io/v1, Kind=ClusterRole')}.aggregationRule.clusterRoleSelectors[0].matchLabelz: field not declared in schema` },
  { what: 'CSR spec', path: `${CSRS}/c1`, name: 'c1', body: `${CSR}spec: {signerName: example.com/x, requestt: abc}\n`,
    want: `${prefix('', 'c1', 'certificates.platform/v1, Kind=CertificateSigningRequest')}.spec.requestt: field not declared in schema` },
  { what: 'CSR status: a map list item without its key, and inside a keyed item', path: `${CSRS}/c1`, name: 'c1',
    body: `${CSR}status:\n  conditions:\n  - {type: Approved, status: "True", bogus: 1}\n  - {status: "True"}\n`,
    want: `${prefix('', 'c1', 'certificates.platform/v1, Kind=CertificateSigningRequest')}errors:\n`
      + '  .status.conditions[type="Approved"].bogus: field not declared in schema\n'
      + '  .status.conditions: element 1: associative list with keys has an element that omits key field "type" (and doesn\'t have default value)' },
  { what: 'CSR status: a map list item whose key repeats', path: `${CSRS}/c1`, name: 'c1',
    body: `${CSR}status:\n  conditions:\n  - {type: Approved, status: "True"}\n  - {type: Approved, status: "False"}\n`,
    want: `${prefix('', 'c1', 'certificates.platform/v1, Kind=CertificateSigningRequest')}.status.conditions: duplicate entries for key [type="Approved"]` },
  { what: 'values of another type than the schema\'s, as structured-merge-diff prints them', path: `${LEASES}/l1`, name: 'l1',
    body: `${LEASE}spec: {holderIdentity: 5, leaseDurationSeconds: ten, acquireTime: 7}\n`,
    want: `${prefix('default', 'l1', 'coordination.platform/v1, Kind=Lease')}errors:\n`
      + '  .spec.holderIdentity: expected string, got &value.valueUnstructured{Value:5}\n'
      + '  .spec.leaseDurationSeconds: expected numeric (int or float), got string' },
  { what: 'a boolean, a map and a list of another type', path: `${SECRETS}/s1`, name: 's1',
    body: `${SECRET}metadata: {name: s1, labels: [a]}\nimmutable: "yes"\n`,
    want: `${prefix('', 's1', '/v1, Kind=Secret')}errors:\n  .metadata.labels: expected map, got &{[a]}\n  .immutable: expected boolean, got &{yes}` },
  { what: 'a list of another type', path: `${ROLES}/r1`, name: 'r1', body: `${ROLE}rules: {a: b}\n`,
    want: `${prefix('', 'r1', 'rbac.authorization.platform/v1, Kind=ClusterRole')}.rules: expected list, got &{map[a:b]}` },
];

describe('server-side apply refuses fields the schema does not declare, and values of another type', () => {
  let plat: RunningPlat;
  before(async () => { plat = await startInProcess(); });
  after(async () => { await plat?.stop(); });

  const apply = (path: string, body: string, query: string) =>
    plat.admin.request('PATCH', `${path}?fieldManager=ctrl${query}`, body, { 'content-type': APPLY });

  it('500, no reason, structured-merge-diff\'s text, under every fieldValidation; nothing is created', async () => {
    for (const c of cases) {
      for (const v of VALIDATIONS) {
        const r = await apply(c.path, c.body, v ? `&fieldValidation=${v}` : '');
        const label = `${c.what} (fieldValidation=${v || 'none'})`;
        assert.equal(r.status, 500, `${label}: ${r.text}`);
        assert.equal(r.json.reason, undefined, label);
        assert.equal(r.json.message, c.want, label);
        assert.equal(r.json.code, 500, label);
      }
      assert.equal((await plat.admin.get(c.path)).status, 404, c.what);
    }
  });

  it('an existing object is left as it was, and a second manager finds no conflict on the refused fields', async () => {
    const good = `${SECRET}metadata:\n  name: s2\n  labels: {a: b}\ndata: {a: Yg==}\n`;
    const created = await apply(`${SECRETS}/s2`, good, '');
    assert.equal(created.status, 201, created.text);
    const refused = await apply(`${SECRETS}/s2`, good.replace('\ndata:', '\ndatta:'), '&fieldValidation=Warn');
    assert.equal(refused.status, 500, refused.text);
    assert.equal(refused.json.message, `${prefix('', 's2', '/v1, Kind=Secret')}.datta: field not declared in schema`);
    const live = await plat.admin.get(`${SECRETS}/s2`);
    assert.equal(live.json.metadata.resourceVersion, created.json.metadata.resourceVersion);
    assert.deepEqual(live.json.metadata.managedFields, created.json.metadata.managedFields);
    assert.deepEqual(created.json.metadata.managedFields[0].fieldsV1, { 'f:data': { 'f:a': {} }, 'f:metadata': { 'f:labels': { 'f:a': {} } } });
    // Another manager applying what the object can hold only meets the first manager's real fields.
    const other = await plat.admin.request('PATCH', `${SECRETS}/s2?fieldManager=other`, `${SECRET}metadata:\n  name: s2\n  labels: {a: c}\n`, { 'content-type': APPLY });
    assert.equal(other.status, 409, other.text);
    assert.equal(other.json.message, 'Apply failed with 1 conflict: conflict with "ctrl": .metadata.labels.a');
  });

  it('declared fields of maps (labels, data keys) and a Lease without status still apply', async () => {
    // A MicroTime is an untyped scalar to structured-merge-diff (a string with a format).
    const r = await apply(`${LEASES}/l2`, `${LEASE.replace('l1', 'l2')}spec: {holderIdentity: me, leaseDurationSeconds: 10, acquireTime: "2024-01-01T00:00:00.000000Z"}\n`, '');
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.json.metadata.managedFields[0].fieldsV1, { 'f:spec': { 'f:acquireTime': {}, 'f:holderIdentity': {}, 'f:leaseDurationSeconds': {} } });
  });
});
