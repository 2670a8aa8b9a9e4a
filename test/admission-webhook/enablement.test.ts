// --enable/--disable-admission-plugins decide whether the webhook plugins run; the configuration
// resources are served either way. An admission configuration for them is refused at start-up.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { StartupError } from '../../core/plugin.js';
import { baseCsr, fixtures } from '../certificates/fixtures.js';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { CSRS, deny, jsonPatch, MWC, VWC, webhook, WebhookServer, withConfiguration } from './support.js';

const fx = fixtures();

describe('admission plugin enablement', () => {
  const server = new WebhookServer();
  before(async () => {
    await server.start();
    server.on('/deny', (review) => deny(review, { code: 403, message: 'denied by webhook' }));
    server.on('/label', (review) => jsonPatch(review, [{ op: 'add', path: '/metadata/labels', value: { mutated: 'yes' } }]));
  });
  after(async () => { await server.stop(); });

  /** Creates a CSR under a denying validating webhook and a labelling mutating webhook. */
  async function tryCreate(plat: RunningPlat, name: string) {
    return withConfiguration(plat.admin, 'ValidatingWebhookConfiguration', 'deny', [webhook(server, 'deny.example.com', '/deny')], () =>
      withConfiguration(plat.admin, 'MutatingWebhookConfiguration', 'label', [webhook(server, 'label.example.com', '/label')], () =>
        plat.admin.post(CSRS, baseCsr(fx, name))));
  }

  it('both run by default', async () => {
    const plat = await startInProcess();
    try {
      const r = await tryCreate(plat, 'default-plugins');
      assert.equal(r.status, 403, r.text);
      assert.equal(r.json.message, 'admission webhook "deny.example.com" denied the request: denied by webhook');
    } finally { await plat.stop(); }
  });

  it('--disable-admission-plugins=ValidatingAdmissionWebhook: only the mutating webhook is called', async () => {
    const plat = await startInProcess({ args: ['--disable-admission-plugins=ValidatingAdmissionWebhook'] });
    try {
      const r = await tryCreate(plat, 'no-validating');
      assert.equal(r.status, 201, r.text);
      assert.deepEqual(r.json.metadata.labels, { mutated: 'yes' });
    } finally { await plat.stop(); }
  });

  it('--disable-admission-plugins=MutatingAdmissionWebhook,ValidatingAdmissionWebhook: neither, yet the resources are served', async () => {
    const plat = await startInProcess({ args: ['--disable-admission-plugins=MutatingAdmissionWebhook,ValidatingAdmissionWebhook'] });
    try {
      const r = await tryCreate(plat, 'no-webhooks');
      assert.equal(r.status, 201, r.text);
      assert.equal(r.json.metadata.labels, undefined);
      assert.equal((await plat.admin.get(VWC)).status, 200);
      assert.equal((await plat.admin.get(MWC)).status, 200);
    } finally { await plat.stop(); }
  });

  it('a WebhookAdmissionConfiguration in --admission-control-config-file is refused at start-up', async () => {
    const dir = tempDir('plat-admission-config-');
    const file = path.join(dir, 'admission.yaml');
    writeFileSync(file, [
      'apiVersion: apiserver.platform/v1', 'kind: AdmissionConfiguration', 'plugins:',
      '- name: ValidatingAdmissionWebhook', '  configuration:', '    apiVersion: apiserver.platform/v1',
      '    kind: WebhookAdmissionConfiguration', '    kubeConfigFile: /nowhere/kubeconfig', '',
    ].join('\n'));
    await assert.rejects(startInProcess({ args: [`--admission-control-config-file=${file}`] }), (e: unknown) =>
      e instanceof StartupError && e.message === '--admission-control-config-file: configuration of ValidatingAdmissionWebhook (WebhookAdmissionConfiguration) is not supported by plat');
  });
});
