// When `plat controller-manager` says a controller is disabled: as kube-controller-manager's
// BuildControllers, once it leads and is building its controllers, so a standby waiting for the
// Lease says nothing of the kind.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { adminKubeconfig, heldLease, startControllerManager, until } from './support.js';

const DISABLED = 'Warning: controller is disabled controller="certificatesigningrequest-cleaner-controller"';

describe('the disabled controllers of plat controller-manager', () => {
  let plat: RunningPlat;
  let admin: string;
  before(async () => {
    plat = await startInProcess({ args: ['--controllers='] });
    admin = adminKubeconfig(plat);
  });
  after(async () => { await plat?.stop(); });

  it('are told of once it leads, not while it waits for the Lease', async () => {
    const held = await heldLease(plat, 'disabled-standby');
    const cm = await startControllerManager(['--platconfig', admin, '--secure-port=0', '--controllers=csrapproving',
      '--leader-elect-resource-name=disabled-standby', '--leader-elect-retry-period=200ms']);
    try {
      await until(async () => cm.logs.some((l) => l.includes('attempting to acquire leader lease')), 'the election started');
      // A few tries at the held Lease.
      await new Promise((r) => setTimeout(r, 1000));
      assert.ok(!cm.logs.some((l) => l.includes('Warning: controller is disabled')), cm.logs.join('\n'));

      await held.release();
      await until(async () => cm.logs.some((l) => l.includes(DISABLED)), 'the disabled controller told of', 100, 100);
      const acquired = cm.logs.findIndex((l) => l.includes('successfully acquired lease'));
      assert.ok(acquired !== -1 && acquired < cm.logs.findIndex((l) => l.includes(DISABLED)), cm.logs.join('\n'));
    } finally {
      await cm.stop();
    }
  });
});
