// The leadership fence: a leader's controller clients send no write once the renew deadline has
// passed, on the elector's monotonic clock, since its last successful renewal (a process resumed
// after a pause, renewals hung) or once it knows the Lease is another's; reads pass; a renewal
// that lands again opens it. Real plat, real TLS; the monotonic clock is injected and jumped, so
// no test waits for the deadline.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ApiObject } from '../../core/api/meta.js';
import { RestClient } from '../../core/client/rest-client.js';
import { FencedWriteError, wasSent, type WriteFence } from '../../core/client/write-fence.js';
import { LeaderElector } from '../../core/controller/leader-election.js';
import { whenAborted } from '../../core/abort-wait.js';
import { eventually } from '../helpers/kubectl.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { startStallProxy } from '../helpers/stall-proxy.js';
import { adminConnection } from './support.js';

const LEASE_REF = { group: 'coordination.platform', version: 'v1', plural: 'leases', namespace: 'plat-system' };
const LEASES = '/apis/coordination.platform/v1/namespaces/plat-system/leases';
interface Lease extends ApiObject { spec?: { holderIdentity?: string } }

describe('leadership fence', () => {
  let plat: RunningPlat;
  let admin: RestClient;
  before(async () => { plat = await startInProcess(); admin = new RestClient(adminConnection(plat)); });
  after(async () => { admin?.close(); await plat?.stop(); });

  /** An object for the controllers to write: a Lease of no election. */
  const target = async (name: string): Promise<Lease> => admin.create<Lease>(LEASE_REF, {
    apiVersion: 'coordination.platform/v1', kind: 'Lease', metadata: { name, namespace: 'plat-system' }, spec: { holderIdentity: 'nobody' },
  });
  const write = (c: RestClient, lease: Lease, holder: string) => c.update<Lease>(LEASE_REF, { ...lease, spec: { holderIdentity: holder } });

  it('a leader whose renewals stop sends no write once the renew deadline has passed since the last one; reads pass; a renewal opens it again', async () => {
    let t = 1_000_000;
    const proxy = await startStallProxy({ host: '127.0.0.1', port: Number(new URL(plat.url).port) });
    const leaseClient = new RestClient({ ...adminConnection(plat), server: new URL(`https://127.0.0.1:${proxy.port}`) });
    const elector = new LeaderElector({
      client: leaseClient, namespace: 'plat-system', name: 'fence-1', identity: 'cm-a',
      leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 200, monotonicNow: () => t,
    });
    const controllers = new RestClient(adminConnection(plat), { fence: elector });
    const stop = new AbortController();
    let leading = false;
    const done = elector.run({ onStartedLeading: async (signal) => { leading = true; await whenAborted(signal); } }, stop.signal);
    try {
      assert.equal(elector.refusal(), 'not leading', 'closed before the first term');
      await eventually(() => leading, 'a leads');
      let obj = await target('fence-1-target');
      // The normal path: leading, renewed within the deadline.
      assert.equal(elector.refusal(), undefined);
      obj = await write(controllers, obj, 'written-while-leading');

      // Renewals hang (the API server is out of reach for the Lease's client) and the clock passes
      // the renew deadline, as it does for a process paused that long: no timer has run yet.
      proxy.stall();
      t += 9_999;
      assert.equal(elector.refusal(), undefined, 'open just before the deadline');
      t += 1;
      assert.match(elector.refusal() ?? '', /^the lease was last renewed 10s ago, not within the renew deadline \(10s\)$/);
      await assert.rejects(write(controllers, obj, 'stale'), (e: unknown) => e instanceof FencedWriteError && /^PUT \S+\/leases\/fence-1-target not sent: the lease was last renewed/.test(e.message));
      const unchanged = await admin.get<Lease>(LEASE_REF, 'fence-1-target');
      assert.equal(unchanged.metadata.resourceVersion, obj.metadata.resourceVersion, 'nothing reached the server');
      assert.equal(unchanged.spec?.holderIdentity, 'written-while-leading');
      // Reads are not held back.
      assert.equal((await controllers.get<Lease>(LEASE_REF, 'fence-1-target')).spec?.holderIdentity, 'written-while-leading');

      // The API server is back within the lease: the next renewal lands and the fence opens.
      proxy.resume();
      await eventually(() => elector.refusal() === undefined, 'a renewal lands', 100, 100);
      assert.equal(leading, true, 'still leading');
      await write(controllers, obj, 'written-after-renewal');
      assert.equal((await admin.get<Lease>(LEASE_REF, 'fence-1-target')).spec?.holderIdentity, 'written-after-renewal');
    } finally {
      stop.abort();
      await done;
      controllers.close();
      leaseClient.close();
      await proxy.close();
    }
    assert.equal(elector.refusal(), 'not leading', 'closed once the term ended');
  });

  it('a leader that finds another holder has closed the fence by the time its work hears of it', async () => {
    const t = 1_000_000;
    const elector = new LeaderElector({
      client: admin, namespace: 'plat-system', name: 'fence-2', identity: 'cm-a',
      leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 200, monotonicNow: () => t,
    });
    const seenAtAbort: (string | undefined)[] = [];
    const stop = new AbortController();
    let leading = false;
    const done = elector.run({
      onStartedLeading: async (signal) => {
        leading = true;
        signal.addEventListener('abort', () => seenAtAbort.push(elector.refusal()), { once: true });
        await whenAborted(signal);
      },
    }, stop.signal);
    await eventually(() => leading, 'a leads');
    // The clock stands still: only the holder found in the Lease can close the fence.
    const lease = await plat.admin.get(`${LEASES}/fence-2`);
    const stolen = await plat.admin.put(`${LEASES}/fence-2`, { ...lease.json, spec: { ...lease.json.spec, holderIdentity: 'intruder' } });
    assert.equal(stolen.status, 200, stolen.text);
    await done;
    assert.deepEqual(seenAtAbort, ['not leading'], 'closed when the work is told to stop');
    assert.equal(elector.refusal(), 'not leading');
    stop.abort();
  });

  it('a write aborted after it went out is marked as sent (it may have landed); one aborted before is not', async () => {
    const obj = await target('fence-4-target');
    const proxy = await startStallProxy({ host: '127.0.0.1', port: Number(new URL(plat.url).port) });
    const c = new RestClient({ ...adminConnection(plat), server: new URL(`https://127.0.0.1:${proxy.port}`) });
    try {
      await c.get(LEASE_REF, 'fence-4-target'); // a connection through, before the stall
      proxy.stall();
      const ac = new AbortController();
      const sent = c.update<Lease>(LEASE_REF, { ...obj, spec: { holderIdentity: 'x' } }, undefined, { signal: ac.signal });
      // The request is written to the (stalled) connection; no answer comes.
      await new Promise((r) => setTimeout(r, 200));
      ac.abort();
      await assert.rejects(sent, (e: unknown) => wasSent(e));
      const before = new AbortController();
      before.abort();
      await assert.rejects(c.update<Lease>(LEASE_REF, { ...obj, spec: { holderIdentity: 'y' } }, undefined, { signal: before.signal }), (e: unknown) => !wasSent(e));
    } finally {
      c.close();
      proxy.resume();
      await proxy.close();
    }
  });

  it('a fence that closes while a write waits for its socket: the write is destroyed there, unsent', async () => {
    const obj = await target('fence-3-target');
    let asked = 0;
    // Open when the request is made, closed by the time its socket is handed over.
    const fence: WriteFence = { refusal: () => (asked++ === 0 ? undefined : 'closed meanwhile') };
    const controllers = new RestClient(adminConnection(plat), { fence });
    try {
      await assert.rejects(write(controllers, obj, 'late'), (e: unknown) => e instanceof FencedWriteError && /not sent: closed meanwhile$/.test(e.message));
      assert.equal(asked, 2);
      const unchanged = await admin.get<Lease>(LEASE_REF, 'fence-3-target');
      assert.equal(unchanged.metadata.resourceVersion, obj.metadata.resourceVersion);
      // A GET never asks.
      await controllers.get(LEASE_REF, 'fence-3-target');
      assert.equal(asked, 2);
    } finally {
      controllers.close();
    }
  });
});
