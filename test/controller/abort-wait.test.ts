// core/abort-wait.ts: waiting on an AbortSignal. Sleeps (every retry loop: informers, leader
// election, certificate waits and rotation, the cleaner, webhook and review retries) must leave no
// listener behind: the certificate wait did, and a node agent waiting out an unreachable API server
// for more than ten seconds logged a MaxListenersExceededWarning. Waiting for the end shares one
// listener per signal: a controller manager with a few signers passed ten on its leading signal.
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { describe, it } from 'node:test';
import { sleep, sleepUnlessAborted, whenAborted } from '../../core/abort-wait.js';

describe("waiting on an AbortSignal", () => {
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

  it('whenAborted: any number of waiters share one listener, and all resolve when the signal aborts', async () => {
    const stop = new AbortController();
    const waiting = Array.from({ length: 20 }, () => whenAborted(stop.signal));
    assert.equal(getEventListeners(stop.signal, 'abort').length, 1);
    let done = 0;
    for (const w of waiting) void w.then(() => { done++; });
    await sleep(5);
    assert.equal(done, 0, 'nothing resolves before the abort');
    stop.abort();
    await Promise.all(waiting);
    assert.equal(done, 20);
    await whenAborted(stop.signal);
  });
});
