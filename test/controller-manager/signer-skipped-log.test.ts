// "Skipping CSR signer controller because no csr cert/key was specified": upstream logs it from
// the csrsigning controller's init function (startCertificateSigningRequestSigningController),
// which runs once the process leads and builds its controllers. A standby waiting for the Lease
// says nothing of it; the leader says it once, after acquiring the Lease, under the controller's name.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { adminKubeconfig, heldLease, startControllerManager, until } from './support.js';

const SKIPPING = 'Skipping CSR signer controller because no csr cert/key was specified';

describe('the cluster signer\'s "no csr cert/key" line', () => {
  let plat: RunningPlat;
  let admin: string;
  before(async () => {
    plat = await startInProcess({ args: ['--controllers='] });
    admin = adminKubeconfig(plat);
  });
  after(async () => { await plat?.stop(); });

  it('is said once the controller manager leads, not while it waits for the Lease', async () => {
    const held = await heldLease(plat, 'skipping-standby');
    const cm = await startControllerManager(['--platconfig', admin, '--secure-port=0',
      '--leader-elect-resource-name=skipping-standby', '--leader-elect-retry-period=200ms']);
    try {
      await until(async () => cm.logs.some((l) => l.includes('attempting to acquire leader lease')), 'the election started');
      await new Promise((r) => setTimeout(r, 1000)); // a few tries at the held Lease
      assert.ok(!cm.logs.some((l) => l.includes(SKIPPING)), cm.logs.join('\n'));

      await held.release();
      await until(async () => cm.logs.some((l) => l.includes('Warning: skipping controller controller="certificatesigningrequest-signing-controller"')),
        'the signing controller skipped', 100, 100);
      const lines = cm.logs.filter((l) => l.includes(SKIPPING));
      assert.equal(lines.length, 1, cm.logs.join('\n'));
      assert.match(lines[0]!, /^I.*controller-manager\/certificatesigningrequest-signing-controller\] Skipping CSR signer controller because no csr cert\/key was specified$/);
      const acquired = cm.logs.findIndex((l) => l.includes('successfully acquired lease'));
      assert.ok(acquired !== -1 && acquired < cm.logs.indexOf(lines[0]!), cm.logs.join('\n'));
    } finally {
      await cm.stop();
    }
  });

  it('is not said with the csrsigning controller off', async () => {
    const cm = await startControllerManager(['--platconfig', admin, '--secure-port=0', '--leader-elect=false', '--controllers=*,-csrsigning']);
    try {
      await until(async () => cm.logs.some((l) => l.includes('Warning: controller is disabled controller="certificatesigningrequest-signing-controller"')), 'csrsigning told of as disabled');
      assert.ok(!cm.logs.some((l) => l.includes(SKIPPING)), cm.logs.join('\n'));
    } finally {
      await cm.stop();
    }
  });
});
