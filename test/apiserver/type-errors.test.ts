// A body with a field of the wrong JSON type is answered as kube-apiserver answers it: 400
// BadRequest "<Kind> in version "v1" cannot be handled as a <Kind>: " and encoding/json's
// UnmarshalTypeError, naming the innermost Go struct, the field's JSON path without slice indices
// or map keys, and the Go type reflect prints. Every expected text below was printed by Go 1.19's
// encoding/json decoding the same body into replicas of the k8s.io/api structs.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { getApiServer } from '../../plugins/apiserver/index.js';
import type { JsonSchema } from '../../core/registry/resource.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';

const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';
const LEASES = '/apis/coordination.platform/v1/namespaces/default/leases';
const CLUSTER_ROLES = '/apis/rbac.authorization.platform/v1/clusterroles';

type Case = [path: string, kind: string, body: Record<string, unknown>, cause: string];

const VWCS = '/apis/admissionregistration.platform/v1/validatingwebhookconfigurations';

const csr = (extra: Record<string, unknown>): Record<string, unknown> => ({ metadata: { name: 't' }, ...extra });
const spec = (s: Record<string, unknown>) => csr({ spec: { signerName: 'example.com/x', ...s } });

const CASES: Case[] = [
  [CSRS, 'CertificateSigningRequest', spec({ usages: 'client auth' }),
    'json: cannot unmarshal string into Go struct field CertificateSigningRequestSpec.spec.usages of type []v1.KeyUsage'],
  [CSRS, 'CertificateSigningRequest', spec({ usages: [1] }),
    'json: cannot unmarshal number into Go struct field CertificateSigningRequestSpec.spec.usages of type v1.KeyUsage'],
  [CSRS, 'CertificateSigningRequest', spec({ request: 5 }),
    'json: cannot unmarshal number into Go struct field CertificateSigningRequestSpec.spec.request of type []uint8'],
  // *int32: the decoder reports the int32 it stores into, not the pointer.
  [CSRS, 'CertificateSigningRequest', spec({ expirationSeconds: '600' }),
    'json: cannot unmarshal string into Go struct field CertificateSigningRequestSpec.spec.expirationSeconds of type int32'],
  [CSRS, 'CertificateSigningRequest', spec({ expirationSeconds: 1.5 }),
    'json: cannot unmarshal number 1.5 into Go struct field CertificateSigningRequestSpec.spec.expirationSeconds of type int32'],
  [CSRS, 'CertificateSigningRequest', spec({ expirationSeconds: 3000000000 }),
    'json: cannot unmarshal number 3000000000 into Go struct field CertificateSigningRequestSpec.spec.expirationSeconds of type int32'],
  [CSRS, 'CertificateSigningRequest', spec({ extra: { a: 'b' } }),
    'json: cannot unmarshal string into Go struct field CertificateSigningRequestSpec.spec.extra of type v1.ExtraValue'],
  [CSRS, 'CertificateSigningRequest', csr({ spec: 'x' }),
    'json: cannot unmarshal string into Go struct field CertificateSigningRequest.spec of type v1.CertificateSigningRequestSpec'],
  [CSRS, 'CertificateSigningRequest', csr({ metadata: { name: 't', labels: { a: 1 } } }),
    'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string'],
  [CSRS, 'CertificateSigningRequest', csr({ metadata: { name: 't', labels: [] } }),
    'json: cannot unmarshal array into Go struct field ObjectMeta.metadata.labels of type map[string]string'],
  [CSRS, 'CertificateSigningRequest', csr({ metadata: { name: 5 } }),
    'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.name of type string'],
  [CSRS, 'CertificateSigningRequest', csr({ metadata: { name: 't', uid: 5 } }),
    'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.uid of type types.UID'],
  [CSRS, 'CertificateSigningRequest', csr({ metadata: { name: 't', generation: '5' } }),
    'json: cannot unmarshal string into Go struct field ObjectMeta.metadata.generation of type int64'],
  [CSRS, 'CertificateSigningRequest', csr({ metadata: { name: 't', finalizers: 'x' } }),
    'json: cannot unmarshal string into Go struct field ObjectMeta.metadata.finalizers of type []string'],
  [CSRS, 'CertificateSigningRequest', csr({ metadata: { name: 't', ownerReferences: [{ apiVersion: 'v1', kind: 'K', name: 'n', uid: 'u', controller: 'x' }] } }),
    'json: cannot unmarshal string into Go struct field OwnerReference.metadata.ownerReferences.controller of type bool'],
  // metav1.Time decodes its JSON into a string first; that string is what fails.
  [CSRS, 'CertificateSigningRequest', csr({ metadata: { name: 't', creationTimestamp: 5 } }),
    'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.creationTimestamp of type string'],
  [CSRS, 'CertificateSigningRequest', csr({ metadata: 5 }),
    'json: cannot unmarshal number into Go struct field CertificateSigningRequest.metadata of type v1.ObjectMeta'],
  [CSRS, 'CertificateSigningRequest', csr({ spec: { signerName: 'example.com/x' }, status: { conditions: [{ type: 1, status: 'True' }] } }),
    'json: cannot unmarshal number into Go struct field CertificateSigningRequestCondition.status.conditions.type of type v1.RequestConditionType'],
  [CSRS, 'CertificateSigningRequest', csr({ spec: { signerName: 'example.com/x' }, status: { conditions: {} } }),
    'json: cannot unmarshal object into Go struct field CertificateSigningRequestStatus.status.conditions of type []v1.CertificateSigningRequestCondition'],
  [CSRS, 'CertificateSigningRequest', csr({ spec: { signerName: 'example.com/x' }, status: { conditions: [{ type: 'Approved', status: 'True', lastUpdateTime: true }] } }),
    'json: cannot unmarshal bool into Go struct field CertificateSigningRequestCondition.status.conditions.lastUpdateTime of type string'],
  [LEASES, 'Lease', { metadata: { name: 'l' }, spec: { leaseDurationSeconds: '15' } },
    'json: cannot unmarshal string into Go struct field LeaseSpec.spec.leaseDurationSeconds of type int32'],
  [LEASES, 'Lease', { metadata: { name: 'l' }, spec: { renewTime: 5 } },
    'json: cannot unmarshal number into Go struct field LeaseSpec.spec.renewTime of type string'],
  [CLUSTER_ROLES, 'ClusterRole', { metadata: { name: 'r' }, rules: [{ verbs: 'get' }] },
    'json: cannot unmarshal string into Go struct field PolicyRule.rules.verbs of type []string'],
  [CLUSTER_ROLES, 'ClusterRole', { metadata: { name: 'r' }, rules: 'x' },
    'json: cannot unmarshal string into Go struct field ClusterRole.rules of type []v1.PolicyRule'],
  ['/api/v1/nodes', 'Node', { metadata: { name: 'n' }, spec: { unschedulable: 'yes' } },
    'json: cannot unmarshal string into Go struct field NodeSpec.spec.unschedulable of type bool'],
  ['/api/v1/nodes', 'Node', { metadata: { name: 'n' }, spec: { taints: [5] } },
    'json: cannot unmarshal number into Go struct field NodeSpec.spec.taints of type v1.Taint'],
  ['/api/v1/nodes', 'Node', { metadata: { name: 'n' }, spec: { taints: [{ key: 'k', effect: 'NoSchedule', timeAdded: 1 }] } },
    'json: cannot unmarshal number into Go struct field Taint.spec.taints.timeAdded of type string'],
  ['/api/v1/nodes', 'Node', { metadata: { name: 'n' }, status: { capacity: [] } },
    'json: cannot unmarshal array into Go struct field NodeStatus.status.capacity of type v1.ResourceList'],
  ['/api/v1/nodes', 'Node', { metadata: { name: 'n' }, status: { daemonEndpoints: { kubeletEndpoint: { Port: 'x' } } } },
    'json: cannot unmarshal string into Go struct field DaemonEndpoint.status.daemonEndpoints.kubeletEndpoint.Port of type int32'],
  ['/api/v1/namespaces', 'Namespace', { metadata: { name: 'ns' }, spec: { finalizers: [1] } },
    'json: cannot unmarshal number into Go struct field NamespaceSpec.spec.finalizers of type v1.FinalizerName'],
  ['/api/v1/namespaces/default/secrets', 'Secret', { metadata: { name: 's' }, data: { a: 1 } },
    'json: cannot unmarshal number into Go struct field Secret.data of type []uint8'],
  ['/api/v1/namespaces/default/secrets', 'Secret', { metadata: { name: 's' }, immutable: 'x' },
    'json: cannot unmarshal string into Go struct field Secret.immutable of type bool'],
  ['/api/v1/namespaces/default/serviceaccounts', 'ServiceAccount', { metadata: { name: 'sa' }, secrets: [{ uid: 5 }] },
    'json: cannot unmarshal number into Go struct field ObjectReference.secrets.uid of type types.UID'],
  ['/apis/authentication.platform/v1/tokenreviews', 'TokenReview', { spec: { token: 5 } },
    'json: cannot unmarshal number into Go struct field TokenReviewSpec.spec.token of type string'],
  ['/apis/authentication.platform/v1/tokenreviews', 'TokenReview', { spec: { audiences: 'a' } },
    'json: cannot unmarshal string into Go struct field TokenReviewSpec.spec.audiences of type []string'],
  ['/apis/authorization.platform/v1/subjectaccessreviews', 'SubjectAccessReview', { spec: { resourceAttributes: { verb: 5 } } },
    'json: cannot unmarshal number into Go struct field ResourceAttributes.spec.resourceAttributes.verb of type string'],
  ['/apis/authorization.platform/v1/subjectaccessreviews', 'SubjectAccessReview', { spec: { extra: { a: 'b' } } },
    'json: cannot unmarshal string into Go struct field SubjectAccessReviewSpec.spec.extra of type v1.ExtraValue'],
  // Several errors: the first in document order, unless a custom unmarshaler (metav1.Time) fails,
  // which stops decoding and wins.
  [CSRS, 'CertificateSigningRequest', spec({ usages: 'x', request: 5 }),
    'json: cannot unmarshal string into Go struct field CertificateSigningRequestSpec.spec.usages of type []v1.KeyUsage'],
  [CSRS, 'CertificateSigningRequest', spec({ request: 5, usages: 'x' }),
    'json: cannot unmarshal number into Go struct field CertificateSigningRequestSpec.spec.request of type []uint8'],
  [CSRS, 'CertificateSigningRequest', { status: { conditions: [{ type: 1 }] }, spec: { signerName: 'example.com/x', usages: 'x' } },
    'json: cannot unmarshal number into Go struct field CertificateSigningRequestCondition.status.conditions.type of type v1.RequestConditionType'],
  [CSRS, 'CertificateSigningRequest', { spec: { signerName: 'example.com/x', request: '!!' }, metadata: { name: 5 } }, 'illegal base64 data at input byte 0'],
  [CSRS, 'CertificateSigningRequest', { metadata: { name: 5, creationTimestamp: 'bad' } },
    'parsing time "bad" as "2006-01-02T15:04:05Z07:00": cannot parse "bad" as "2006"'],
  // time.Parse names the element it stopped at (more in test/api/go-time.test.ts).
  [CSRS, 'CertificateSigningRequest', { metadata: { name: 5, creationTimestamp: '2026-01-01T00:00:00' } },
    'parsing time "2026-01-01T00:00:00" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "Z07:00"'],
  [LEASES, 'Lease', { metadata: { name: 'l' }, spec: { leaseDurationSeconds: '15', renewTime: '2026-01-01T00:00:00.5Z' } },
    'parsing time "2026-01-01T00:00:00.5Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse ".5Z" as ".000000"'],
  // Rule is embedded inline in RuleWithOperations: Go names the outer struct.
  [VWCS, 'ValidatingWebhookConfiguration', { metadata: { name: 'w' }, webhooks: [{ name: 'a.b.c', rules: [{ apiGroups: 'x' }] }] },
    'json: cannot unmarshal string into Go struct field RuleWithOperations.webhooks.rules.apiGroups of type []string'],
  [VWCS, 'ValidatingWebhookConfiguration', { metadata: { name: 'w' }, webhooks: [{ name: 'a.b.c', rules: [{ operations: [1] }] }] },
    'json: cannot unmarshal number into Go struct field RuleWithOperations.webhooks.rules.operations of type v1.OperationType'],
  [VWCS, 'ValidatingWebhookConfiguration', { metadata: { name: 'w' }, webhooks: [{ name: 'a.b.c', clientConfig: { service: { namespace: 'n', name: 's', port: '443' } } }] },
    'json: cannot unmarshal string into Go struct field ServiceReference.webhooks.clientConfig.service.port of type int32'],
  [VWCS, 'ValidatingWebhookConfiguration', { metadata: { name: 'w' }, webhooks: [{ name: 'a.b.c', failurePolicy: 1 }] },
    'json: cannot unmarshal number into Go struct field ValidatingWebhook.webhooks.failurePolicy of type v1.FailurePolicyType'],
  [VWCS, 'ValidatingWebhookConfiguration', { metadata: { name: 'w' }, webhooks: {} },
    'json: cannot unmarshal object into Go struct field ValidatingWebhookConfiguration.webhooks of type []v1.ValidatingWebhook'],
];

