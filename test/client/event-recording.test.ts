// client-go's event recording (core/client/events): the correlator's dedup (a PATCH of count and
// lastTimestamp), aggregation of similar Events, the spam filter's bucket (25, one more every
// 5 minutes), recordToSink's retries (transport failures only, 12 tries, the first wait jittered),
// and a broadcaster that drops past its queue and never blocks or throws.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CoreEvent } from '../../core/api/event.js';
import { ApiError } from '../../core/client/rest-client.js';
import { EventBroadcaster, referenceOf } from '../../core/client/events/event-broadcaster.js';
import { EventCorrelator, eventName } from '../../core/client/events/event-correlator.js';
import type { EventSink } from '../../core/client/events/event-sink.js';
import { MAX_TRIES_PER_EVENT, recordToSink } from '../../core/client/events/record-to-sink.js';
import { FencedWriteError } from '../../core/client/write-fence.js';
import { createLogger, silentLogger } from '../../core/log.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const NODE = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1', uid: 'u1', resourceVersion: '7' } };

const ev = (message: string, over: Partial<CoreEvent> = {}): CoreEvent => ({
  metadata: { name: `n1.${message}`, namespace: 'default' }, involvedObject: { kind: 'Node', name: 'n1', uid: 'u1' },
  reason: 'R', message, type: 'Normal', source: { component: 'c', host: 'h' }, count: 1,
  firstTimestamp: '2026-01-01T00:00:00Z', lastTimestamp: '2026-01-01T00:00:00Z', ...over,
});

/** A sink that answers as the server would (resourceVersion, the Event back) and remembers the calls. */
function fakeSink(fail?: (call: number) => Error | undefined) {
  const calls: { op: 'create' | 'patch'; event: CoreEvent; patch?: Record<string, unknown> }[] = [];
  let n = 0;
  const answer = (e: CoreEvent): CoreEvent => ({ ...e, metadata: { ...e.metadata, resourceVersion: String(++n) } });
  const sink: EventSink = {
    create: async (event) => { calls.push({ op: 'create', event }); const err = fail?.(calls.length); if (err) throw err; return answer(event); },
    patch: async (event, patch) => { calls.push({ op: 'patch', event, patch }); const err = fail?.(calls.length); if (err) throw err; return answer({ ...event, count: patch['count'] as number }); },
  };
  return { sink, calls };
}

describe('event correlator', () => {
  it('an Event seen again is a patch of count, lastTimestamp and message on the first one\'s name', () => {
    const c = new EventCorrelator({ now: () => T0 });
    const first = c.correlate(ev('m'));
    assert.equal(first.patch, undefined);
    c.updateState({ ...first.event!, metadata: { ...first.event!.metadata, resourceVersion: '5' } });
    const again = c.correlate(ev('m', { metadata: { name: 'n1.other', namespace: 'default' }, lastTimestamp: '2026-01-01T00:01:00Z', firstTimestamp: '2026-01-01T00:01:00Z' }));
    assert.deepEqual(again.patch, { count: 2, lastTimestamp: '2026-01-01T00:01:00Z', message: 'm' });
    assert.deepEqual([again.event!.metadata.name, again.event!.metadata.resourceVersion, again.event!.firstTimestamp, again.event!.count], ['n1.m', '5', '2026-01-01T00:00:00Z', 2]);
  });

  it('the tenth similar Event (messages differ) becomes one combined Event, seen again after', () => {
    const c = new EventCorrelator({ now: () => T0 });
    for (let i = 0; i < 9; i++) assert.equal(c.correlate(ev(`m${i}`)).event!.message, `m${i}`);
    const tenth = c.correlate(ev('m9')).event!;
    assert.equal(tenth.message, '(combined from similar events): m9');
    assert.match(tenth.metadata.name!, /^n1\.[0-9a-f]+$/);
    c.updateState(tenth);
    const eleventh = c.correlate(ev('m10'));
    assert.equal(eleventh.event!.message, '(combined from similar events): m10');
    assert.equal(eleventh.event!.metadata.name, tenth.metadata.name, 'the combined Event is patched, not created again');
    assert.deepEqual(eleventh.patch, { count: 2, lastTimestamp: '2026-01-01T00:00:00Z', message: '(combined from similar events): m10' });
  });

  it('similar Events more than 10 minutes apart start over', () => {
    let now = T0;
    const c = new EventCorrelator({ now: () => now });
    for (let i = 0; i < 9; i++) c.correlate(ev(`m${i}`));
    now += 601_000;
    assert.equal(c.correlate(ev('late')).event!.message, 'late');
  });

  it('the spam filter lets 25 Events of a source and object through, then one every 5 minutes', () => {
    let now = T0;
    const c = new EventCorrelator({ now: () => now, aggregateMaxEvents: 1000 });
    const passed = () => Array.from({ length: 30 }, (_, i) => c.correlate(ev(`s${now}-${i}`))).filter((r) => !r.skip).length;
    assert.equal(passed(), 25);
    now += 299_000;
    assert.equal(passed(), 0);
    now += 1_000;
    assert.equal(passed(), 1);
    // Another object has its own bucket.
    assert.equal(c.correlate(ev('x', { involvedObject: { kind: 'Node', name: 'n2', uid: 'u2' } })).skip, false);
  });

  it('names Events as upstream: the object name and the time in nanoseconds as hex, never twice', () => {
    const ms = 4_000_000_000_123;
    const ns = BigInt(ms) * 1_000_000n;
    assert.equal(eventName('n1', ms), `n1.${ns.toString(16)}`);
    assert.equal(eventName('n1', ms), `n1.${(ns + 1n).toString(16)}`, 'the same millisecond again: a nanosecond on');
  });
});

