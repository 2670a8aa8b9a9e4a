// The worker loop: one key per worker by default; with `batch`, a worker that finds many keys
// waiting syncs up to that many together, each key still retried and finished on its own.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ItemExponentialFailureRateLimiter } from '../../core/controller/rate-limiters.js';
import { IgnorableError, runWorkers } from '../../core/controller/workers.js';
import { WorkQueue } from '../../core/controller/workqueue.js';
import { createLogger, silentLogger as quiet } from '../../core/log.js';

interface Run { readonly peak: number; readonly synced: Map<string, number> }

async function run(keys: string[], o: { workers: number; batch?: number; failOnce?: string }): Promise<Run> {
  const queue = new WorkQueue<string>(new ItemExponentialFailureRateLimiter<string>(1, 10));
  for (const k of keys) queue.add(k);
  const synced = new Map<string, number>();
  let inFlight = 0;
  let peak = 0;
  let failed = false;
  const ac = new AbortController();
  const done = runWorkers({
    name: 'test', queue, workers: o.workers, ...(o.batch ? { batch: o.batch } : {}), logger: quiet,
    async sync(key) {
      inFlight++; peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
      if (key === o.failOnce && !failed) { failed = true; throw new Error('first try fails'); }
      synced.set(key, (synced.get(key) ?? 0) + 1);
      if (synced.size === keys.length) ac.abort();
    },
  }, ac.signal);
  const guard = setTimeout(() => ac.abort(), 5000);
  await done;
  clearTimeout(guard);
  return { peak, synced };
}

const keys = Array.from({ length: 40 }, (_, i) => `k${i}`);

describe('runWorkers', () => {
  it('without batch, at most one key per worker is in flight', async () => {
    const r = await run(keys, { workers: 5 });
    assert.equal(r.peak, 5);
    assert.equal(r.synced.size, 40);
  });

  it('with batch, a worker syncs up to that many waiting keys together; each key once', async () => {
    const r = await run(keys, { workers: 2, batch: 16 });
    assert.equal(r.peak, 32);
    assert.deepEqual([...r.synced.values()].filter((n) => n !== 1), []);
    assert.equal(r.synced.size, 40);
  });

  it('a key of a batch that fails is retried on its own; the others are not synced again', async () => {
    const r = await run(keys, { workers: 2, batch: 16, failOnce: 'k3' });
    assert.equal(r.synced.size, 40);
    assert.deepEqual([...r.synced.values()].filter((n) => n !== 1), []);
  });

  it('a sync cut short by the stop is no failure: logged at V(4), not as an error', async () => {
    const queue = new WorkQueue<string>(new ItemExponentialFailureRateLimiter<string>(1, 10));
    const lines: string[] = [];
    const ac = new AbortController();
    let started: () => void = () => {};
    const inSync = new Promise<void>((r) => { started = r; });
    queue.add('k');
    const done = runWorkers({
      name: 'test', queue, workers: 1, logger: createLogger({ verbosity: 4, write: (l) => lines.push(l) }),
      // As a request on the stop's signal: it fails when the signal aborts.
      sync: () => new Promise((_, reject) => { started(); ac.signal.addEventListener('abort', () => reject(new Error('This operation was aborted')), { once: true }); }),
    }, ac.signal);
    await inSync;
    ac.abort();
    await done;
    assert.deepEqual(lines.filter((l) => l.startsWith('E')), []);
    assert.match(lines.join('\n'), /^I.* sync k abandoned: the controller is stopping controller="test" err="This operation was aborted"$/m);
  });
  it('a sync the leadership fence refuses is not started, logged as abandoned (not as a failure), and retried once it opens', async () => {
    const queue = new WorkQueue<string>(new ItemExponentialFailureRateLimiter<string>(1, 10));
    const lines: string[] = [];
    const ac = new AbortController();
    let reason: string | undefined = 'the lease was last renewed 10s ago, not within the renew deadline (10s)';
    const synced: string[] = [];
    queue.add('k');
    const done = runWorkers({
      name: 'test', queue, workers: 1, logger: createLogger({ verbosity: 4, write: (l) => lines.push(l) }),
      fence: { refusal: () => reason },
      sync: async (key) => { synced.push(key); ac.abort(); },
    }, ac.signal);
    for (let i = 0; i < 100 && !lines.some((l) => l.includes('abandoned')); i++) await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(synced, [], 'no sync started while refused');
    assert.match(lines.join('\n'), /^I.* sync k abandoned: not started: the lease was last renewed 10s ago, not within the renew deadline \(10s\) controller="test"$/m);
    reason = undefined;
    const guard = setTimeout(() => ac.abort(), 5000);
    await done;
    clearTimeout(guard);
    assert.deepEqual(synced, ['k'], 'retried once open');
    assert.deepEqual(lines.filter((l) => l.startsWith('E')), []);
  });

  it('a write cut short by the stop after it had gone out is not called abandoned: it may have landed', async () => {
    const queue = new WorkQueue<string>(new ItemExponentialFailureRateLimiter<string>(1, 10));
    const lines: string[] = [];
    const ac = new AbortController();
    queue.add('k');
    const done = runWorkers({
      name: 'test', queue, workers: 1, logger: createLogger({ verbosity: 4, write: (l) => lines.push(l) }),
      // As the REST client's error for a request aborted while its answer was awaited.
      sync: async () => { ac.abort(); throw Object.assign(new Error('This operation was aborted'), { requestSent: true }); },
    }, ac.signal);
    await done;
    assert.doesNotMatch(lines.join('\n'), /abandoned/);
    assert.match(lines.join('\n'), /^I.* sync k cut short: the controller is stopping; a write it had sent may have landed controller="test" err="This operation was aborted"$/m);
  });
  // certificate_controller.go processNextWorkItem: HandleError("Sync %v failed with : %v") for an
  // error, V(4) "Sync certificate request failed" csr= err= for an ignorableError.
  for (const [kind, thrown, level, line] of [
    ['an error', new Error('boom'), 'E', /^E.* Unhandled Error err="Sync k failed with : boom" controller="test"$/m],
    ['an ignorable error', new IgnorableError('not yet'), 'I', /^I.* Sync certificate request failed csr="k" err="not yet" controller="test"$/m],
  ] as const) {
    it(`a failed sync of ${kind} is logged with upstream's text`, async () => {
      const queue = new WorkQueue<string>(new ItemExponentialFailureRateLimiter<string>(1, 10));
      const lines: string[] = [];
      const ac = new AbortController();
      let failed: () => void = () => {};
      const once = new Promise<void>((r) => { failed = r; });
      queue.add('k');
      let calls = 0;
      const done = runWorkers({
        name: 'test', queue, workers: 1, logger: createLogger({ verbosity: 4, write: (l) => lines.push(l) }),
        sync: async () => { if (calls++ === 0) { failed(); throw thrown; } },
      }, ac.signal);
      await once;
      await new Promise((r) => setTimeout(r, 20));
      ac.abort();
      await done;
      assert.match(lines.join('\n'), line);
      assert.equal(lines.filter((l) => l.startsWith(level) && l.includes('k')).length, 1);
    });
  }
});