// Bodies as written: JSON.parse reads 1.0 and 1e3 as integers and 12345678901234567890 inexactly,
// but Go's decoder parses an integer field's literal with strconv.ParseInt and shows it as written.
const RAW_CASES: [path: string, kind: string, body: string, cause: string][] = [
  [CSRS, 'CertificateSigningRequest', '{"metadata":{"name":"t"},"spec":{"signerName":"example.com/x","expirationSeconds":1e3}}',
    'json: cannot unmarshal number 1e3 into Go struct field CertificateSigningRequestSpec.spec.expirationSeconds of type int32'],
  [CSRS, 'CertificateSigningRequest', '{"metadata":{"name":"t"},"spec":{"signerName":"example.com/x","expirationSeconds":600.0}}',
    'json: cannot unmarshal number 600.0 into Go struct field CertificateSigningRequestSpec.spec.expirationSeconds of type int32'],
  [CSRS, 'CertificateSigningRequest', '{"metadata":{"name":"t"},"spec":{"signerName":"example.com/x","expirationSeconds":1E10}}',
    'json: cannot unmarshal number 1E10 into Go struct field CertificateSigningRequestSpec.spec.expirationSeconds of type int32'],
  [CSRS, 'CertificateSigningRequest', '{"metadata":{"name":"t","generation":12345678901234567890}}',
    'json: cannot unmarshal number 12345678901234567890 into Go struct field ObjectMeta.metadata.generation of type int64'],
  [CSRS, 'CertificateSigningRequest', '{"spec":{"signerName":"example.com/x","expirationSeconds":1.0,"usages":"x"}}',
    'json: cannot unmarshal number 1.0 into Go struct field CertificateSigningRequestSpec.spec.expirationSeconds of type int32'],
  [CSRS, 'CertificateSigningRequest', '{"spec":{"signerName":"example.com/x","usages":"x","expirationSeconds":1.0}}',
    'json: cannot unmarshal string into Go struct field CertificateSigningRequestSpec.spec.usages of type []v1.KeyUsage'],
  [LEASES, 'Lease', '{"metadata":{"name":"l"},"spec":{"leaseDurationSeconds":15.0}}',
    'json: cannot unmarshal number 15.0 into Go struct field LeaseSpec.spec.leaseDurationSeconds of type int32'],
];