describe('recordToSink', () => {
  const sleeps: number[] = [];
  const opts = { logger: silentLogger, sleep: async (ms: number) => { sleeps.push(ms); }, random: () => 0.5, sleepMs: 10_000 };

  it('creates, then patches the same Event', async () => {
    const { sink, calls } = fakeSink();
    const c = new EventCorrelator({ now: () => T0 });
    await recordToSink(sink, ev('m'), c, opts);
    await recordToSink(sink, ev('m', { lastTimestamp: '2026-01-01T00:02:00Z' }), c, opts);
    assert.deepEqual(calls.map((x) => x.op), ['create', 'patch']);
    assert.deepEqual(calls[1]!.patch, { count: 2, lastTimestamp: '2026-01-01T00:02:00Z', message: 'm' });
    assert.equal(calls[1]!.event.metadata.name, 'n1.m');
  });

  it('a patch that finds the Event gone creates it again, without a resourceVersion', async () => {
    const { sink, calls } = fakeSink((n) => (n === 2 ? new ApiError(404, 'NotFound', 'events "n1.m" not found') : undefined));
    const c = new EventCorrelator({ now: () => T0 });
    await recordToSink(sink, ev('m'), c, opts);
    await recordToSink(sink, ev('m'), c, opts);
    assert.deepEqual(calls.map((x) => x.op), ['create', 'patch', 'create']);
    assert.equal(calls[2]!.event.metadata.resourceVersion, undefined);
    assert.equal(calls[2]!.event.count, 2);
  });

  it('an answer from the server is final; a transport failure is tried 12 times, the first wait jittered', async () => {
    const refused = fakeSink(() => new ApiError(403, 'Forbidden', 'events is forbidden'));
    await recordToSink(refused.sink, ev('m'), new EventCorrelator(), opts);
    assert.equal(refused.calls.length, 1);
    sleeps.length = 0;
    const down = fakeSink(() => new Error('connect ECONNREFUSED'));
    await recordToSink(down.sink, ev('m'), new EventCorrelator(), opts);
    assert.equal(down.calls.length, MAX_TRIES_PER_EVENT);
    assert.deepEqual(sleeps, [5_000, ...Array(MAX_TRIES_PER_EVENT - 2).fill(10_000)]);
    // A write the leadership fence held back is the old term's: not tried again.
    const fenced = fakeSink(() => new FencedWriteError('POST', 'https://x/api/v1/namespaces/default/events', 'not leading'));
    await recordToSink(fenced.sink, ev('m'), new EventCorrelator(), opts);
    assert.equal(fenced.calls.length, 1);
    const flaky = fakeSink((n) => (n < 3 ? new Error('socket hang up') : undefined));
    await recordToSink(flaky.sink, ev('m'), new EventCorrelator(), opts);
    assert.equal(flaky.calls.length, 3);
  });
});

