// One body that yields an error per list item: a 3 MiB SelfSubjectAccessReview (any authenticated
// user may post one) holding a million empty selector requirements once cost the server over a
// gigabyte and ended in a 500 (a stack overflow). Now any Invalid answer reports the first 1000
// field errors and a last cause saying there were more, and the validators stop looking once
// they have that many: the answer is still 422 with the first causes and their paths, and the
// server's memory stays bounded (measured in a child process, so the test's own heap does not
// count). Bodies with up to 1000 errors are answered exactly as before.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startInProcess, startProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { field, PROTOBUF, protoEnvelope } from './support.js';

const LIMIT = 3 * 1024 * 1024 - 4096;
const MAX = 1000;
const TOO_MANY = { reason: 'FieldValueTooMany', message: `Too many errors: only the first ${MAX} are reported, the rest were not checked` };
const A = 'authorization.platform/v1';
const K = 'authorization.k8s.io/v1';
const SSAR = '/apis/authorization.platform/v1/selfsubjectaccessreviews';
const P = 'spec.resourceAttributes';
const EMPTY_KEY = 'Invalid value: "": name part must be non-empty';
const KEY_SYNTAX = 'Invalid value: "": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character ' +
  '(e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')';

/** JSON of `shape` with its "HOLE" string replaced by an array of `item`: `count` of them, or as many as fit in 3 MiB. */
function fill(shape: unknown, item: string, count?: number): string {
  const [head, tail] = JSON.stringify(shape).split('"HOLE"') as [string, string];
  const n = count ?? Math.floor((LIMIT - head.length - tail.length) / (item.length + 1));
  return `${head}[${Array(n).fill(item).join(',')}]${tail}`;
}

const review = (apiVersion: string, kind: string, selector: 'labelSelector' | 'fieldSelector', extra: Record<string, unknown> = {}) =>
  ({ apiVersion, kind, spec: { ...extra, resourceAttributes: { verb: 'get', resource: 'pods', ...(extra['resourceAttributes'] as object), [selector]: { requirements: 'HOLE' } } } });

/** A protobuf SelfSubjectAccessReview whose labelSelector holds as many empty requirements as fit. */
function protobufReview(): Buffer {
  const n = Math.floor((LIMIT - 200) / 2);
  const requirements = Buffer.alloc(n * 2);
  for (let i = 0; i < n; i++) requirements[2 * i] = (2 << 3) | 2; // field 2, length 0
  const attributes = Buffer.concat([field(2, 'get'), field(5, 'pods'), field(9, requirements)]);
  return protoEnvelope(K, 'SelfSubjectAccessReview', field(2, field(1, attributes)));
}

/** The peak and current resident set of a process, in MiB (Linux). */
function memory(pid: number): { peak: number; now: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)![1]);
  return { peak: kib('VmHWM') / 1024, now: kib('VmRSS') / 1024 };
}

const TOKEN = 'eve-token-0123456789';
const label = (i: number, second: boolean) => ({ reason: 'FieldValueInvalid', message: second ? KEY_SYNTAX : EMPTY_KEY, field: `${P}.labelSelector.requirements[${i}].key` });

function assertBounded(name: string, r: { status: number; text: string; json: any }, first: object, at999: string): void {
  assert.equal(r.status, 422, `${name}: ${r.text.slice(0, 300)}`);
  assert.equal(r.json.reason, 'Invalid', name);
  const causes = r.json.details.causes as { field?: string }[];
  assert.equal(causes.length, MAX + 1, name);
  assert.deepEqual(causes[0], first, name);
  assert.equal(causes[MAX - 1]!.field, at999, name);
  assert.deepEqual(causes[MAX], TOO_MANY, name);
  assert.ok(r.json.message.endsWith(`, ${TOO_MANY.message}]`), `${name}: ${r.json.message.slice(-200)}`);
}