/** Paths of object schemas with fields but no Go struct name (the messages would name no struct). */
function unnamedStructs(schema: JsonSchema, at: string): string[] {
  const own = schema.properties && typeof schema['x-go-type'] !== 'string' ? [at || '<root>'] : [];
  const below = [
    ...Object.entries(schema.properties ?? {}).map(([k, s]) => unnamedStructs(s, `${at}.${k}`)),
    ...(schema.items ? [unnamedStructs(schema.items, `${at}[]`)] : []),
    ...(typeof schema.additionalProperties === 'object' ? [unnamedStructs(schema.additionalProperties, `${at}{}`)] : []),
  ];
  return [...own, ...below.flat()];
}

describe('bodies with a field of the wrong JSON type', () => {
  let plat: RunningPlat;
  before(async () => { plat = await startInProcess(); });
  after(async () => { await plat?.stop(); });

  for (const [path, kind, body, cause] of CASES) {
    it(`${path.split('/').pop()} ${JSON.stringify(body)}`, async () => {
      const r = await plat.admin.post(path, body);
      assert.equal(r.status, 400, r.text);
      assert.equal(r.json.reason, 'BadRequest');
      assert.equal(r.json.message, `${kind} in version "v1" cannot be handled as a ${kind}: ${cause}`);
    });
  }

  for (const [path, kind, body, cause] of RAW_CASES) {
    it(`${path.split('/').pop()} ${body}`, async () => {
      const r = await plat.admin.post(path, body, { 'content-type': 'application/json' });
      assert.equal(r.status, 400, r.text);
      assert.equal(r.json.message, `${kind} in version "v1" cannot be handled as a ${kind}: ${cause}`);
    });
  }

  it('patches: a JSON or merge patch keeps a literal as written, a strategic merge patch does not', async () => {
    const lease = `${LEASES}/patched`;
    assert.equal((await plat.admin.post(LEASES, { metadata: { name: 'patched' }, spec: { leaseDurationSeconds: 15 } })).status, 201);
    const cause = (literal: string) => `json: cannot unmarshal number ${literal} into Go struct field LeaseSpec.spec.leaseDurationSeconds of type int32`;
    const refused: [type: string, body: string, literal: string][] = [
      ['application/merge-patch+json', '{"spec":{"leaseDurationSeconds":20.0}}', '20.0'],
      ['application/json-patch+json', '[{"op":"replace","path":"/spec/leaseDurationSeconds","value":2e1}]', '2e1'],
      ['application/json-patch+json', '[{"op":"add","path":"/spec","value":{"leaseDurationSeconds":20.0}}]', '20.0'],
    ];
    for (const [type, body, literal] of refused) {
      const r = await plat.admin.patch(lease, body, type);
      assert.equal(r.status, 422, `${type} ${body}: ${r.text}`);
      assert.equal(r.json.details.causes[0].field, 'patch');
      assert.ok(r.json.details.causes[0].message.endsWith(`: ${cause(literal)}`), r.json.details.causes[0].message);
    }
    const taken: [type: string, body: string, seconds: number][] = [
      // Through a Go map: 21.0 is float64 21, written back as 21.
      ['application/strategic-merge-patch+json', '{"spec":{"leaseDurationSeconds":21.0}}', 21],
      // The literal was replaced by a later operation before the object was decoded.
      ['application/json-patch+json', '[{"op":"replace","path":"/spec/leaseDurationSeconds","value":1.0},{"op":"replace","path":"/spec/leaseDurationSeconds","value":22}]', 22],
      ['application/json-patch+json', '[{"op":"test","path":"/spec/leaseDurationSeconds","value":22.0},{"op":"replace","path":"/spec/leaseDurationSeconds","value":23}]', 23],
    ];
    for (const [type, body, seconds] of taken) {
      const r = await plat.admin.patch(lease, body, type);
      assert.equal(r.status, 200, `${type} ${body}: ${r.text}`);
      assert.equal(r.json.spec.leaseDurationSeconds, seconds);
    }
  });

  it('takes a number Go reads as an integer, written as one (-0, 1e3 where the field is a float or unknown)', async () => {
    const r = await plat.admin.post(LEASES, '{"metadata":{"name":"minus-zero"},"spec":{"leaseDurationSeconds":15,"leaseTransitions":-0,"unknownField":1.5e3}}', { 'content-type': 'application/json' });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.spec.leaseTransitions, 0);
    assert.equal(r.headers['warning'], '299 - "unknown field \\"spec.unknownField\\""');
  });

  it('every served schema names its Go structs, and no OpenAPI document shows the names', async () => {
    const defs = getApiServer(plat.host!)!.resources.all();
    const schemas = defs.flatMap((d) => [[d.kind, d.schema] as const, ...(d.subresources ?? []).flatMap((s) => (s.create ? [[s.create.kind, s.create.schema] as const] : []))]);
    assert.deepEqual(schemas.flatMap(([kind, schema]) => unnamedStructs(schema, '').map((p) => `${kind} ${p}`)), []);
    const root = await plat.admin.get('/openapi/v3');
    for (const { serverRelativeURL } of Object.values(root.json.paths as Record<string, { serverRelativeURL: string }>)) {
      const doc = await plat.admin.get(serverRelativeURL);
      assert.equal(doc.status, 200);
      assert.ok(!doc.text.includes('x-go-type'), serverRelativeURL);
    }
    assert.ok(!(await plat.admin.get('/openapi/v2')).text.includes('x-go-type'), '/openapi/v2');
    // A MicroTime is told apart by its Go name only: upstream documents it as a date-time string.
    const coordination = await plat.admin.get(root.json.paths['apis/coordination.platform/v1'].serverRelativeURL);
    const { renewTime } = coordination.json.components.schemas['platform.coordination.v1.Lease'].properties.spec.properties;
    assert.deepEqual(Object.keys(renewTime).sort(), ['description', 'format', 'type']);
    assert.equal(renewTime.format, 'date-time');
  });
});
