// Client certificate rotation with a lifetime of a few minutes (--cluster-signing-duration 2m20s;
// the signer backdates NotBefore by 5 minutes, so the life is 7m20s and the rotation deadline with
// the jitter fixed at its low end, 0.7, falls 8 s after issuance: the two certificates' whole-second
// NotBefore differ, and the checks below end well before a further rotation): the agent rotates
// before expiry, the old and new certificates differ and both verify against the CA, and its API
// client presents the new one (the credential id the server sees).
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createBootstrapToken } from '../../helpers/bootstrap-token.js';
import { agentDirs } from '../../helpers/nodeagent-process.js';
import { startAgentInProcess, type InProcessAgent } from '../../helpers/nodeagent-inprocess.js';
import { runOpenssl } from '../../helpers/openssl.js';
import { startInProcess, tempDir, type RunningPlat } from '../../helpers/plat.js';
import { identityPlugin } from '../../../plugins/nodeagent-identity/index.js';
import { Logs } from '../../csrsigning/support.js';

describe('node agent client certificate rotation', () => {
  let plat: RunningPlat;
  let agent: InProcessAgent | undefined;
  const root = tempDir('plat-agent-rotation-');
  before(async () => { plat = await startInProcess({ args: ['--enable-bootstrap-token-auth', '--cluster-signing-duration', '2m20s'] }); });
  after(async () => { await agent?.stop(); await plat?.stop(); });

  it('rotates before expiry; both certificates verify; the API client presents the new one', async () => {
    const token = await createBootstrapToken(plat.admin);
    const logs = new Logs();
    const caFile = path.join(plat.dataDir, 'pki', 'ca.crt');
    const dirs = await agentDirs(path.join(root, 'r1'), plat.url, caFile, token, {});
    agent = await startAgentInProcess(['--config', dirs.config, '--hostname-override', 'r1', '--node-ip', '127.0.0.1', '--cert-dir', dirs.certDir,
      '--platconfig', dirs.kubeconfig, '--bootstrap-kubeconfig', dirs.bootstrap], { cwd: dirs.dir, identity: identityPlugin({ random: () => 0 }), logger: logs.logger });
    const current = path.join(dirs.certDir, 'nodeagent-client-current.pem');
    const certOf = (pem: string) => new X509Certificate(pem);
    const seen: string[] = [];
    // Bounded: the first certificate within seconds, the rotated one about 8 s later.
    for (let i = 0; i < 600 && seen.length < 2; i++) {
      await new Promise((r) => setTimeout(r, 100));
      let pem: string;
      try { pem = readFileSync(current, 'utf8'); } catch { continue; }
      const fp = certOf(pem).fingerprint256;
      if (!seen.includes(fp)) { seen.push(fp); writeFileSync(path.join(root, `cert-${seen.length}.pem`), pem); }
    }
    assert.equal(seen.length, 2, 'a first certificate and a rotated one within 60 s');
    const [first, second] = [1, 2].map((n) => readFileSync(path.join(root, `cert-${n}.pem`), 'utf8'));
    const c1 = certOf(first!);
    const c2 = certOf(second!);
    assert.notEqual(c1.serialNumber, c2.serialNumber);
    assert.ok(Date.parse(c2.validFrom) > Date.parse(c1.validFrom), 'the new certificate is newer');
    assert.ok(Date.now() < Date.parse(c1.validTo), 'rotated before the old one expired');
    for (const n of [1, 2]) {
      const v = runOpenssl(['verify', '-purpose', 'sslclient', '-CAfile', caFile, path.join(root, `cert-${n}.pem`)]);
      assert.equal(v.status, 0, v.stderr + v.stdout);
    }
    // The node's client now authenticates with the new certificate: the server's credential id is its SHA-256.
    const api = agent.ctx.api.get()!;
    const review = await api.request<any>('POST', '/apis/authentication.platform/v1/selfsubjectreviews', {
      body: { apiVersion: 'authentication.platform/v1', kind: 'SelfSubjectReview' },
    });
    assert.equal(review.status.userInfo.username, 'system:node:r1');
    const id = review.status.userInfo.extra?.['authentication.platform/credential-id']?.[0];
    assert.equal(id, `X509SHA256=${c2.fingerprint256.replace(/:/g, '').toLowerCase()}`);
    // Upstream's transport line, for the bootstrap's certificate and for the rotated one.
    assert.equal(logs.count('Certificate rotation detected, shutting down client connections to start using new credentials'), 2, logs.lines.join('\n'));
  });
});
