// Leader election on a Lease of a real plat: exactly one candidate leads, a crashed leader (no
// release) is replaced after the lease duration, a released lease is taken at once, a Lease a
// user deletes or clears is written again by its leader, and the
// Lease resource validates as upstream.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ApiObject } from '../../core/api/meta.js';
import { ApiError, RestClient, type ResourceRef } from '../../core/client/rest-client.js';
import { LeaderElector, standbyWaitMs } from '../../core/controller/leader-election.js';
import { whenAborted } from '../../core/abort-wait.js';
import { createLogger } from '../../core/log.js';
import { leaderElectionMetrics } from '../../core/metrics/leader-election.js';
import { MetricsRegistry } from '../../core/metrics/registry.js';
import { eventually } from '../helpers/kubectl.js';
import { startInProcess, type Response, type RunningPlat } from '../helpers/plat.js';
import { startStallProxy } from '../helpers/stall-proxy.js';
import { adminConnection } from './support.js';
import { until } from '../controller-manager/support.js';

const LEASES = '/apis/coordination.platform/v1/namespaces/plat-system/leases';

describe('leader election', () => {
  let plat: RunningPlat;
  let client: RestClient;
  before(async () => { plat = await startInProcess(); client = new RestClient(adminConnection(plat)); });
  after(async () => { client?.close(); await plat?.stop(); });

  const candidate = (identity: string, name: string, releaseOnCancel = false) => {
    const stop = new AbortController();
    const state = { leading: false, stoppedLeading: false };
    const elector = new LeaderElector({ client, namespace: 'plat-system', name, identity, leaseDurationMs: 1000, renewDeadlineMs: 800, retryPeriodMs: 200, releaseOnCancel });
    const done = elector.run({
      onStartedLeading: async (signal) => { state.leading = true; await new Promise<void>((r) => signal.addEventListener('abort', () => r(), { once: true })); state.leading = false; },
      onStoppedLeading: () => { state.stoppedLeading = true; },
    }, stop.signal);
    return { elector, stop, state, done };
  };

  it('one of two candidates leads; when it dies the other takes over', async () => {
    const a = candidate('cm-a', 'election-1');
    await eventually(() => a.state.leading, 'a leads');
    const b = candidate('cm-b', 'election-1');
    // b campaigns for several retry periods and must not lead while a renews.
    for (let i = 0; i < 10; i++) { await new Promise((r) => setTimeout(r, 100)); assert.equal(b.state.leading, false); }
    const lease = await plat.admin.get(`${LEASES}/election-1`);
    assert.equal(lease.json.spec.holderIdentity, 'cm-a');
    assert.equal(lease.json.spec.leaseDurationSeconds, 1);
    assert.match(lease.json.spec.renewTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    a.stop.abort(); // a crash: the lease is not released
    await a.done;
    await eventually(() => b.state.leading, 'b takes over', 100, 100);
    const taken = await plat.admin.get(`${LEASES}/election-1`);
    assert.equal(taken.json.spec.holderIdentity, 'cm-b');
    assert.equal(taken.json.spec.leaseTransitions, 1);
    b.stop.abort();
    await b.done;
  });

  it('a released lease is free at once', async () => {
    const a = candidate('cm-a', 'election-2', true);
    await eventually(() => a.state.leading, 'a leads');
    a.stop.abort();
    await a.done;
    assert.equal(a.state.stoppedLeading, true);
    const lease = await plat.admin.get(`${LEASES}/election-2`);
    // Upstream's release record, the whole spec (LeaderElectionRecordToLeaseSpec): an empty holder
    // written as "", a lease of 1 s acquired and renewed now, the transitions kept.
    const { renewTime, ...spec } = lease.json.spec;
    assert.match(renewTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    assert.deepEqual(spec, { holderIdentity: '', leaseDurationSeconds: 1, acquireTime: renewTime, leaseTransitions: 0 });
    assert.equal(a.elector.leader, '', 'the released record is the one observed');
    const b = candidate('cm-b', 'election-2');
    await eventually(() => b.state.leading, 'b leads', 10, 100);
    b.stop.abort();
    await b.done;
  });

  it('a leader whose Lease a user deletes creates it again and goes on leading; one whose holder a user clears takes it again as a new term', async () => {
    // As client-go: the optimistic PUT fails, the read finds nothing (or no holder) and the slow path writes it.
    const a = candidate('cm-a', 'election-edited');
    await eventually(() => a.state.leading, 'a leads');
    const first = (await plat.admin.get(`${LEASES}/election-edited`)).json;
    assert.equal((await plat.admin.delete(`${LEASES}/election-edited`)).status, 200);
    const again = await until(async () => { const r = await plat.admin.get(`${LEASES}/election-edited`); return r.status === 200 && r.json.metadata.uid !== first.metadata.uid ? r.json : undefined; }, 'the Lease created again');
    assert.equal(again.spec.holderIdentity, 'cm-a');
    assert.equal(again.spec.leaseTransitions, 0);
    assert.equal(again.spec.leaseDurationSeconds, 1);
    assert.equal(a.state.leading, true);
    let cleared;
    for (let attempt = 0; attempt < 20; attempt++) {
      const lease = (await plat.admin.get(`${LEASES}/election-edited`)).json;
      const { holderIdentity: _holder, ...spec } = lease.spec;
      cleared = await plat.admin.put(`${LEASES}/election-edited`, { ...lease, spec });
      if (cleared.status !== 409) break;
    }
    assert.equal(cleared!.status, 200, cleared!.text);
    const retaken = await until(async () => { const r = (await plat.admin.get(`${LEASES}/election-edited`)).json; return r.spec.holderIdentity === 'cm-a' ? r : undefined; }, 'a takes it again');
    assert.equal(retaken.spec.leaseTransitions, 1, 'a lease with no holder is taken as a new term');
    assert.equal(a.state.leading, true);
    a.stop.abort();
    await a.done;
  });

  it('a leader cut off from the API server stops leading before a standby may take over', async () => {
    // Lease 2 s, renew deadline 1 s, retry 0.2 s: the leader must give up within 1.2 s of its last
    // renewal, the standby may not take the Lease before 2 s after it last saw it change.
    const events: string[] = [];
    const proxy = await startStallProxy({ host: '127.0.0.1', port: Number(new URL(plat.url).port) });
    const viaProxy = new RestClient({ ...adminConnection(plat), server: new URL(`https://127.0.0.1:${proxy.port}`) });
    const run = (identity: string, c: RestClient) => {
      const stop = new AbortController();
      const elector = new LeaderElector({ client: c, namespace: 'plat-system', name: 'election-3', identity, leaseDurationMs: 2000, renewDeadlineMs: 1000, retryPeriodMs: 200 });
      const done = elector.run({
        onStartedLeading: async (signal) => {
          events.push(`${identity} leads`);
          await new Promise<void>((r) => signal.addEventListener('abort', () => r(), { once: true }));
          events.push(`${identity} stops`);
        },
      }, stop.signal);
      return { stop, done };
    };
    try {
      const a = run('cm-a', viaProxy);
      await eventually(() => events.includes('cm-a leads'), 'a leads');
      const b = run('cm-b', client);
      await new Promise((r) => setTimeout(r, 500));
      proxy.stall(); // a's requests now hang: no error, no answer
      await eventually(() => events.includes('cm-b leads'), 'b takes over', 100, 100);
      await a.done; // a's run ended by itself: leadership lost, not stopped from outside
      assert.deepEqual(events, ['cm-a leads', 'cm-a stops', 'cm-b leads'], 'never two leaders at once');
      b.stop.abort();
      await b.done;
    } finally {
      viaProxy.close();
      await proxy.close();
    }
  });

  it('logs client-go\'s lines, the lock named as Describe() names it: a standby\'s at V(4), a lost renewal with wait\'s timeout, nothing of its own', async () => {
    const lines = { a: [] as string[], b: [] as string[] };
    const recording = (into: string[]) => createLogger({ verbosity: 4, write: (l) => into.push(l) });
    const messages = (into: string[]) => into.map((l) => l.slice(l.indexOf('] ') + 2));
    const proxy = await startStallProxy({ host: '127.0.0.1', port: Number(new URL(plat.url).port) });
    const viaProxy = new RestClient({ ...adminConnection(plat), server: new URL(`https://127.0.0.1:${proxy.port}`) });
    const timings = { namespace: 'plat-system', name: 'election-lines', leaseDurationMs: 2000, renewDeadlineMs: 1000, retryPeriodMs: 200 };
    // The recorder notes its Events among the log lines, to show their order.
    const noting = (into: string[]) => ({ event: (_o: unknown, type: string, reason: string, message: string) => { into.push(`] Event ${type} ${reason} ${message}`); } });
    const a = new LeaderElector({ ...timings, client: viaProxy, identity: 'cm-a', logger: recording(lines.a), eventRecorder: noting(lines.a) });
    const b = new LeaderElector({ ...timings, client, identity: 'cm-b', logger: recording(lines.b) });
    const [stopA, stopB] = [new AbortController(), new AbortController()];
    const leading = { a: false, b: false };
    try {
      const aDone = a.run({ onStartedLeading: (signal) => { leading.a = true; return whenAborted(signal); } }, stopA.signal);
      await eventually(() => leading.a, 'a leads');
      const bDone = b.run({ onStartedLeading: (signal) => { leading.b = true; return whenAborted(signal); } }, stopB.signal);
      await eventually(() => messages(lines.b).includes('lock is held by cm-a and has not yet expired'), 'b finds the Lease held');
      proxy.stall();
      await aDone; // leadership lost by itself: its renewals hang past the renew deadline
      await eventually(() => leading.b, 'b takes over', 100, 100);
      stopB.abort();
      await bDone;
      const ofA = messages(lines.a);
      assert.deepEqual(ofA.filter((m) => !m.startsWith('Event ')), [
        'attempting to acquire leader lease plat-system/election-lines...',
        'successfully acquired lease plat-system/election-lines',
        'failed to renew lease plat-system/election-lines: timed out waiting for the condition',
      ], lines.a.join('\n'));
      // The LeaderElection event is recorded before the line, as acquire() does.
      assert.ok(ofA.indexOf('Event Normal LeaderElection cm-a became leader') >= 0, lines.a.join('\n'));
      assert.ok(ofA.indexOf('Event Normal LeaderElection cm-a became leader') < ofA.indexOf('successfully acquired lease plat-system/election-lines'));
      const ofB = messages(lines.b);
      assert.equal(ofB[0], 'attempting to acquire leader lease plat-system/election-lines...');
      assert.ok(ofB.includes('failed to acquire lease plat-system/election-lines'), lines.b.join('\n'));
      assert.ok(ofB.includes('successfully acquired lease plat-system/election-lines'), lines.b.join('\n'));
      assert.ok(!ofB.some((m) => m.startsWith('new leader elected')), 'no line of plat\'s own on a change of leader');
    } finally {
      stopA.abort();
      stopB.abort();
      viaProxy.close();
      await proxy.close();
    }
  });

  it('a Lease held without a leaseDurationSeconds is expired, as client-go reads it (0), not held for the candidate\'s own duration', async () => {
    const now = new Date().toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
    const made = await plat.admin.post(LEASES, {
      apiVersion: 'coordination.platform/v1', kind: 'Lease', metadata: { name: 'election-no-duration' },
      spec: { holderIdentity: 'someone-else', acquireTime: now, renewTime: now },
    });
    assert.equal(made.status, 201, made.text);
    const stop = new AbortController();
    let leading = false;
    // A lease duration of 30 s: waiting it out would take far longer than this test allows.
    const elector = new LeaderElector({ client, namespace: 'plat-system', name: 'election-no-duration', identity: 'cm-n', leaseDurationMs: 30_000, renewDeadlineMs: 20_000, retryPeriodMs: 200 });
    const done = elector.run({ onStartedLeading: (signal) => { leading = true; return whenAborted(signal); } }, stop.signal);
    try {
      await eventually(() => leading, 'the Lease taken within a few retry periods', 30, 100);
      const taken = (await plat.admin.get(`${LEASES}/election-no-duration`)).json.spec;
      assert.deepEqual({ holder: taken.holderIdentity, duration: taken.leaseDurationSeconds, transitions: taken.leaseTransitions }, { holder: 'cm-n', duration: 30, transitions: 1 });
    } finally {
      stop.abort();
      await done;
    }
  });

  it('a standby\'s wait restarts on any change of the record, not only of its holder or renew time (client-go compares the raw records)', async () => {
    const now = new Date().toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
    const made = await plat.admin.post(LEASES, {
      apiVersion: 'coordination.platform/v1', kind: 'Lease', metadata: { name: 'election-edited-record' },
      spec: { holderIdentity: 'someone-else', leaseDurationSeconds: 3, acquireTime: now, renewTime: now, leaseTransitions: 0 },
    });
    assert.equal(made.status, 201, made.text);
    const stop = new AbortController();
    let leading = false;
    const elector = new LeaderElector({ client, namespace: 'plat-system', name: 'election-edited-record', identity: 'cm-e', leaseDurationMs: 3000, renewDeadlineMs: 2000, retryPeriodMs: 200 });
    const done = elector.run({ onStartedLeading: (signal) => { leading = true; return whenAborted(signal); } }, stop.signal);
    try {
      // The holder never renews, but its record keeps changing (its transitions counted up every
      // 0.5 s, well within the 3 s lease): for 7 s, more than twice the lease, it is not taken.
      for (let i = 1; i <= 14; i++) {
        await new Promise((r) => setTimeout(r, 500));
        const lease = (await plat.admin.get(`${LEASES}/election-edited-record`)).json;
        assert.equal(lease.spec.holderIdentity, 'someone-else', `taken after ${i * 0.5} s although its record changed every 0.5 s`);
        lease.spec.leaseTransitions = i;
        assert.equal((await plat.admin.put(`${LEASES}/election-edited-record`, lease)).status, 200);
      }
      assert.equal(leading, false);
      // Left alone, it expires a lease duration after the last change seen.
      await eventually(() => leading, 'the Lease taken once it stops changing', 80, 100);
    } finally {
      stop.abort();
      await done;
    }
  });

  it('a leader that finds the Lease held by another (it was paused past the lease duration) stops at once', async () => {
    // A long renew deadline: retrying until it passes would keep a stale leader working for 5 s
    // beside the new one, although the Lease cannot come back within it (lease > renew deadline).
    let sawB = false;
    let readsAfterSawB = 0;
    const counting = new (class extends RestClient {
      override async get<T extends ApiObject>(r: ResourceRef, name: string, sub?: string, o?: { signal?: AbortSignal }): Promise<T> {
        if (r.plural !== 'leases') return super.get<T>(r, name, sub, o);
        if (sawB) readsAfterSawB++;
        const lease = await super.get<T & { spec?: { holderIdentity?: string } }>(r, name, sub, o);
        if (lease.spec?.holderIdentity === 'cm-b') sawB = true;
        return lease;
      }
    })(adminConnection(plat));
    const stop = new AbortController();
    const state = { leading: false, stopped: false };
    const elector = new LeaderElector({ client: counting, namespace: 'plat-system', name: 'election-4', identity: 'cm-a', leaseDurationMs: 10_000, renewDeadlineMs: 5000, retryPeriodMs: 100 });
    const done = elector.run({
      onStartedLeading: async (signal) => { state.leading = true; await new Promise<void>((r) => signal.addEventListener('abort', () => r(), { once: true })); state.leading = false; },
      onStoppedLeading: () => { state.stopped = true; },
    }, stop.signal);
    try {
      await eventually(() => state.leading, 'a leads');
      // What a standby writes when it takes over a Lease that stopped changing (a's renewals may
      // race it: read again on a conflict).
      let taken: Response | undefined;
      for (let i = 0; i < 10 && taken?.status !== 200; i++) {
        const lease = await plat.admin.get(`${LEASES}/election-4`);
        const now = new Date().toISOString().replace('Z', '000Z');
        taken = await plat.admin.put(`${LEASES}/election-4`, { ...lease.json, spec: { ...lease.json.spec, holderIdentity: 'cm-b', acquireTime: now, renewTime: now, leaseTransitions: 1 } });
      }
      assert.equal(taken?.status, 200, taken?.text);
      await eventually(() => state.stopped, 'a stops leading', 100, 100);
      assert.equal(readsAfterSawB, 0, 'a gave up on the first read that showed cm-b holding the Lease');
      assert.equal(elector.isLeader, false);
      const after = await plat.admin.get(`${LEASES}/election-4`);
      assert.equal(after.json.spec.holderIdentity, 'cm-b');
      assert.equal(after.json.metadata.resourceVersion, taken?.json.metadata.resourceVersion, 'a did not write the Lease again');
    } finally {
      stop.abort();
      await done;
      counting.close();
    }
  });

  it('a release the API server refuses is logged in upstream\'s words (Failed to release lock)', async () => {
    let refuse = false;
    const refusing = new (class extends RestClient {
      override async update<T extends ApiObject>(r: ResourceRef, obj: T, sub?: string, o?: { signal?: AbortSignal }): Promise<T> {
        if (refuse && r.plural === 'leases') throw new ApiError(500, 'InternalError', 'etcdserver: request timed out', {});
        return super.update<T>(r, obj, sub, o);
      }
    })(adminConnection(plat));
    const lines: string[] = [];
    const stop = new AbortController();
    let leading = false;
    const elector = new LeaderElector({ client: refusing, namespace: 'plat-system', name: 'election-release-refused', identity: 'cm-r', leaseDurationMs: 2000, renewDeadlineMs: 1000,
      retryPeriodMs: 100, releaseOnCancel: true, logger: createLogger({ write: (l) => lines.push(l) }) });
    const done = elector.run({ onStartedLeading: () => { leading = true; } }, stop.signal);
    try {
      await eventually(() => leading, 'cm-r leads');
      refuse = true;
      stop.abort();
      await done;
      assert.ok(lines.some((l) => /^E/.test(l) && l.endsWith('] Failed to release lock: etcdserver: request timed out')), lines.join('\n'));
    } finally {
      stop.abort();
      refusing.close();
    }
  });

  it('a leader renews with one PUT (no read first) and records the LeaderElection events upstream records', async () => {
    const calls: string[] = [];
    const counting = new (class extends RestClient {
      override async get<T extends ApiObject>(r: ResourceRef, name: string, sub?: string, o?: { signal?: AbortSignal }): Promise<T> {
        if (r.plural === 'leases') calls.push('get');
        return super.get<T>(r, name, sub, o);
      }
      override async update<T extends ApiObject>(r: ResourceRef, obj: T, sub?: string, o?: { signal?: AbortSignal }): Promise<T> {
        if (r.plural === 'leases') calls.push('put');
        return super.update<T>(r, obj, sub, o);
      }
    })(adminConnection(plat));
    const lines: string[] = [];
    const stop = new AbortController();
    let leading = false;
    const recorded: { object: any; type: string; reason: string; message: string }[] = [];
    const elector = new LeaderElector({ client: counting, namespace: 'plat-system', name: 'election-5', identity: 'cm-e', leaseDurationMs: 2000, renewDeadlineMs: 1000, retryPeriodMs: 100,
      logger: createLogger({ write: (l) => lines.push(l) }),
      eventRecorder: { event: (object, type, reason, message) => { recorded.push({ object: structuredClone(object), type, reason, message }); } } });
    const done = elector.run({ onStartedLeading: () => { leading = true; } }, stop.signal);
    try {
      await eventually(() => leading, 'e leads');
      const from = calls.length;
      await eventually(() => calls.length - from >= 5, 'five renewals', 100, 100);
      assert.deepEqual(calls.slice(from, from + 5), ['put', 'put', 'put', 'put', 'put']);
    } finally {
      stop.abort();
      await done;
      counting.close();
    }
    // LeaseLock.RecordEvent: on the Lease as written (its uid and resourceVersion).
    assert.deepEqual(recorded.map((e) => [e.type, e.reason, e.message]), [['Normal', 'LeaderElection', 'cm-e became leader'], ['Normal', 'LeaderElection', 'cm-e stopped leading']]);
    const lease = recorded[0]!.object;
    assert.deepEqual([lease.apiVersion, lease.kind, lease.metadata.namespace, lease.metadata.name], ['coordination.platform/v1', 'Lease', 'plat-system', 'election-5']);
    assert.ok(lease.metadata.uid && lease.metadata.resourceVersion, JSON.stringify(lease));
  });

  it('a new leader renews at once, then a retry period after each renewal (renew()\'s wait.Until runs first)', async () => {
    const puts: number[] = [];
    const counting = new (class extends RestClient {
      override async update<T extends ApiObject>(r: ResourceRef, obj: T, sub?: string, o?: { signal?: AbortSignal }): Promise<T> {
        // Counted once written: counted when sent, the test's read of the Lease could overtake the
        // renewal under load and find the create's renewTime (seen in full-suite runs).
        const written = await super.update<T>(r, obj, sub, o);
        if (r.plural === 'leases') puts.push(Date.now());
        return written;
      }
    })(adminConnection(plat));
    const stop = new AbortController();
    let leadingAt = 0;
    // A retry period far longer than the test waits: a renewal that waited for it first never comes.
    const elector = new LeaderElector({ client: counting, namespace: 'plat-system', name: 'election-first-renewal', identity: 'cm-f', leaseDurationMs: 120_000, renewDeadlineMs: 90_000, retryPeriodMs: 60_000 });
    const done = elector.run({ onStartedLeading: () => { leadingAt = Date.now(); } }, stop.signal);
    try {
      await eventually(() => leadingAt > 0, 'f leads');
      await eventually(() => puts.length >= 1, 'the first renewal, right after acquiring', 50, 100);
      const lease = await plat.admin.get(`${LEASES}/election-first-renewal`);
      assert.equal(lease.json.spec.holderIdentity, 'cm-f');
      assert.notEqual(lease.json.spec.renewTime, lease.json.spec.acquireTime, 'renewed after the create');
      // ...and none more until a retry period has passed.
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(puts.length, 1);
    } finally {
      stop.abort();
      await done;
      counting.close();
    }
  });

  it('a standby waits the retry period jittered by up to 1.2 of it, as wait.JitterUntil', () => {
    assert.equal(standbyWaitMs(2000, 0), 2000);
    assert.equal(standbyWaitMs(2000, 0.5), 3200);
    assert.equal(standbyWaitMs(2000, 1), 4400);
  });

  it('a Lease that cannot be created is logged as such, not as a failed read', async () => {
    const lines: string[] = [];
    const logger = createLogger({ write: (l) => lines.push(l) });
    const stop = new AbortController();
    const elector = new LeaderElector({ client, namespace: 'no-such-namespace', name: 'election-x', identity: 'cm-x', leaseDurationMs: 1000, renewDeadlineMs: 800, retryPeriodMs: 200, logger });
    const done = elector.run({ onStartedLeading: async () => {} }, stop.signal);
    try {
      await eventually(() => lines.some((l) => l.includes('error initially creating leader election record')), 'the failed create logged');
    } finally {
      stop.abort();
      await done;
    }
    // klog.Errorf's line in 1.32's tryAcquireOrRenew.
    const line = lines.find((l) => l.includes('error initially creating leader election record'))!;
    assert.match(line, /^E.*error initially creating leader election record: namespaces "no-such-namespace" not found$/);
    assert.ok(!lines.some((l) => l.includes('error retrieving resource lock')), lines.join('\n'));
  });

  it('an API server that refuses the connection is logged in client-go\'s words (Go\'s url.Error), not Node\'s', async () => {
    const lines: string[] = [];
    const logger = createLogger({ write: (l) => lines.push(l) });
    // Port 1: nothing listens there (a port freePort gave back might be taken by a test beside this one).
    const nowhere = new RestClient({ ...adminConnection(plat), server: new URL('https://127.0.0.1:1') });
    const stop = new AbortController();
    const elector = new LeaderElector({ client: nowhere, namespace: 'plat-system', name: 'election-down', identity: 'cm-x', leaseDurationMs: 1000, renewDeadlineMs: 800, retryPeriodMs: 200, logger });
    const done = elector.run({ onStartedLeading: async () => {} }, stop.signal);
    try {
      await eventually(() => lines.some((l) => l.includes('error retrieving resource lock')), 'the failed read logged');
    } finally {
      stop.abort();
      await done;
      nowhere.close();
    }
    // 1.32's tryAcquireOrRenew: klog.Errorf("error retrieving resource lock %v: %v", ...), the error
    // being the GET's url.Error (this client has no timeout, so no ?timeout= in the URL).
    const line = lines.find((l) => l.includes('error retrieving resource lock'))!;
    assert.match(line, /^E.*\] error retrieving resource lock plat-system\/election-down: Get "https:\/\/127\.0\.0\.1:1\/apis\/coordination\.platform\/v1\/namespaces\/plat-system\/leases\/election-down": dial tcp 127\.0\.0\.1:1: connect: connection refused$/);
  });

  it('reports leader_election_master_status (0 until leading, 1 while leading, 0 after) and each slow-path renewal', async () => {
    const registry = new MetricsRegistry('1.32');
    const series = (family: string) => registry.expose().split('\n').find((l) => l.startsWith(`${family}{name="election-metrics"} `))?.split(' ')[1];
    const stop = new AbortController();
    const elector = new LeaderElector({ client, namespace: 'plat-system', name: 'election-metrics', identity: 'cm-m', leaseDurationMs: 1000, renewDeadlineMs: 800, retryPeriodMs: 200, metrics: leaderElectionMetrics(registry) });
    assert.equal(series('leader_election_master_status'), '0');
    let leading = false;
    const done = elector.run({ onStartedLeading: async (signal) => { leading = true; await new Promise<void>((r) => signal.addEventListener('abort', () => r(), { once: true })); } }, stop.signal);
    await eventually(() => leading, 'it leads');
    assert.equal(series('leader_election_master_status'), '1');
    assert.equal(series('leader_election_slowpath_total'), undefined, 'optimistic renewals take no slow path');
    // Another writer touches the Lease: the optimistic PUT of our last copy conflicts, the next renewal reads first.
    // The elector renews every 200 ms: one may land between this GET and PUT (409), so read again.
    let touched;
    for (let attempt = 0; attempt < 20; attempt++) {
      const lease = (await plat.admin.get(`${LEASES}/election-metrics`)).json;
      touched = await plat.admin.put(`${LEASES}/election-metrics`, { ...lease, metadata: { ...lease.metadata, annotations: { touched: 'yes' } } });
      if (touched.status !== 409) break;
    }
    assert.equal(touched!.status, 200, touched!.text);
    await eventually(() => series('leader_election_slowpath_total') === '1', 'a slow-path renewal');
    assert.equal(series('leader_election_master_status'), '1');
    stop.abort();
    await done;
    assert.equal(series('leader_election_master_status'), '0');
  });

  it('times the lease on a monotonic clock: a step of the wall clock neither hands a live Lease over nor keeps a dead one', async () => {
    // As Go's time.Now, whose monotonic reading observedTime.Add(d).After(now) compares.
    let wall = Date.now();
    let mono = 1_000_000;
    const renewTime = new Date(wall).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
    const held = await plat.admin.post(LEASES, { apiVersion: 'coordination.platform/v1', kind: 'Lease', metadata: { name: 'election-clock' },
      spec: { holderIdentity: 'cm-live', leaseDurationSeconds: 60, acquireTime: renewTime, renewTime, leaseTransitions: 0 } });
    assert.equal(held.status, 201, held.text);
    const standby = new LeaderElector({ client, namespace: 'plat-system', name: 'election-clock', identity: 'cm-standby',
      leaseDurationMs: 60_000, renewDeadlineMs: 40_000, retryPeriodMs: 2000, now: () => wall, monotonicNow: () => mono });
    assert.equal(await standby.tryAcquireOrRenew(), false, 'held by cm-live');
    // The wall clock steps an hour ahead (NTP, an operator) a moment later: the Lease is not stale.
    wall += 3600_000;
    mono += 1000;
    assert.equal(await standby.tryAcquireOrRenew(), false, 'a wall-clock step does not expire the Lease');
    assert.equal((await plat.admin.get(`${LEASES}/election-clock`)).json.spec.holderIdentity, 'cm-live');
    // Then two hours back, while a whole lease duration passes without a renewal: it is stale.
    wall -= 2 * 3600_000;
    mono += 60_000;
    assert.equal(await standby.tryAcquireOrRenew(), true, 'a lease duration without a renewal expires the Lease, whatever the wall clock says');
    const taken = (await plat.admin.get(`${LEASES}/election-clock`)).json.spec;
    assert.equal(taken.holderIdentity, 'cm-standby');
    assert.equal(taken.leaseTransitions, 1);
    // What it writes is the wall clock's time.
    assert.equal(taken.renewTime, new Date(wall).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z'));
    // The health check measures on the same clock: a leader whose wall clock jumps is still healthy.
    wall += 3600_000;
    assert.equal(standby.check(20_000), undefined);
    mono += 60_000 + 20_001;
    assert.equal(standby.check(20_000), 'failed election to renew leadership on lease election-clock');
  });

  it('rejects inconsistent timings', () => {
    assert.throws(() => new LeaderElector({ client, namespace: 'x', name: 'y', leaseDurationMs: 1000, renewDeadlineMs: 1000, retryPeriodMs: 100 }), /leaseDuration must be greater than renewDeadline/);
    assert.throws(() => new LeaderElector({ client, namespace: 'x', name: 'y', leaseDurationMs: 1000, renewDeadlineMs: 200, retryPeriodMs: 200 }), /renewDeadline must be greater than retryPeriod\*JitterFactor/);
  });

  it('Lease validation as upstream', async () => {
    let r = await plat.admin.post(LEASES, { apiVersion: 'coordination.platform/v1', kind: 'Lease', metadata: { name: 'bad' }, spec: { leaseDurationSeconds: 0, leaseTransitions: -1 } });
    assert.equal(r.status, 422, r.text);
    assert.equal(r.json.message, 'Lease.coordination.platform "bad" is invalid: [spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0, spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0]');
    r = await plat.admin.get(LEASES, { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    assert.deepEqual(r.json.columnDefinitions.map((c: { name: string }) => c.name), ['Name', 'Holder', 'Age']);
  });
});
