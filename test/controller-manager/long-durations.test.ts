// Duration flags longer than one Node timer holds (about 24.8 days) wait as long as they say. Node
// runs such a timer after 1 ms (with a TimeoutOverflowWarning): --min-resync-period=600h resynced
// every millisecond, --leader-elect-retry-period=600h renewed the Lease in a loop, and
// --controller-shutdown-timeout=600h gave the controllers 1 ms to stop.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startInProcess } from '../helpers/plat.js';
import { adminKubeconfig, startControllerManager, until } from './support.js';

describe('duration flags past 24.8 days', () => {
  it('arm no timer Node would cut to 1 ms', async () => {
    const overflows: string[] = [];
    const onWarning = (w: Error) => { if (w.name === 'TimeoutOverflowWarning') overflows.push(w.message); };
    process.on('warning', onWarning);
    const plat = await startInProcess();
    try {
      const cm = await startControllerManager([
        '--platconfig', adminKubeconfig(plat), '--secure-port=0', '--controllers=csrcleaner', '-v=2',
        '--min-resync-period=600h', '--controller-shutdown-timeout=600h',
        '--leader-elect-lease-duration=2000h', '--leader-elect-renew-deadline=1000h', '--leader-elect-retry-period=600h',
      ]);
      await until(async () => cm.logs.some((l) => l.includes('Caches populated')), 'the informer to list (its resync timer armed)');
      await cm.stop();
      // Warnings are emitted on the next tick.
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(overflows, []);
    } finally {
      process.off('warning', onWarning);
      await plat.stop();
    }
  });
});