// One server each: V8 frees a body's garbage lazily, so a second body's peak would stand on the first's.
describe('a 3 MiB SelfSubjectAccessReview of empty requirements, posted by an ordinary user', { skip: process.platform !== 'linux' && 'reads /proc' }, () => {
  const bodies: { name: string; path: string; body: string | Buffer; headers: Record<string, string> }[] = [
    { name: 'JSON', path: SSAR, body: fill(review(A, 'SelfSubjectAccessReview', 'labelSelector'), '{}'), headers: {} },
    { name: 'protobuf, authorization.k8s.io', path: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', body: protobufReview(), headers: PROTOBUF },
  ];
  for (const b of bodies) {
    it(`${b.name}: 422 with the first 1000 causes and a note, in bounded memory; the server goes on serving`, async () => {
      const dir = tempDir('plat-huge-errors-');
      const tokens = path.join(dir, 'tokens.csv');
      writeFileSync(tokens, `${TOKEN},eve,uid-eve\n`);
      const plat = await startProcess({ args: [`--token-auth-file=${tokens}`] });
      try {
        const eve = plat.admin.with({ token: TOKEN });
        const pid = plat.child.pid!;
        const before = memory(pid).now;
        assertBounded(b.name, await eve.request('POST', b.path, b.body, b.headers), label(0, false), `${P}.labelSelector.requirements[499].key`);
        // Before: about 0.8 GiB (JSON) and 1.2 GiB (protobuf), and a 500; now about 100 MiB, mostly the parsed body.
        const grown = memory(pid).peak - before;
        assert.ok(grown < 300, `peak resident memory grew by ${grown.toFixed(0)} MiB`);
        assert.equal((await plat.admin.get('/healthz')).status, 200);
        const r = await eve.post(SSAR, { apiVersion: A, kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: { verb: 'get', resource: 'pods' } } });
        assert.equal(r.status, 201, r.text);
      } finally {
        await plat.stop();
      }
    });
  }
});

// A wrong-typed item is a 400 from the decode step, which picks the type error Go's decoder meets
// first; it once kept an ajv error for every item (~480 MB for the review, ~414 MB for the CSR).
describe('a 3 MiB body of a million wrong-typed list items', { skip: process.platform !== 'linux' && 'reads /proc' }, () => {
  const bodies: { name: string; path: string; body: string; message: string }[] = [
    {
      name: 'SelfSubjectAccessReview requirements of numbers', path: SSAR, body: fill(review(A, 'SelfSubjectAccessReview', 'labelSelector'), '1'),
      message: 'SelfSubjectAccessReview in version "v1" cannot be handled as a SelfSubjectAccessReview: json: cannot unmarshal number into Go struct field LabelSelectorAttributes.spec.resourceAttributes.labelSelector.requirements of type v1.LabelSelectorRequirement',
    },
    {
      name: 'CertificateSigningRequest usages of numbers', path: '/apis/certificates.platform/v1/certificatesigningrequests',
      body: fill({ apiVersion: 'certificates.platform/v1', kind: 'CertificateSigningRequest', metadata: { name: 'u' }, spec: { signerName: 'example.com/x', request: 'AAAA', usages: 'HOLE' } }, '1'),
      message: 'CertificateSigningRequest in version "v1" cannot be handled as a CertificateSigningRequest: json: cannot unmarshal number into Go struct field CertificateSigningRequestSpec.spec.usages of type v1.KeyUsage',
    },
  ];
  for (const b of bodies) {
    it(`${b.name}: 400 naming the first, in bounded memory`, async () => {
      const plat = await startProcess({});
      try {
        const pid = plat.child.pid!;
        const before = memory(pid).now;
        const r = await plat.admin.request('POST', b.path, b.body, {});
        assert.equal(r.status, 400, r.text.slice(0, 300));
        assert.equal(r.json.message, b.message);
        const grown = memory(pid).peak - before;
        assert.ok(grown < 300, `peak resident memory grew by ${grown.toFixed(0)} MiB`);
      } finally {
        await plat.stop();
      }
    });
  }
});

