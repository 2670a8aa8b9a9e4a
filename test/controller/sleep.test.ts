// core/sleep.ts: the abortable wait every retry loop uses (informers, leader election, certificate
// waits and rotation, the cleaner, webhook and review retries). A loop sleeping many times on one
// long-lived signal must not collect abort listeners: it did in the certificate wait, and a node
// agent waiting out an unreachable API server for more than ten seconds logged a
// MaxListenersExceededWarning.
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { describe, it } from 'node:test';
import { sleep, sleepUnlessAborted } from '../../core/sleep.js';

describe('sleep', () => {
  it('resolves after the time, and leaves no listener on the signal', async () => {
    const stop = new AbortController();
    for (let i = 0; i < 20; i++) await sleep(1, stop.signal);
    assert.equal(getEventListeners(stop.signal, 'abort').length, 0);
  });

  it('resolves as soon as the signal aborts, or at once when it already has', async () => {
    const stop = new AbortController();
    const started = Date.now();
    const waiting = sleep(60_000, stop.signal);
    stop.abort();
    await waiting;
    await sleep(60_000, stop.signal);
    assert.ok(Date.now() - started < 5_000);
    assert.equal(getEventListeners(stop.signal, 'abort').length, 0);
  });

  it('sleepUnlessAborted rejects with the reason, and leaves no listener when it resolves', async () => {
    const stop = new AbortController();
    for (let i = 0; i < 20; i++) await sleepUnlessAborted(1, stop.signal);
    assert.equal(getEventListeners(stop.signal, 'abort').length, 0);
    const waiting = sleepUnlessAborted(60_000, stop.signal);
    stop.abort(new Error('stopped'));
    await assert.rejects(waiting, /stopped/);
    await assert.rejects(sleepUnlessAborted(1, stop.signal), /stopped/);
  });
});
