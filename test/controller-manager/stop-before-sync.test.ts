// A controller manager stopped before its informers' first list came back: each certificate
// controller (csrapproving and every signing lane) was waiting for its cache, and says it could not
// sync it as upstream's WaitForNamedCacheSync does (utilruntime.HandleError: "Unhandled Error"),
// then shuts down. The controllers start before the informers, as upstream's, so they are waiting.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeCa, makeServingCert } from '../helpers/certs.js';
import { tempDir } from '../helpers/plat.js';
import { writeCaFiles } from '../csrsigning/support.js';
import { startControllerManager, until } from './support.js';

const CONTROLLERS = ['csrapproving', 'csrsigning-nodeagent-serving', 'csrsigning-nodeagent-client', 'csrsigning-plat-apiserver-client', 'csrsigning-legacy-unknown'];

describe('a controller manager stopped before its caches sync', () => {
  const ca = makeCa({ commonName: 'stop-before-sync-ca', days: 30 });
  const seen: string[] = [];
  // /healthz answers (the manager waits for it first); nothing else ever does.
  const serving = makeServingCert(ca, [], ['127.0.0.1']);
  const server = https.createServer({ cert: serving.certificatePem, key: serving.privateKeyPem }, (req, res) => {
    seen.push(req.url ?? '');
    if ((req.url ?? '').startsWith('/healthz')) res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
  let kubeconfig = '';
  before(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    kubeconfig = path.join(tempDir(), 'kubeconfig');
    writeFileSync(kubeconfig, [
      'apiVersion: v1', 'kind: Config',
      'clusters:', '- name: c', '  cluster:', `    server: https://127.0.0.1:${(server.address() as AddressInfo).port}`,
      `    certificate-authority-data: ${Buffer.from(ca.certificatePem).toString('base64')}`,
      'users:', '- name: u', '  user: {token: t}',
      'contexts:', '- name: c', '  context: {cluster: c, user: u}', 'current-context: c', '',
    ].join('\n'));
  });
  after(async () => { server.closeAllConnections(); await new Promise((r) => server.close(r)); });

  it('logs `unable to sync caches for certificate-<name>` for each certificate controller', async () => {
    const files = writeCaFiles(tempDir(), ca);
    const cm = await startControllerManager(['--platconfig', kubeconfig, '--leader-elect=false', '--secure-port=0',
      '--controllers=csrapproving,csrsigning', '--cluster-signing-cert-file', files.certFile, '--cluster-signing-key-file', files.keyFile]);
    let stopped = false;
    try {
      await until(async () => CONTROLLERS.every((c) => cm.logs.some((l) => l.includes(`Waiting for caches to sync for certificate-${c}`))), 'every controller to wait');
      await until(async () => seen.some((u) => u.includes('certificatesigningrequests')), 'the CSR list to be asked for');
      await cm.stop();
      stopped = true;
      for (const c of CONTROLLERS) {
        const failed = cm.logs.findIndex((l) => /^E/.test(l) && l.endsWith(`Unhandled Error err="unable to sync caches for certificate-${c}"`));
        const down = cm.logs.findIndex((l) => l.includes('Shutting down certificate controller') && l.includes(`name="${c}"`));
        assert.ok(failed >= 0 && failed < down, `${c}:\n${cm.logs.join('\n')}`);
        assert.ok(!cm.logs.some((l) => l.includes(`Caches are synced for certificate-${c}`)), cm.logs.join('\n'));
      }
    } finally {
      if (!stopped) await cm.stop();
    }
  });
});
