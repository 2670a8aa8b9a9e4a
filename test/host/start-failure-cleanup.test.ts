// A start or ready tap that fails ends start-up; what the taps before it started (the store, the
// API server's listener) is shut down first, as when a SIGTERM stops start-up. A process exits
// anyway, but one that boots in process (a test, a bench, an embedder) kept the store open and the
// port bound: booting again on the same data dir was refused as "already open in this process".
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { boot } from '../../core/boot.js';
import { silentLogger } from '../../core/log.js';
import type { Host } from '../../core/host.js';
import type { Plugin } from '../../core/plugin.js';
import { profiles } from '../../host/profiles.js';
import { connectError, freePort, tempDir } from '../helpers/plat.js';

const failing = (hook: 'start' | 'ready', seen: { host?: Host }): Plugin => ({
  name: `Failing${hook}`,
  apply(host) {
    seen.host = host;
    // Last of the start taps, once the store and the listener are up.
    if (hook === 'start') host.hooks.start.tapPromise({ name: 'FailingStart', stage: 1e9 }, async () => { throw new Error('the HSM is not there'); });
    else host.hooks.ready.tapPromise('FailingReady', async () => { throw new Error('the HSM is not there'); });
  },
});

for (const hook of ['start', 'ready'] as const) {
  it(`a failed ${hook} tap: the store and the listener that started are shut down`, async () => {
    const dataDir = tempDir();
    const port = await freePort();
    const run = (plugins: readonly Plugin[]) => boot({
      profile: { ...profiles['all']!, plugins: [...profiles['all']!.plugins, ...plugins], prepare: profiles['all']!.prepare! },
      argv: ['--data-dir', dataDir, '--secure-port', String(port)], cwd: dataDir, logger: silentLogger, version: '0.0.0-test',
    });
    const seen: { host?: Host } = {};
    await assert.rejects(run([failing(hook, seen)]), /the HSM is not there/);
    const listening = await connectError(port) === undefined;
    // Left open, it would keep this file's process alive: close it, then fail.
    if (listening) await seen.host?.hooks.shutdown.promise();
    assert.equal(listening, false, 'the listener is closed');
    const { host } = await run([]);
    await host.hooks.shutdown.promise();
  });
}
