// Admission plugins' audit annotations in the JSON audit log, as upstream's
// Attributes.AddAnnotation(WithLevel) and auditHandler record them: a third-party plugin's (a key
// and level checked, a key holding one value for both phases, a Request-level annotation only in
// an event at Request or above), and the admission webhooks' (response.auditAnnotations as
// `<webhook>/<key>`, mutation and patch annotations per call, a fail-open's), keys in plat's group.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { baseCsr, fixtures } from '../certificates/fixtures.js';
import type { AdmissionRequest, Plugin } from '../../core/plugin-api.js';
import { allow, answer, webhook, WebhookServer, withConfiguration } from '../admission-webhook/support.js';
import { CSRS, eventsOf, startAudited, type AuditedPlat } from './support.js';

const POLICY = `apiVersion: audit.platform/v1
kind: Policy
rules:
- level: Metadata
  verbs: [update]
  resources: [{group: certificates.platform, resources: [certificatesigningrequests]}]
- level: Request
  verbs: [create]
  resources: [{group: certificates.platform, resources: [certificatesigningrequests]}]
- level: None
`;

const refusals: string[] = [];
const attempt = (f: () => void) => { try { f(); } catch (e) { refusals.push((e as Error).message); } };

const ANNOTATING: Plugin = {
  name: 'AnnotatingAdmissionForTest',
  apply(host) {
    const mine = (req: AdmissionRequest) => req.resource === 'certificatesigningrequests' && req.name.startsWith('plugin-');
    host.hooks.admitMutate.tap('AnnotatingAdmissionForTest', (req) => {
      if (!mine(req)) return;
      req.addAnnotation('example.com/phase', 'mutate');
      req.addAnnotationWithLevel('example.com/request-only', 'seen', 'Request');
    });
    host.hooks.admitValidate.tap('AnnotatingAdmissionForTest', (req) => {
      if (!mine(req)) return;
      // The same value again is no overwrite: validation sees what mutation set.
      req.addAnnotation('example.com/phase', 'mutate');
      attempt(() => req.addAnnotation('example.com/phase', 'validate'));
      attempt(() => req.addAnnotation('no-slash', 'x'));
      attempt(() => req.addAnnotation('Not_A_Domain/x', 'x'));
      attempt(() => req.addAnnotationWithLevel('example.com/x', 'x', 'RequestResponse'));
    });
  },
};

describe('admission audit annotations', () => {
  let a: AuditedPlat;
  const server = new WebhookServer();
  const fx = fixtures();
  before(async () => {
    await server.start();
    a = await startAudited(POLICY, [], [ANNOTATING]);
  });
  after(async () => { await a?.plat.stop(); await server.stop(); });

  it('a plugin\'s annotations, checked as upstream checks them, at the levels the event allows', async () => {
    refusals.length = 0;
    const created = await a.plat.admin.post(CSRS, baseCsr(fx, 'plugin-annotated'), { 'audit-id': 'plugin-create' });
    assert.equal(created.status, 201, created.text);
    const complete = (await eventsOf(a.log, 'plugin-create')).find((e) => e.stage === 'ResponseComplete');
    assert.equal(complete.level, 'Request');
    assert.equal(complete.annotations['example.com/phase'], 'mutate');
    assert.equal(complete.annotations['example.com/request-only'], 'seen');
    assert.deepEqual(Object.keys(complete.annotations), Object.keys(complete.annotations).sort(), 'keys in Go\'s map order');
    assert.equal(refusals.length, 4, refusals.join('\n'));
    assert.equal(refusals[0], 'admission annotations are not allowd to be overwritten, key:"example.com/phase", old value: {Metadata mutate}, new value: {Metadata validate}');
    assert.equal(refusals[1], "annotation key has invalid format, the right format is a DNS subdomain prefix and '/' and key name. (e.g. 'podsecuritypolicy.admission.platform/admit-policy')");
    assert.match(refusals[2]!, /^annotation key has invalid format prefix part a lowercase RFC 1123 subdomain .* A qualified name like 'podsecuritypolicy\.admission\.platform\/admit-policy' is required\.$/);
    assert.equal(refusals[3], 'admission annotations are not allowed to be set at level other than Metadata and Request, key: "example.com/x", level: RequestResponse');

    // An update audited at Metadata: the Request-level annotation stays out of its event.
    const put = await a.plat.admin.put(`${CSRS}/plugin-annotated`, { ...created.json, metadata: { ...created.json.metadata, labels: { x: 'y' } } }, { 'audit-id': 'plugin-update' });
    assert.equal(put.status, 200, put.text);
    const updated = (await eventsOf(a.log, 'plugin-update')).find((e) => e.stage === 'ResponseComplete');
    assert.equal(updated.level, 'Metadata');
    assert.equal(updated.annotations['example.com/phase'], 'mutate');
    assert.equal('example.com/request-only' in updated.annotations, false);
  });

  it('the webhooks\' annotations: their auditAnnotations, each mutating call and its patch, a fail-open', async () => {
    // Keys sent out of order: the annotation holds the operation as Go marshals its map.
    server.on('/mutate', (review) => answer(review, {
      allowed: true, patchType: 'JSONPatch', auditAnnotations: { verdict: 'patched' },
      patch: Buffer.from('[{"value":{"team":"blue"},"path":"/metadata/labels","op":"add"}]').toString('base64'),
    }));
    server.on('/validate', (review) => allow(review, { auditAnnotations: { checked: 'yes', 'not a key!': 'dropped' } }));
    const mutating = [webhook(server, 'm.example.com', '/mutate')];
    const validating = [webhook(server, 'v.example.com', '/validate'), webhook(server, 'broken.example.com', '/nowhere', { failurePolicy: 'Ignore' })];
    await withConfiguration(a.plat.admin, 'MutatingWebhookConfiguration', 'annotate-m', mutating, () =>
      withConfiguration(a.plat.admin, 'ValidatingWebhookConfiguration', 'annotate-v', validating, async () => {
        const r = await a.plat.admin.post(CSRS, baseCsr(fx, 'webhooked'), { 'audit-id': 'webhooks' });
        assert.equal(r.status, 201, r.text);
      }));
    const complete = (await eventsOf(a.log, 'webhooks')).find((e) => e.stage === 'ResponseComplete');
    const { 'authorization.platform/decision': _d, 'authorization.platform/reason': _r, ...admission } = complete.annotations;
    assert.deepEqual(admission, {
      'failed-open.validating.webhook.admission.platform/round_0_index_1': 'broken.example.com',
      'm.example.com/verdict': 'patched',
      'mutation.webhook.admission.platform/round_0_index_0': '{"configuration":"annotate-m","webhook":"m.example.com","mutated":true}',
      'patch.webhook.admission.platform/round_0_index_0':
        '{"configuration":"annotate-m","webhook":"m.example.com","patch":[{"op":"add","path":"/metadata/labels","value":{"team":"blue"}}],"patchType":"JSONPatch"}',
      'v.example.com/checked': 'yes',
    });
    assert.deepEqual(Object.keys(complete.annotations), Object.keys(complete.annotations).sort());
  });
});
