// The work queue's guarantees and the rate limiters' delays.
import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import { BucketRateLimiter, ItemExponentialFailureRateLimiter, MaxOfRateLimiter } from '../../core/controller/rate-limiters.js';
import { WorkQueue } from '../../core/controller/workqueue.js';
import { TokenBucket } from '../../core/client/token-bucket.js';

const noDelay = () => new ItemExponentialFailureRateLimiter<string>(0, 0);

describe('WorkQueue', () => {
  it('hands items out in order and deduplicates waiting items', async () => {
    const q = new WorkQueue<string>(noDelay());
    q.add('a'); q.add('b'); q.add('a');
    assert.equal(q.length, 2);
    assert.equal(await q.get(), 'a');
    assert.equal(await q.get(), 'b');
  });

  it('an item added while processing is processed again after done(), never twice at once', async () => {
    const q = new WorkQueue<string>(noDelay());
    q.add('a');
    const first = await q.get();
    q.add('a');
    assert.equal(q.length, 0, 'not handed to a second worker while the first holds it');
    q.done(first!);
    assert.equal(q.length, 1);
    assert.equal(await q.get(), 'a');
  });

  it('a waiting worker gets an item added later; shutDown releases waiters and waits for in-flight items', async () => {
    const q = new WorkQueue<string>(noDelay());
    const waiting = q.get();
    q.add('x');
    assert.equal(await waiting, 'x');
    const idle = q.get();
    let drained = false;
    const down = q.shutDown().then(() => { drained = true; });
    assert.equal(await idle, undefined);
    await new Promise((r) => setImmediate(r));
    assert.equal(drained, false, 'x is still being processed');
    q.done('x');
    await down;
    assert.equal(drained, true);
    q.add('y');
    assert.equal(await q.get(), undefined, 'nothing is handed out after shutdown');
  });

  it('shutDown: an item added again while in flight is still handed out after done(), as client-go\'s Done; every shutDown() caller is released', async () => {
    const q = new WorkQueue<string>(noDelay());
    q.add('a');
    const held = await q.get();
    q.add('a');
    const first = q.shutDown();
    const second = q.shutDown();
    q.done(held!);
    assert.equal(await q.get(), 'a', 'added before the shutdown: not dropped');
    q.done('a');
    assert.equal(await q.get(), undefined);
    await Promise.all([first, second]);
  });

  it('getBatch takes every waiting item up to the limit, each held until its own done()', async () => {
    const q = new WorkQueue<string>(noDelay());
    for (const k of ['a', 'b', 'c', 'd']) q.add(k);
    assert.deepEqual(await q.getBatch(3), ['a', 'b', 'c']);
    assert.deepEqual(await q.getBatch(3), ['d']);
    q.add('b');
    assert.equal(q.length, 0, 'b is held by the first batch');
    q.done('b');
    assert.deepEqual(await q.getBatch(3), ['b'], 'b again, after its done()');
    const waiting = q.getBatch(3);
    q.add('e');
    assert.deepEqual(await waiting, ['e'], 'an empty queue hands out the next item to arrive');
    const idle = q.getBatch(3);
    const down = q.shutDown();
    assert.equal(await idle, undefined);
    for (const k of ['a', 'b', 'c', 'd', 'e']) q.done(k);
    await down;
  });

  it('addRateLimited delays by the limiter; forget resets the backoff', async () => {
    const q = new WorkQueue<string>(new ItemExponentialFailureRateLimiter(5, 1000));
    q.addRateLimited('a');
    assert.equal(q.length, 0);
    assert.equal(await q.get(), 'a');
    assert.equal(q.numRequeues('a'), 1);
    q.forget('a');
    assert.equal(q.numRequeues('a'), 0);
  });

  it('an item waits for one delayed add, the earliest asked for (client-go\'s delaying queue)', async () => {
    mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    try {
      const q = new WorkQueue<string>(noDelay());
      const handedOut: string[] = [];
      const take = async () => { while (q.length) { const k = (await q.get())!; handedOut.push(k); q.done(k); } };
      // A retry in 100 ms, then another failure's retry in 300 ms: one add, at 100 ms.
      q.addAfter('x', 100); q.addAfter('x', 300);
      // The other way round: the earlier time wins.
      q.addAfter('y', 300); q.addAfter('y', 100);
      mock.timers.tick(99);
      assert.equal(q.length, 0);
      mock.timers.tick(1);
      await take();
      assert.deepEqual(handedOut, ['x', 'y']);
      mock.timers.tick(1000);
      await take();
      assert.deepEqual(handedOut, ['x', 'y'], 'no second chain of retries');
      // Once added, an item may be delayed again.
      q.addAfter('x', 50);
      mock.timers.tick(50);
      await take();
      assert.deepEqual(handedOut, ['x', 'y', 'x']);
      await q.shutDown();
    } finally {
      mock.timers.reset();
    }
  });

  // A bootstrap token re-queued for its expiry months away: one Node timer holds about 24.8 days, and
  // a longer delay given to it fires after 1 ms, so the token cleaner would spin on the token.
  it('a delay longer than one Node timer holds waits it out', async () => {
    const DAYS_60 = 60 * 86_400_000;
    const real = new WorkQueue<string>(noDelay());
    real.addAfter('x', DAYS_60);
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(real.length, 0, 'not added at once');
    await real.shutDown();
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      const q = new WorkQueue<string>(noDelay(), { monotonicNow: () => 0 });
      q.addAfter('x', DAYS_60);
      // A day at a time: the mock runs no timer armed within one tick, and the next step is armed
      // at the end of the tick that ran the first, so the add may come a day late here.
      for (let day = 0; day < 59; day++) mock.timers.tick(86_400_000);
      assert.equal(q.length, 0);
      for (let day = 0; day < 2; day++) mock.timers.tick(86_400_000);
      assert.equal(q.length, 1);
      await q.shutDown();
    } finally {
      mock.timers.reset();
    }
  });

  // The earlier of two delayed adds was chosen on the wall clock: stepped back an hour (NTP, an
  // operator) between a retry in 1 s and one in 5 s, the 5 s one looked an hour earlier and
  // replaced it. Upstream's delaying queue compares clock.Now()'s monotonic readings.
  it('a step of the wall clock between two delayed adds does not change which is earlier', () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    let wall = Date.parse('2026-01-01T12:00:00Z');
    const now = mock.method(Date, 'now', () => wall);
    try {
      const q = new WorkQueue<string>(noDelay());
      q.addAfter('x', 1000);
      wall -= 3_600_000;
      q.addAfter('x', 5000);
      mock.timers.tick(1000);
      assert.equal(q.length, 1, 'added at 1 s, the earlier of the two');
      void q.shutDown();
    } finally {
      now.mock.restore();
      mock.timers.reset();
    }
  });
});