describe('other bodies of a million bad list items', () => {
  let plat: RunningPlat;
  before(async () => { plat = await startInProcess({}); });
  after(async () => { await plat?.stop(); });

  const rows: { name: string; path: string; body: string; first: object; at999: string }[] = [
    {
      name: 'SelfSubjectAccessReview fieldSelector', path: SSAR, body: fill(review(A, 'SelfSubjectAccessReview', 'fieldSelector'), '{}'),
      first: { reason: 'FieldValueRequired', message: 'Required value: must be specified', field: `${P}.fieldSelector.requirements[0].key` }, at999: `${P}.fieldSelector.requirements[999].key`,
    },
    { name: 'SelfSubjectAccessReview under authorization.k8s.io', path: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', body: fill(review(K, 'SelfSubjectAccessReview', 'labelSelector'), '{}'), first: label(0, false), at999: `${P}.labelSelector.requirements[499].key` },
    { name: 'SubjectAccessReview', path: '/apis/authorization.platform/v1/subjectaccessreviews', body: fill(review(A, 'SubjectAccessReview', 'labelSelector', { user: 'x' }), '{}'), first: label(0, false), at999: `${P}.labelSelector.requirements[499].key` },
    {
      name: 'LocalSubjectAccessReview', path: '/apis/authorization.platform/v1/namespaces/default/localsubjectaccessreviews',
      body: fill({ ...review(A, 'LocalSubjectAccessReview', 'labelSelector', { user: 'x', resourceAttributes: { namespace: 'default' } }), metadata: { namespace: 'default' } }, '{}'),
      first: label(0, false), at999: `${P}.labelSelector.requirements[499].key`,
    },
    {
      name: 'CertificateSigningRequest spec.usages', path: '/apis/certificates.platform/v1/certificatesigningrequests',
      body: fill({ apiVersion: 'certificates.platform/v1', kind: 'CertificateSigningRequest', metadata: { name: 'u' }, spec: { signerName: 'example.com/x', request: 'AAAA', usages: 'HOLE' } }, '"x"'),
      first: { reason: 'FieldValueInvalid', message: 'Invalid value: "AAAA": PEM block type must be CERTIFICATE REQUEST', field: 'spec.request' }, at999: 'spec.usages[998]',
    },
    {
      name: 'Role rules', path: '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles',
      body: fill({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'r' }, rules: 'HOLE' }, '{}'),
      first: { reason: 'FieldValueRequired', message: 'Required value: verbs must contain at least one value', field: 'rules[0].verbs' }, at999: 'rules[333].verbs',
    },
    {
      name: 'RoleBinding subjects', path: '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings',
      body: fill({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'b' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'x' }, subjects: 'HOLE' }, '{}'),
      first: { reason: 'FieldValueRequired', message: 'Required value', field: 'subjects[0].name' }, at999: 'subjects[499].kind',
    },
    {
      name: 'ValidatingWebhookConfiguration webhooks[0].rules', path: '/apis/admissionregistration.platform/v1/validatingwebhookconfigurations',
      body: fill({
        apiVersion: 'admissionregistration.platform/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'w' },
        webhooks: [{ name: 'a.example.com', sideEffects: 'None', admissionReviewVersions: ['v1'], clientConfig: { url: 'https://a.example.com' }, rules: 'HOLE' }],
      }, '{}'),
      first: { reason: 'FieldValueRequired', message: 'Required value', field: 'webhooks[0].rules[0].operations' }, at999: 'webhooks[0].rules[249].resources',
    },
    {
      name: 'Role rules, each with an unknown field (fieldValidation Warn)', path: '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles?fieldValidation=Warn',
      body: fill({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'u' }, rules: 'HOLE' }, '{"x":1}'),
      first: { reason: 'FieldValueRequired', message: 'Required value: verbs must contain at least one value', field: 'rules[0].verbs' }, at999: 'rules[333].verbs',
    },
    {
      name: 'Node spec.taints', path: '/api/v1/nodes',
      body: fill({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n' }, spec: { taints: 'HOLE' } }, '{}'),
      first: { reason: 'FieldValueInvalid', message: EMPTY_KEY, field: 'metadata.taints[0].key' }, at999: 'metadata.taints[250].key',
    },
    {
      name: 'Secret metadata.finalizers', path: '/api/v1/namespaces/default/secrets',
      body: fill({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'f', finalizers: 'HOLE' } }, '"%"'),
      first: { reason: 'FieldValueInvalid', message: KEY_SYNTAX.replace('""', '"%"'), field: 'metadata.finalizers[0]' }, at999: 'metadata.finalizers[999]',
    },
    {
      name: 'Secret metadata.ownerReferences', path: '/api/v1/namespaces/default/secrets',
      body: fill({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'o', ownerReferences: 'HOLE' } }, '{}'),
      first: { reason: 'FieldValueInvalid', message: 'Invalid value: "": version must not be empty', field: 'metadata.ownerReferences.apiVersion' }, at999: 'metadata.ownerReferences.uid',
    },
    {
      name: 'Secret data', path: '/api/v1/namespaces/default/secrets',
      body: JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'd' }, data: Object.fromEntries(Array.from({ length: 200_000 }, (_, i) => [`%${i}`, ''])) }),
      first: {
        reason: 'FieldValueInvalid', field: 'data[%0]',
        message: 'Invalid value: "%0": a valid config key must consist of alphanumeric characters, \'-\', \'_\' or \'.\' (e.g. \'key.name\',  or \'KEY_NAME\',  or \'key-name\', regex used for validation is \'[-._a-zA-Z0-9]+\')',
      },
      at999: 'data[%999]',
    },
    {
      name: 'metadata.labels', path: '/api/v1/namespaces/default/secrets',
      body: JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', labels: Object.fromEntries(Array.from({ length: 200_000 }, (_, i) => [`%${i}`, ''])) } }),
      first: { reason: 'FieldValueInvalid', message: 'Invalid value: "%0": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')', field: 'metadata.labels' },
      at999: 'metadata.labels',
    },
  ];
  for (const row of rows) {
    it(`${row.name}: 422 with the first 1000 causes and a note`, async () => {
      assertBounded(row.name, await plat.admin.post(row.path, row.body), row.first, row.at999);
    });
  }
});

