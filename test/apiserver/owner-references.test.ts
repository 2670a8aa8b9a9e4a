// metadata.ownerReferences are validated as apimachinery's ValidateOwnerReferences does, for every
// resource whose ObjectMeta the store validates, on create and on update: apiVersion with a
// version, kind, name and uid required, no v1 Event owner, at most one controller. Valid
// references are stored and served as sent. Many controllers are refused with the list printed
// once, not in every error.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { opensslCsr } from '../helpers/openssl.js';

const SECRETS = '/api/v1/namespaces/default/secrets';
const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';
const REF = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u-1' };
const P = 'metadata.ownerReferences';
/** Go's %#v of a v1.OwnerReference; a set *bool is printed as an address, which plat writes as 0xc000000000. */
const goRef = (r: { apiVersion: string; kind: string; name: string; uid: string }, controller: boolean) =>
  `v1.OwnerReference{APIVersion:"${r.apiVersion}", Kind:"${r.kind}", Name:"${r.name}", UID:"${r.uid}", Controller:(*bool)(${controller ? '0xc000000000' : 'nil'}), BlockOwnerDeletion:(*bool)(nil)}`;

const rows: { name: string; refs: unknown[]; causes: { field: string; message: string }[] }[] = [
  {
    name: 'an empty reference', refs: [{}],
    causes: [
      { field: `${P}.apiVersion`, message: 'Invalid value: "": version must not be empty' },
      { field: `${P}.kind`, message: 'Invalid value: "": must not be empty' },
      { field: `${P}.name`, message: 'Invalid value: "": must not be empty' },
      { field: `${P}.uid`, message: 'Invalid value: "": must not be empty' },
    ],
  },
  { name: 'a group without a version', refs: [{ ...REF, apiVersion: 'apps/' }], causes: [{ field: `${P}.apiVersion`, message: 'Invalid value: "apps/": version must not be empty' }] },
  { name: 'an unparseable apiVersion', refs: [{ ...REF, apiVersion: 'a/b/c' }], causes: [{ field: `${P}.apiVersion`, message: 'Invalid value: "a/b/c": version must not be empty' }] },
  {
    name: 'a v1 Event owner', refs: [{ apiVersion: 'v1', kind: 'Event', name: 'e', uid: 'u' }],
    causes: [{ field: P, message: `Invalid value: ${goRef({ apiVersion: 'v1', kind: 'Event', name: 'e', uid: 'u' }, false)}: /v1, Kind=Event is disallowed from being an owner` }],
  },
  {
    name: 'two controllers', refs: [{ ...REF, controller: true }, { ...REF, kind: 'Deployment', name: 'd', controller: true }],
    causes: [{
      field: P,
      message: `Invalid value: []v1.OwnerReference{${goRef(REF, true)}, ${goRef({ ...REF, kind: 'Deployment', name: 'd' }, true)}}: ` +
        'Only one reference can have Controller set to true. Found "true" in references for ReplicaSet/rs and Deployment/d',
    }],
  },
];

describe('metadata.ownerReferences validation', () => {
  let plat: RunningPlat;
  let csrPem: string;
  before(async () => {
    plat = await startInProcess();
    csrPem = opensslCsr({ subject: '/CN=owner-test', keyType: 'ec-p256' }).csrPem;
  });
  after(async () => { await plat?.stop(); });

  const secret = (name: string, ownerReferences: unknown[]) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name, ownerReferences } });
  const csr = (name: string, ownerReferences: unknown[]) => ({
    apiVersion: 'certificates.platform/v1', kind: 'CertificateSigningRequest', metadata: { name, ownerReferences },
    spec: { signerName: 'example.com/x', request: Buffer.from(csrPem).toString('base64'), usages: ['digital signature'] },
  });
  const kinds = [
    { kind: 'Secret', path: SECRETS, body: secret, group: '' },
    { kind: 'CertificateSigningRequest', path: CSRS, body: csr, group: 'certificates.platform' },
  ];

  for (const k of kinds) {
    for (const row of rows) {
      it(`${k.kind}, ${row.name}: 422 on create and on update`, async () => {
        const name = `bad-${rows.indexOf(row)}`;
        const expect = (r: { status: number; text: string; json: any }, what: string) => {
          assert.equal(r.status, 422, `${what}: ${r.text.slice(0, 400)}`);
          assert.deepEqual(r.json.details.causes, row.causes.map((c) => ({ reason: 'FieldValueInvalid', ...c })), what);
          const texts = row.causes.map((c) => `${c.field}: ${c.message}`);
          const kindGroup = k.group ? `${k.kind}.${k.group}` : k.kind;
          assert.equal(r.json.message, `${kindGroup} "${name}" is invalid: ${texts.length === 1 ? texts[0] : `[${texts.join(', ')}]`}`, what);
        };
        expect(await plat.admin.post(k.path, k.body(name, row.refs)), 'create');
        const created = await plat.admin.post(k.path, k.body(name, []));
        assert.equal(created.status, 201, created.text);
        expect(await plat.admin.put(`${k.path}/${name}`, { ...created.json, metadata: { ...created.json.metadata, ownerReferences: row.refs } }), 'update');
        assert.equal((await plat.admin.delete(`${k.path}/${name}`)).status, 200);
      });
    }

    it(`${k.kind}: a long list of controllers is refused, its list printed once`, async () => {
      // 30,000 references print as ~5 MB: the first "Only one reference" error carries that, the later ones are left out.
      const refs = Array.from({ length: 30_000 }, () => ({ ...REF, controller: true }));
      const r = await plat.admin.post(k.path, k.body('many', refs));
      assert.equal(r.status, 422, r.text.slice(0, 300));
      const causes = r.json.details.causes as { field: string; message: string }[];
      assert.equal(causes.length, 1);
      assert.equal(causes[0]!.field, P);
      assert.ok(causes[0]!.message.startsWith(`Invalid value: []v1.OwnerReference{${goRef(REF, true)}, `));
      assert.ok(causes[0]!.message.endsWith('}}: Only one reference can have Controller set to true. Found "true" in references for ReplicaSet/rs and ReplicaSet/rs'));
    });

    it(`${k.kind}: valid references are stored and served as sent`, async () => {
      const refs = [{ ...REF, controller: true, blockOwnerDeletion: true }, { apiVersion: 'v1', kind: 'ConfigMap', name: 'cm', uid: 'u-2', controller: false }];
      const created = await plat.admin.post(k.path, k.body('good', refs));
      assert.equal(created.status, 201, created.text);
      assert.deepEqual(created.json.metadata.ownerReferences, refs);
      assert.deepEqual((await plat.admin.get(`${k.path}/good`)).json.metadata.ownerReferences, refs);
    });
  }
});
