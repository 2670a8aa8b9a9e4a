// A start tap that stops on the start signal by rethrowing the abort (the AbortError of
// `events.once(..., { signal })`) has nothing of its own to say: start-up stopped on the signal,
// and the message names the tap's plugin, as for a tap that never settles.
import assert from 'node:assert/strict';
import { EventEmitter, once } from 'node:events';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { it } from 'node:test';
import * as tapable from 'tapable';
import { boot } from '../../core/boot.js';
import type { StartContext } from '../../core/hooks.js';
import { silentLogger } from '../../core/log.js';
import { runStartWatched, StartAborted, trackPendingTaps } from '../../core/start-watch.js';
import { tempDir } from '../helpers/plat.js';

it('a start tap that rethrows the abort ends start-up as stopped, naming the tap', async () => {
  const hook = new tapable.AsyncSeriesHook<[StartContext]>(['context']);
  let entered!: () => void;
  const inTap = new Promise<void>((r) => { entered = r; });
  hook.tapPromise('Peer', async ({ signal }) => { entered(); await once(new EventEmitter(), 'peer', { signal }); });
  const stop = new AbortController();
  const context = { signal: stop.signal };
  const run = runStartWatched(hook, () => hook.promise(context), silentLogger, 60_000, stop.signal);
  await inTap;
  stop.abort('received SIGINT');
  await assert.rejects(run, (e: unknown) => e instanceof StartAborted
    && e.message === 'start-up stopped: received SIGINT while the start tap of plugin "Peer" had not settled');
});

it('a start tap that fails in its own words on the abort keeps them', async () => {
  const hook = new tapable.AsyncSeriesHook<[StartContext]>(['context']);
  hook.tapPromise('Peer', ({ signal }) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('peer never came')))));
  const stop = new AbortController();
  const run = runStartWatched(hook, () => hook.promise({ signal: stop.signal }), silentLogger, 60_000, stop.signal);
  setImmediate(() => stop.abort('received SIGTERM'));
  await assert.rejects(run, /^Error: peer never came$/);
});

// Messages named a start tap by its `name`, the author's free choice, not the plugin's: a tap
// `wait-for-peer` of plugin "MySigner" was "plugin \"wait-for-peer\"", found nowhere in the file.
it('names the plugin of a start tap that has a name of its own, and the tap', async () => {
  const dir = tempDir();
  writeFileSync(path.join(dir, '.platrc.yaml'), 'plugins: ["./peer.mjs"]\n');
  writeFileSync(path.join(dir, 'peer.mjs'), "export default { name: 'MySigner', apply(host) { host.hooks.start.tapPromise('wait-for-peer', () => { globalThis.peerEntered(); return new Promise(() => {}); }); } };\n");
  const entered = new Promise<void>((r) => { (globalThis as { peerEntered?: () => void }).peerEntered = r; });
  const stop = new AbortController();
  const booting = boot({ profile: { role: 'controller-manager', description: '', plugins: [] }, argv: [], cwd: dir, logger: silentLogger, version: '0.0.0-test', signal: stop.signal });
  await entered;
  stop.abort('received SIGTERM');
  await assert.rejects(booting, { message: 'start-up stopped: received SIGTERM while the start tap "wait-for-peer" of plugin "MySigner" had not settled' });
});

// The ready taps run side by side: the one named is one that has not settled, not the last called.
it('a ready tap that has not settled is the one named when start-up is stopped, whichever was called last', async () => {
  const hook = new tapable.AsyncParallelHook<[]>([]);
  trackPendingTaps(hook);
  hook.tapPromise('Hangs', () => new Promise(() => {}));
  hook.tapPromise('Settles', async () => {});
  hook.tap('SyncToo', () => {});
  const stop = new AbortController();
  const run = runStartWatched(hook, () => hook.promise(), silentLogger, 60_000, stop.signal, 'ready');
  setImmediate(() => stop.abort('received SIGTERM'));
  await assert.rejects(run, (e: unknown) => e instanceof StartAborted
    && e.message === 'start-up stopped: received SIGTERM while the ready tap of plugin "Hangs" had not settled');
});