describe('rate limiters', () => {
  it('per-item exponential: base * 2^n up to the cap, per item', () => {
    const l = new ItemExponentialFailureRateLimiter<string>(200, 1000_000);
    assert.deepEqual([l.when('a'), l.when('a'), l.when('a'), l.when('b')], [200, 400, 800, 200]);
    for (let i = 0; i < 40; i++) l.when('a');
    assert.equal(l.when('a'), 1000_000);
  });

  it('bucket: burst free, then 1/qps apart (clock injected)', () => {
    let t = 0;
    const l = new BucketRateLimiter<string>(10, 2, () => t);
    assert.equal(l.when(), 0);
    assert.equal(l.when(), 0);
    assert.equal(Math.round(l.when()), 100);
    t = 1000;
    assert.equal(l.when(), 0);
  });

  it('max-of takes the longer delay', () => {
    let t = 0;
    const l = new MaxOfRateLimiter<string>(new ItemExponentialFailureRateLimiter(200, 1000_000), new BucketRateLimiter(10, 1, () => t));
    assert.equal(l.when('a'), 200);
    assert.equal(Math.round(l.when('b')), 200, 'bucket says 100, item says 200');
  });

  it('token bucket wait() serves waiters in order at the rate', async () => {
    let t = 0;
    const b = new TokenBucket(1000, 1, () => t);
    await b.wait();
    t += 5;
    await b.wait();
    assert.throws(() => new TokenBucket(0, 1), RangeError);
  });
});
