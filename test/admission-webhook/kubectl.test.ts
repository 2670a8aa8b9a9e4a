// kubectl against plat: create -f of a ValidatingWebhookConfiguration from YAML, get (the table),
// and a CSR kubectl creates is refused by the configured webhook with its message.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fixtures } from '../certificates/fixtures.js';
import { Kubectl } from '../helpers/kubectl.js';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { deny, WebhookServer } from './support.js';

describe('kubectl and webhook configurations', () => {
  let plat: RunningPlat;
  let kubectl: Kubectl;
  const server = new WebhookServer();
  const dir = tempDir('plat-kubectl-webhooks-');
  before(async () => {
    await server.start();
    server.on('/deny', (review) => deny(review, { code: 403, reason: 'Forbidden', message: `no CSR named ${review.request.name}` }));
    plat = await startInProcess();
    kubectl = new Kubectl(plat.kubeconfig);
  });
  after(async () => { await plat?.stop(); await server.stop(); });

  it('create -f, get, and the webhook refusing kubectl create of a CSR', async () => {
    const config = path.join(dir, 'vwc.yaml');
    writeFileSync(config, [
      'apiVersion: admissionregistration.platform/v1',
      'kind: ValidatingWebhookConfiguration',
      'metadata:',
      '  name: csr-policy',
      'webhooks:',
      '- name: csr-policy.example.com',
      '  clientConfig:',
      `    url: ${server.url('/deny')}`,
      `    caBundle: ${server.caBundle}`,
      '  rules:',
      '  - operations: ["CREATE"]',
      '    apiGroups: ["certificates.platform"]',
      '    apiVersions: ["v1"]',
      '    resources: ["certificatesigningrequests"]',
      '  sideEffects: None',
      '  admissionReviewVersions: ["v1"]',
      '  matchConditions:',
      '  - name: not-exempt',
      "    expression: \"!object.metadata.name.startsWith('exempt-')\"",
      '',
    ].join('\n'));
    const created = await kubectl.run(['create', '-f', config]);
    assert.equal(created.code, 0, created.stderr);
    assert.equal(created.stdout.trim(), 'validatingwebhookconfiguration.admissionregistration.platform/csr-policy created');

    const got = await kubectl.run(['get', 'validatingwebhookconfigurations.v1.admissionregistration.platform']);
    assert.equal(got.code, 0, got.stderr);
    const lines = got.stdout.trim().split('\n');
    assert.match(lines[0]!, /^NAME\s+WEBHOOKS\s+AGE$/);
    assert.match(lines[1]!, /^csr-policy\s+1\s+\S+$/);

    const request = Buffer.from(fixtures().ecCsrPem).toString('base64');
    const csr = (name: string) => [
      'apiVersion: certificates.platform/v1', 'kind: CertificateSigningRequest', 'metadata:', `  name: ${name}`,
      'spec:', `  request: ${request}`, '  signerName: example.com/client', '  usages: [digital signature, client auth]', '',
    ].join('\n');
    writeFileSync(path.join(dir, 'refused.yaml'), csr('refused'));
    const refused = await kubectl.run(['create', '-f', path.join(dir, 'refused.yaml')]);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /admission webhook "csr-policy\.example\.com" denied the request: no CSR named refused/);
    writeFileSync(path.join(dir, 'exempt.yaml'), csr('exempt-one'));
    const exempt = await kubectl.run(['create', '-f', path.join(dir, 'exempt.yaml')]);
    assert.equal(exempt.code, 0, exempt.stderr);

    const explained = await kubectl.run(['explain', 'validatingwebhookconfigurations.admissionregistration.platform.webhooks.clientConfig']);
    assert.equal(explained.code, 0, explained.stderr);
    assert.match(explained.stdout, /caBundle\s+<string>/);
    assert.match(explained.stdout, /`url` gives the location of the webhook/);

    const deleted = await kubectl.run(['delete', 'validatingwebhookconfigurations.v1.admissionregistration.platform', 'csr-policy']);
    assert.equal(deleted.code, 0, deleted.stderr);
    const after = await kubectl.run(['create', '-f', path.join(dir, 'refused.yaml')]);
    assert.equal(after.code, 0, after.stderr);
  });
});