describe('invalid bodies with up to 1000 errors', () => {
  let plat: RunningPlat;
  before(async () => { plat = await startInProcess({}); });
  after(async () => { await plat?.stop(); });

  const ssar = (requirements: unknown[], rawSelector?: string) =>
    ({ apiVersion: A, kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: { verb: 'get', resource: 'pods', labelSelector: { requirements, ...(rawSelector ? { rawSelector } : {}) } } } });
  const empties = (n: number) => Array.from({ length: n }, () => ({}));
  const labelCauses = (n: number) => Array.from({ length: n }, (_, i) => [
    { reason: 'FieldValueInvalid', message: EMPTY_KEY, field: `${P}.labelSelector.requirements[${i}].key` },
    { reason: 'FieldValueInvalid', message: KEY_SYNTAX, field: `${P}.labelSelector.requirements[${i}].key` },
  ]).flat();
  const text = (c: { field?: string; message: string }) => (c.field ? `${c.field}: ${c.message}` : c.message);
  const rows: { name: string; body: unknown; causes: { reason: string; message: string; field?: string }[] }[] = [
    {
      name: 'rawSelector beside requirements', body: ssar([{ key: 'a', operator: 'Exists' }], 'a=b'),
      causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: "a=b": may not specified at the same time as requirements', field: `${P}.labelSelector.rawSelector` }],
    },
    { name: 'one empty requirement', body: ssar([{}]), causes: labelCauses(1) },
    { name: 'exactly 1000 errors: all reported', body: ssar(empties(500)), causes: labelCauses(500) },
    { name: '1002 errors: the first 1000 and the note', body: ssar(empties(501)), causes: [...labelCauses(500), TOO_MANY] },
  ];
  it('answers each as upstream does up to 1000 errors, and past them the first 1000 and a note', async () => {
    for (const row of rows) {
      const r = await plat.admin.post(SSAR, row.body);
      assert.equal(r.status, 422, `${row.name}: ${r.text.slice(0, 300)}`);
      assert.deepEqual(r.json.details, { group: 'authorization.platform', causes: row.causes }, row.name);
      const all = [...new Set(row.causes.map(text))];
      const aggregate = all.length === 1 ? all[0] : `[${all.join(', ')}]`;
      assert.equal(r.json.message, `.authorization.platform "" is invalid: ${aggregate}`, row.name);
    }
  });
});
