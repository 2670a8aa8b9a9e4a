// The batch backend's throttle runs on the monotonic clock, as upstream's token-bucket rate
// limiter: a wall clock stepped back (NTP, an operator) must not hold batches and shutdown for the
// length of the step (a tester saw a 10-minute step stall the webhook and the exit for 10 minutes).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BufferedBackend } from '../../core/audit/buffered.js';
import type { AuditEvent } from '../../core/audit/event.js';
import { silentLogger } from '../../core/log.js';

test('a wall clock stepped back does not stall the throttled batches', async () => {
  const batches: AuditEvent[][] = [];
  const backend = new BufferedBackend({ processEvents: (events) => { batches.push([...events]); return true; } },
    { bufferSize: 100, maxBatchSize: 1, maxBatchWait: 10, throttleEnable: true, throttleQPS: 20, throttleBurst: 1 }, silentLogger);
  const event = (id: string) => ({ auditID: id }) as unknown as AuditEvent;
  const realNow = Date.now;
  try {
    backend.processEvents([event('before')]);
    for (let i = 0; i < 100 && batches.length < 1; i++) await new Promise((r) => setTimeout(r, 20));
    Date.now = () => realNow() - 10 * 60_000;
    backend.processEvents([event('after-1'), event('after-2')]);
    // 20 batches a second: both are out within ~100 ms; the wall-clock bucket slept ~10 minutes.
    for (let i = 0; i < 250 && batches.length < 3; i++) await new Promise((r) => setTimeout(r, 20));
  } finally {
    Date.now = realNow;
  }
  assert.deepEqual(batches.map((b) => b.map((e) => e.auditID)), [['before'], ['after-1'], ['after-2']]);
  await backend.shutdown();
});
