// request.options in the AdmissionReview: the options the request's handler decoded, typed and
// encoded as Go encodes them (field order, omitempty); a patch's as UpdateOptions.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { baseCsr, fixtures } from '../certificates/fixtures.js';
import { startInProcess, type RunningPlat, type Response } from '../helpers/plat.js';
import { allow, CSRS, webhook, WebhookServer, withConfiguration } from './support.js';

const META = 'meta.k8s.io/v1';
const approve = (csr: any) => ({ ...csr, status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Manual', message: 'ok' }] } });

describe('request.options sent to webhooks', () => {
  let plat: RunningPlat;
  const server = new WebhookServer();
  const fx = fixtures();
  before(async () => { await server.start(); server.on('/opts', (review) => allow(review)); plat = await startInProcess(); });
  after(async () => { await plat?.stop(); await server.stop(); });

  let uid = '';
  const cases: { name: string; send: (name: string) => Promise<Response>; expect: Record<string, unknown> | (() => Record<string, unknown>) }[] = [
    { name: 'POST ?fieldManager&fieldValidation: CreateOptions',
      send: (n) => plat.admin.post(`${CSRS}?fieldManager=foo&fieldValidation=Strict`, baseCsr(fx, n)),
      expect: { kind: 'CreateOptions', apiVersion: META, fieldManager: 'foo', fieldValidation: 'Strict' } },
    { name: 'PUT /approval ?fieldManager: UpdateOptions',
      send: async (n) => plat.admin.put(`${CSRS}/${n}/approval?fieldManager=bar`, approve((await plat.admin.get(`${CSRS}/${n}`)).json)),
      expect: { kind: 'UpdateOptions', apiVersion: META, fieldManager: 'bar' } },
    { name: 'PATCH ?dryRun&fieldManager: PatchOptions as UpdateOptions',
      send: (n) => plat.admin.patch(`${CSRS}/${n}?fieldManager=p&dryRun=All`, { metadata: { labels: { a: 'b' } } }, 'application/merge-patch+json'),
      expect: { kind: 'UpdateOptions', apiVersion: META, dryRun: ['All'], fieldManager: 'p' } },
    { name: 'DELETE with a DeleteOptions body',
      send: async (n) => {
        uid = (await plat.admin.get(`${CSRS}/${n}`)).json.metadata.uid;
        return plat.admin.delete(`${CSRS}/${n}`, { propagationPolicy: 'Foreground', dryRun: ['All'], gracePeriodSeconds: 0, preconditions: { uid } });
      },
      expect: () => ({ kind: 'DeleteOptions', apiVersion: META, gracePeriodSeconds: 0, preconditions: { uid }, propagationPolicy: 'Foreground', dryRun: ['All'] }) },
    { name: 'DELETE without options',
      send: (n) => plat.admin.delete(`${CSRS}/${n}`),
      expect: { kind: 'DeleteOptions', apiVersion: META } },
  ];

  it('each operation sends its options', async () => {
    const rule = { operations: ['*'], apiGroups: ['certificates.platform'], apiVersions: ['v1'], resources: ['certificatesigningrequests', 'certificatesigningrequests/approval'] };
    assert.equal((await plat.admin.post(CSRS, baseCsr(fx, 'opts-target'))).status, 201);
    await withConfiguration(plat.admin, 'ValidatingWebhookConfiguration', 'opts', [webhook(server, 'opts.example.com', '/opts', { rules: [rule] })], async () => {
      for (const c of cases) {
        const from = server.reviewsFor('/opts').length;
        const r = await c.send(c.name.startsWith('POST') ? 'opts-created' : 'opts-target');
        assert.ok(r.status < 300, `${c.name}: ${r.status} ${r.text}`);
        const sent = server.reviewsFor('/opts').slice(from).map((rv) => rv.request.options);
        // Go's field order too.
        assert.deepEqual(sent.map((o) => JSON.stringify(o)), [JSON.stringify(typeof c.expect === 'function' ? c.expect() : c.expect)], c.name);
      }
    });
  });
});
