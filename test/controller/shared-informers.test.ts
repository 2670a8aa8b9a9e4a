// The shared informers' resync period: --min-resync-period randomised once for the whole factory
// (kube-controller-manager's NewSharedInformerFactory(client, ResyncPeriod(s)())), so every
// informer of the process resyncs with the same period.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RestClient } from '../../core/client/rest-client.js';
import { SharedInformers } from '../../core/controller/shared-informers.js';
import { createLogger } from '../../core/log.js';

/** Lists that wait until the informer stops. */
const pending = {
  list: (_r: unknown, _q: unknown, o: { signal: AbortSignal }) => new Promise((_, reject) => o.signal.addEventListener('abort', () => reject(o.signal.reason), { once: true })),
} as unknown as RestClient;

describe('SharedInformers', () => {
  it('one randomised resync period for every informer, between --min-resync-period and twice it', async () => {
    const logs: string[] = [];
    const informers = new SharedInformers(pending, { minResyncMs: 12 * 3600_000, logger: createLogger({ verbosity: 3, write: (l) => logs.push(l) }) });
    for (const plural of ['certificatesigningrequests', 'leases', 'configmaps', 'secrets']) {
      informers.for({ group: 'g', version: 'v1', plural, kind: plural });
    }
    const stop = new AbortController();
    informers.start(stop.signal);
    stop.abort();
    await informers.stopped();
    const periods = logs.flatMap((l) => /Starting reflector \S+ \((\S+)\) from/.exec(l)?.[1] ?? []);
    assert.equal(periods.length, 4);
    assert.equal(new Set(periods).size, 1, periods.join(', '));
    assert.match(periods[0]!, /^(1[2-9]|2[0-3])h/);
  });
});
