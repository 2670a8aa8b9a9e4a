// A webhook's warnings reach the client through the warning recorder: non-ASCII text as its UTF-8
// bytes, a text with a control character dropped, and the write done either way. Over HTTP/2
// (kubectl) and HTTP/1.1 (node:https).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { baseCsr, fixtures } from '../certificates/fixtures.js';
import { Kubectl } from '../helpers/kubectl.js';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { allow, CSRS, webhook, WebhookServer, withConfiguration } from './support.js';

const WARNINGS = ['Iñtërnâtiônàl ✓', 'a\ttab', 'plain'];

describe('webhook warnings on the wire', () => {
  let plat: RunningPlat;
  const server = new WebhookServer();
  const fx = fixtures();
  const dir = tempDir('plat-webhook-warnings-');
  before(async () => {
    await server.start();
    server.on('/warn', (review) => allow(review, { warnings: WARNINGS }));
    plat = await startInProcess();
  });
  after(async () => { await plat?.stop(); await server.stop(); });

  const withWarner = (fn: () => Promise<void>) =>
    withConfiguration(plat.admin, 'ValidatingWebhookConfiguration', 'warn', [webhook(server, 'warn.example.com', '/warn')], fn);

  it('HTTP/1.1: the create succeeds with the UTF-8 warning and without the control-character one', async () => {
    await withWarner(async () => {
      const r = await plat.admin.post(CSRS, baseCsr(fx, 'warned-h1'));
      assert.equal(r.status, 201, r.text);
      // node:http joins the headers with ", " and reads each byte as a character.
      assert.equal(Buffer.from(String(r.headers['warning']), 'latin1').toString('utf8'), '299 - "Iñtërnâtiônàl ✓", 299 - "plain"');
    });
  });

  it('HTTP/2: kubectl creates the CSR and prints the warnings it can', async () => {
    const kubectl = new Kubectl(plat.kubeconfig);
    const file = path.join(dir, 'csr.json');
    writeFileSync(file, JSON.stringify(baseCsr(fx, 'warned-h2')));
    await withWarner(async () => {
      const r = await kubectl.run(['create', '-f', file]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /certificatesigningrequest\.certificates\.platform\/warned-h2 created/);
      assert.equal(r.stderr, 'Warning: Iñtërnâtiônàl ✓\nWarning: plain\n');
    });
  });
});
