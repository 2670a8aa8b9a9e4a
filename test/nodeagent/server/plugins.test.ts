// The two plugins as the node-agent role loads them: each taps hooks.nodeAgent and registers its
// subsystem under the name the role runs it by, passing its plugin options to the subsystem.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { Host } from '../../../core/host.js';
import { MapRegistry, type SubsystemRegistry } from '../../../core/lifecycle.js';
import { silentLogger } from '../../../core/log.js';
import { NodeAgentServer } from '../../../plugins/nodeagent-server/index.js';
import { NodeAgentStaticPods } from '../../../plugins/nodeagent-static-pods/index.js';
import { nodeAgentTestContext } from '../../helpers/nodeagent-context.js';
import { tempDir } from '../../helpers/plat.js';
import { request, selfSignedPair, serverConfig, waitForPort } from './support.js';

describe('node-agent server and static-pods plugins', () => {
  it('register `server` and `static-pods` on hooks.nodeAgent; the server takes its options from the plugin', async () => {
    const host = new Host({ role: 'nodeagent', logger: silentLogger });
    const logs = tempDir('plat-nasrv-plugin-logs-');
    mkdirSync(path.join(logs, 'd'));
    writeFileSync(path.join(logs, 'd', 'x.log'), 'from the plugin options\n');
    NodeAgentServer.apply(host, { systemLogDir: logs });
    NodeAgentStaticPods.apply(host, undefined);
    const registry: SubsystemRegistry = new MapRegistry();
    host.hooks.nodeAgent.call(registry);
    assert.deepEqual([...registry.names()].sort(), ['server', 'static-pods']);

    const ctx = nodeAgentTestContext({ standalone: true, config: await serverConfig() });
    const pair = selfSignedPair();
    const stop = new AbortController();
    const runs = [registry.get('server')!(ctx).run(stop.signal), registry.get('static-pods')!(ctx).run(stop.signal)];
    try {
      ctx.servingPair.set(pair);
      await waitForPort(ctx.config.port, Promise.race(runs));
      assert.equal((await request(ctx.config.port, '/logs/d/x.log', { ca: pair.cert })).text, 'from the plugin options\n');
      assert.deepEqual(ctx.staticPods.get(), [], 'no sources: an empty set, published');
    } finally {
      stop.abort();
      await Promise.all(runs);
    }
  });
});