describe('event broadcaster and recorder', () => {
  it('makes upstream\'s Event of an object and writes it to the sink', async () => {
    const { sink, calls } = fakeSink();
    const b = new EventBroadcaster({ now: () => T0 });
    b.startRecordingToSink(sink);
    b.newRecorder({ component: 'node-controller' }).event(NODE, 'Normal', 'RegisteredNode', 'Node n1 event: Registered Node n1 in Controller');
    for (let i = 0; i < 100 && calls.length === 0; i++) await new Promise((r) => setImmediate(r));
    b.shutdown();
    const { name, ...meta } = calls[0]!.event.metadata;
    assert.match(name!, /^n1\.[0-9a-f]+$/);
    assert.deepEqual({ ...calls[0]!.event, metadata: meta }, {
      metadata: { namespace: 'default' },
      involvedObject: { kind: 'Node', name: 'n1', uid: 'u1', apiVersion: 'v1', resourceVersion: '7' },
      reason: 'RegisteredNode', message: 'Node n1 event: Registered Node n1 in Controller',
      firstTimestamp: '2026-01-01T00:00:00Z', lastTimestamp: '2026-01-01T00:00:00Z', count: 1, type: 'Normal',
      source: { component: 'node-controller' }, reportingComponent: 'node-controller', reportingInstance: '',
    });
  });

  it('never blocks nor throws: a full queue drops, a failing sink is only logged, a bad type is refused', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => { release = r; });
    const created: CoreEvent[] = [];
    const slow: EventSink = { create: async (e) => { await gate; created.push(e); return e; }, patch: async (e) => e };
    const lines: string[] = [];
    const logger = { ...silentLogger, error: (msg: string) => { lines.push(msg); } };
    const b = new EventBroadcaster({ now: () => T0, queueLength: 3, logger, aggregateMaxEvents: 1000 });
    b.startRecordingToSink(slow);
    const r = b.newRecorder({ component: 'c', host: 'h' });
    for (let i = 0; i < 10; i++) r.event({ kind: 'Node', name: `n${i}` }, 'Normal', 'R', `m${i}`);
    r.event({ kind: 'Node', name: 'x' }, 'Odd', 'R', 'm');
    // The first is taken off the queue once the writer starts; the queue holds three more.
    await new Promise((r) => setImmediate(r));
    release();
    for (let i = 0; i < 100 && created.length < 4; i++) await new Promise((r) => setImmediate(r));
    b.shutdown();
    assert.ok(created.length <= 4, `${created.length} written`);
    assert.ok(lines.filter((l) => l.startsWith('Unable to record event: too many queued events')).length >= 6);
    assert.ok(lines.includes('Unsupported event type'));
    const failing = new EventBroadcaster({ logger });
    failing.startRecordingToSink({ create: () => { throw new Error('boom'); }, patch: () => { throw new Error('boom'); } });
    assert.doesNotThrow(() => failing.newRecorder({ component: 'c' }).event(NODE, 'Warning', 'R', 'm'));
    failing.shutdown();
  });

  it('logs each Event as it is recorded: `Event occurred` at the verbosity asked', () => {
    const lines: string[] = [];
    const b = new EventBroadcaster({ now: () => T0 });
    b.startStructuredLogging(0, createLogger({ write: (l) => lines.push(l) }));
    b.startStructuredLogging(3, createLogger({ write: (l) => lines.push(`quiet ${l}`) }));
    b.newRecorder({ component: 'c' }).event({ kind: 'Lease', namespace: 'plat-system', name: 'l', apiVersion: 'coordination.platform/v1' }, 'Normal', 'LeaderElection', 'me became leader');
    assert.equal(lines.length, 1);
    assert.match(lines[0]!, /\] Event occurred object="plat-system\/l" fieldPath="" kind="Lease" apiVersion="coordination.platform\/v1" type="Normal" reason="LeaderElection" message="me became leader"$/);
  });

  it('takes a reference as it is', () => {
    assert.deepEqual(referenceOf({ kind: 'Lease', namespace: 'ns', name: 'l', apiVersion: 'coordination.platform/v1' }), { kind: 'Lease', namespace: 'ns', name: 'l', apiVersion: 'coordination.platform/v1' });
  });
});
