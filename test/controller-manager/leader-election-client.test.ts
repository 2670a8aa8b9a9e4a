// Leader election keeps its own API client, as kube-controller-manager's "leader-election" client:
// the controllers using up --plat-api-qps/--plat-api-burst (a burst of approved CSRs: one status
// write each) must not queue the Lease renewals behind their requests, or the leader loses its
// Lease under load, exits, and a restarted one meets the same backlog.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Host } from '../../core/host.js';
import type { Plugin } from '../../core/plugin.js';
import { freePort, startInProcess, type RunningPlat } from '../helpers/plat.js';
import { startControllerManager, until, adminKubeconfig } from './support.js';

const LEASE = '/apis/coordination.platform/v1/namespaces/plat-system/leases/plat-controller-manager';

/** A controller that queues far more requests than the client's rate limit lets through for a minute. */
function flooding(state: { flooding: boolean }): Plugin {
  return {
    name: 'FloodingController',
    apply(host: Host) {
      host.hooks.controllers.tap('FloodingController', (registry) => registry.register('flooding', (ctx) => ({
        async run(signal: AbortSignal) {
          const namespaces = { group: '', version: 'v1', plural: 'namespaces' };
          const requests = Array.from({ length: 200 }, () => ctx.client.list(namespaces, {}, { signal }).catch(() => undefined));
          state.flooding = true;
          await Promise.all(requests);
        },
      })));
    },
  };
}

describe('leader election under a controller using up the client rate limit', () => {
  let plat: RunningPlat;
  let admin: string;
  before(async () => {
    plat = await startInProcess();
    admin = adminKubeconfig(plat);
  });
  after(async () => { await plat?.stop(); });

  it('renews its Lease while the controllers wait for the rate limiter', async () => {
    const state = { flooding: false };
    const cm = await startControllerManager([
      '--platconfig', admin, '--controllers=flooding', '--bind-address', '127.0.0.1', '--secure-port', String(await freePort()),
      '--plat-api-qps=3', '--plat-api-burst=3',
      '--leader-elect-lease-duration=4s', '--leader-elect-renew-deadline=3s', '--leader-elect-retry-period=1s',
    ], [flooding(state)]);
    let exited = false;
    void cm.exit.then(() => { exited = true; });
    try {
      await until(async () => state.flooding, 'the flood starts');
      const renewTime = async () => (await plat.admin.get(LEASE)).json.spec?.renewTime as string | undefined;
      const first = await until(renewTime, 'the Lease');
      const second = await until(async () => { const t = await renewTime(); return t !== first && t; }, 'a renewal during the flood');
      await until(async () => { const t = await renewTime(); return t !== second && t; }, 'another renewal during the flood');
      assert.equal(exited, false, cm.logs.filter((l) => l.includes('lease')).join('\n'));
      assert.ok(!cm.logs.some((l) => l.includes('leaderelection lost')));
    } finally {
      await cm.stop();
    }
  });
});
