// Issue 6's acceptance flow against `plat all`, whose controller manager runs in-process through
// the API client: a node agent's bootstrap CSR is auto-approved and issued without anyone
// touching it, the certificate verifies with openssl against the cluster CA and carries what was
// asked; `plat csr create --wait` returns a certificate once an operator approves.
import assert from 'node:assert/strict';
import { createPublicKey, generateKeyPairSync, X509Certificate } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createCsr } from '../../core/crypto/index.js';
import { createLogger } from '../../core/log.js';
import { runOpenssl } from '../helpers/openssl.js';
import { createBootstrapToken } from '../helpers/bootstrap-token.js';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { runPlatAsync } from '../helpers/run-plat.js';
import { waitUntil, WatchStream } from '../helpers/watch-stream.js';

const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';

describe('issuance end to end (plat all)', () => {
  let plat: RunningPlat;
  let bootstrapToken: string;
  const dir = tempDir('plat-issuance-');
  const logs: string[] = [];
  before(async () => {
    plat = await startInProcess({ args: ['--enable-bootstrap-token-auth'], logger: createLogger({ write: (l) => logs.push(l) }) });
    bootstrapToken = await createBootstrapToken(plat.admin);
    // The clock measures a started plat: boot returns once it serves, while its controller manager
    // is still building its controllers and listing CSRs.
    for (const controller of ['csrapproving', 'csrsigning-nodeagent-client']) {
      const synced = `] Caches are synced for certificate-${controller}`;
      await waitUntil(() => (logs.some((l) => l.endsWith(synced)) ? true : undefined), `${controller} to start`, 60_000);
    }
  });
  after(async () => { await plat?.stop(); });

  it('a bootstrap user\'s node-agent client CSR is approved and issued within 2 seconds; openssl verifies it', async (t) => {
    const key = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
    const request = createCsr({ subject: { commonName: 'system:node:n1', organizations: ['system:nodes'] }, privateKey: key });
    const body = {
      apiVersion: 'certificates.platform/v1', kind: 'CertificateSigningRequest', metadata: { name: 'node-n1-client' },
      spec: { request: Buffer.from(request).toString('base64'), signerName: 'platform/apiserver-client-nodeagent', usages: ['digital signature', 'client auth'], expirationSeconds: 3600 },
    };
    // The test's own connections are made before the clock starts: a watch (no polling requests
    // competing with plat for the CPU) and the bootstrap client's TLS connection, opened by an
    // anonymous request (refused; plat's token authentication is left to the measured create).
    const bootstrapClient = plat.admin.with({ token: bootstrapToken });
    const watch = await WatchStream.open(plat.admin, `${CSRS}?watch=true&fieldSelector=metadata.name%3Dnode-n1-client`);
    let obj: any;
    let elapsed: number;
    try {
      assert.equal(watch.status, 200);
      assert.equal((await plat.admin.with({ anonymous: true }).get('/livez')).status, 401);
      const started = Date.now();
      const created = await bootstrapClient.post(CSRS, body);
      assert.equal(created.status, 201, created.text);
      // Bounded: the controllers react to watch events, so this is milliseconds, not a resync.
      const event = await watch.waitFor((e) => Boolean(e.object?.status?.certificate), 'the certificate', 0, 10_000).catch(() => undefined);
      elapsed = Date.now() - started;
      obj = event?.object ?? (await plat.admin.get(`${CSRS}/node-n1-client`)).json;
    } finally {
      watch.close();
    }
    t.diagnostic(`approved and issued in ${elapsed} ms`);
    assert.ok(obj.status?.certificate && elapsed <= 2000, `not issued within 2s (${elapsed} ms): ${JSON.stringify(obj.status)}`);
    const approvedBy = obj.status.conditions.find((c: any) => c.type === 'Approved');
    assert.equal(approvedBy.reason, 'AutoApproved');

    const pem = Buffer.from(obj.status.certificate, 'base64').toString('utf8');
    const certFile = path.join(dir, 'n1.crt');
    writeFileSync(certFile, pem);
    const verify = runOpenssl(['verify', '-purpose', 'sslclient', '-CAfile', path.join(plat.dataDir, 'pki', 'ca.crt'), certFile]);
    assert.equal(verify.status, 0, verify.stderr + verify.stdout);
    const cert = new X509Certificate(pem);
    assert.match(cert.subject, /CN=system:node:n1/);
    assert.match(cert.subject, /O=system:nodes/);
    assert.deepEqual(cert.keyUsage, ['1.3.6.1.5.5.7.3.2']);
    assert.ok(cert.publicKey.equals(createPublicKey(key)), 'the certificate carries the requested key');
    const notBefore = Date.parse(cert.validFrom);
    const notAfter = Date.parse(cert.validTo);
    // Below 8h the lifetime is exactly the request's, from a notBefore backdated 5 minutes.
    assert.equal(notAfter - notBefore, (3600 + 300) * 1000);
  });

  it('plat csr create --wait returns a certificate once an operator approves it', async () => {
    const outDir = path.join(dir, 'out');
    const env = { PLATCONFIG: plat.kubeconfig, KUBECONFIG: '' };
    const waiting = runPlatAsync(['csr', 'create', '--signer', 'platform/apiserver-client', '--name', 'alice-client', '--cn', 'alice', '--org', 'dev', '--usages', 'digital signature,client auth', '--wait', '--timeout', '60s', '--out-dir', outDir], { env });
    let pending = false;
    for (let i = 0; i < 100 && !pending; i++) {
      pending = (await plat.admin.get(`${CSRS}/alice-client`)).status === 200;
      if (!pending) await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(pending, 'the CSR was submitted');
    const approve = await runPlatAsync(['csr', 'approve', 'alice-client'], { env });
    assert.equal(approve.code, 0, approve.stderr);
    const done = await waiting;
    assert.equal(done.code, 0, done.stderr + done.stdout);
    const crt = path.join(outDir, 'alice-client.crt');
    const verify = runOpenssl(['verify', '-purpose', 'sslclient', '-CAfile', path.join(plat.dataDir, 'pki', 'ca.crt'), crt]);
    assert.equal(verify.status, 0, verify.stderr + verify.stdout);
    const cert = new X509Certificate(readFileSync(crt));
    assert.match(cert.subject, /CN=alice/);
    assert.match(cert.subject, /O=dev/);
  });
});
