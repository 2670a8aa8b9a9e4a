// The cluster CA files are read when the csrsigning controller is built, once the process leads,
// as upstream's startCSRSigningController makes each signer's CA provider: a standby neither
// reads nor watches them (a CA file mounted after the standby started is no problem), and a file
// that cannot be used then ends the process as any controller that cannot be built does.
import assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { makeCsr, submitApproved, waitForCertificate } from '../csrsigning/support.js';
import { adminKubeconfig, heldLease, startControllerManager, until } from './support.js';

const SIGNING = 'certificatesigningrequest-signing-controller';

describe('the cluster CA files, read once leading', () => {
  let plat: RunningPlat;
  let admin: string;
  // plat all signs nothing itself: what is issued here, the controller manager under test issued.
  before(async () => {
    plat = await startInProcess({ args: ['--controllers='] });
    admin = adminKubeconfig(plat);
  });
  after(async () => { await plat?.stop(); });

  it('a standby starts without them, and the leader it becomes reads them and signs', async () => {
    const held = await heldLease(plat, 'ca-standby');
    const dir = tempDir();
    const [cert, key] = [path.join(dir, 'ca.crt'), path.join(dir, 'ca.key')];
    const cm = await startControllerManager(['--platconfig', admin, '--secure-port=0', '--cluster-signing-cert-file', cert, '--cluster-signing-key-file', key,
      '--leader-elect-resource-name=ca-standby', '--leader-elect-retry-period=200ms', '-v=2']);
    try {
      await until(async () => cm.logs.some((l) => l.includes('attempting to acquire leader lease')), 'the election started');
      await new Promise((r) => setTimeout(r, 1000)); // a few tries at the held Lease
      assert.ok(!cm.logs.some((l) => l.includes('csr-controller::') || l.includes('signing with the cluster CA')), cm.logs.join('\n'));

      // The CA arrives (a Secret volume mounted late), then the Lease is free.
      copyFileSync(path.join(plat.dataDir, 'pki', 'ca.crt'), cert);
      copyFileSync(path.join(plat.dataDir, 'pki', 'ca.key'), key);
      await held.release();
      await until(async () => cm.logs.filter((l) => l.includes(`Starting controller name="csr-controller::${cert}::${key}"`)).length === 4, 'one loader per signer');
      const acquired = cm.logs.findIndex((l) => l.includes('successfully acquired lease'));
      const loaded = cm.logs.findIndex((l) => l.includes('Loaded a new cert/key pair'));
      assert.ok(acquired !== -1 && acquired < loaded, cm.logs.join('\n'));

      await submitApproved(plat.admin, 'after-leading', makeCsr({ cn: 'after-leading' }), 'platform/apiserver-client', ['digital signature', 'client auth']);
      const { x509 } = await waitForCertificate(plat.admin, 'after-leading');
      assert.equal(x509.subject, 'CN=after-leading');
    } finally {
      await cm.stop();
    }
  });

  it('a file that cannot be used then ends the process, naming the signer and the file', async () => {
    const missing = path.join(tempDir(), 'missing.crt');
    const cm = await startControllerManager(['--platconfig', admin, '--secure-port=0', '--leader-elect=false',
      '--cluster-signing-cert-file', missing, '--cluster-signing-key-file', path.join(plat.dataDir, 'pki', 'ca.key')]);
    try {
      const why = `failed to start platform/nodeagent-serving certificate controller: error reading CA cert file "${missing}": open ${missing}: no such file or directory`;
      assert.deepEqual(await cm.exit, { code: 1, reason: `error initializing controller "${SIGNING}": ${why}` });
      // logger.Error(err, ...): klog prints the error as err=, before the other pairs.
      assert.ok(cm.logs.some((l) => l.startsWith('E') && l.includes(`] Error initializing a controller err=${JSON.stringify(why)} controller="${SIGNING}"`)), cm.logs.join('\n'));
    } finally {
      await cm.stop();
    }
  });

  it('with one signer read and a later one not, the process exits without stopping the first (upstream exits at once)', async () => {
    const pki = path.join(plat.dataDir, 'pki');
    const missing = path.join(tempDir(), 'missing.key');
    const cm = await startControllerManager(['--platconfig', admin, '--secure-port=0', '--leader-elect=false',
      `--cluster-signing-nodeagent-serving-cert-file=${path.join(pki, 'ca.crt')}`, `--cluster-signing-nodeagent-serving-key-file=${path.join(pki, 'ca.key')}`,
      `--cluster-signing-nodeagent-client-cert-file=${path.join(pki, 'ca.crt')}`, `--cluster-signing-nodeagent-client-key-file=${missing}`]);
    try {
      assert.equal((await cm.exit).code, 1);
    } finally {
      await cm.stop(); // the exit's shutdown
    }
    assert.ok(cm.logs.some((l) => l.includes(`Starting controller name="csr-controller::${path.join(pki, 'ca.crt')}::${path.join(pki, 'ca.key')}"`)), cm.logs.join('\n'));
    assert.ok(cm.logs.some((l) => l.includes('failed to start platform/apiserver-client-nodeagent certificate controller')), cm.logs.join('\n'));
    assert.ok(!cm.logs.some((l) => l.includes('Shutting down controller')), cm.logs.join('\n'));
  });
});
