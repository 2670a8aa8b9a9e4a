// A named work queue reports client-go's workqueue metrics into its registry: adds and depth as
// client-go counts them (an item added again while waiting is not counted; one added while it is
// processed is, and waits for done), a latency observation per get, a work duration per done, a
// retry per delayed add; queues of one name share their series, an unnamed queue reports nothing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WorkQueue } from '../../core/controller/workqueue.js';
import { MetricsRegistry } from '../../core/metrics/registry.js';
import type { RateLimiter } from '../../core/controller/rate-limiters.js';

const noDelay: RateLimiter<string> = { when: () => 0, forget: () => {}, numRequeues: () => 0 };

function sample(r: MetricsRegistry, line: string): number | undefined {
  const found = r.expose().split('\n').find((l) => l.startsWith(`${line} `));
  return found === undefined ? undefined : Number(found.slice(line.length + 1));
}

describe('work queue metrics', () => {
  it('counts adds, depth, gets, dones and retries as client-go does', async () => {
    const r = new MetricsRegistry('1.32');
    const q = new WorkQueue<string>(noDelay, { name: 'certificate', metrics: r });
    const m = (family: string) => sample(r, `${family}{name="certificate"}`);
    assert.equal(m('workqueue_adds_total'), 0, 'a named queue has its series from the start');
    q.add('a');
    q.add('a');
    q.add('b');
    assert.equal(m('workqueue_adds_total'), 2);
    assert.equal(m('workqueue_depth'), 2);
    const a = await q.get();
    assert.equal(a, 'a');
    assert.equal(m('workqueue_depth'), 1);
    assert.equal(m('workqueue_queue_duration_seconds_count'), 1);
    q.add('a'); // while processing: counted, waits for done
    assert.equal(m('workqueue_adds_total'), 3);
    assert.equal(m('workqueue_depth'), 2);
    assert.ok(m('workqueue_longest_running_processor_seconds')! >= 0);
    q.done('a');
    assert.equal(m('workqueue_work_duration_seconds_count'), 1);
    assert.equal(m('workqueue_adds_total'), 3, 'requeued after done without a second add');
    q.addRateLimited('c');
    assert.equal(m('workqueue_retries_total'), 1);
    assert.match(r.expose(), /^# HELP workqueue_adds_total \[ALPHA\] Total number of adds handled by workqueue$/m);
    assert.match(r.expose(), /^workqueue_queue_duration_seconds_bucket\{name="certificate",le="9\.999999999999999e-06"\} \d+$/m);
    await q.shutDown();
  });

  it('hands an item straight to a waiting worker as a get', async () => {
    const r = new MetricsRegistry('1.32');
    const q = new WorkQueue<string>(noDelay, { name: 'certificate', metrics: r });
    const waiting = q.get();
    q.add('x');
    assert.equal(await waiting, 'x');
    assert.equal(sample(r, 'workqueue_depth{name="certificate"}'), 0);
    assert.equal(sample(r, 'workqueue_queue_duration_seconds_count{name="certificate"}'), 1);
    q.done('x');
    await q.shutDown();
  });

  it('shares the series of queues with one name; reports nothing for an unnamed queue', async () => {
    const r = new MetricsRegistry('1.32');
    const one = new WorkQueue<string>(noDelay, { name: 'certificate', metrics: r });
    const two = new WorkQueue<string>(noDelay, { name: 'certificate', metrics: r });
    const unnamed = new WorkQueue<string>(noDelay, { metrics: r });
    one.add('a');
    two.add('a');
    unnamed.add('a');
    assert.equal(sample(r, 'workqueue_adds_total{name="certificate"}'), 2);
    assert.doesNotMatch(r.expose(), /name=""/);
    await Promise.all([one.shutDown(), two.shutDown(), unnamed.shutDown()]);
  });
});
