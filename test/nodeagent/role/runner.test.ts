// The pieces of the role on their own: the node's name as upstream's nodeutil.GetHostname makes
// it, standalone mode from --platconfig, and the subsystem runner (per-subsystem loggers, a
// factory that throws, a run that returns early with or without a reason, a run that fails, a stop
// that times out naming who is still running).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MapRegistry } from '../../../core/lifecycle.js';
import { createLogger } from '../../../core/log.js';
import { createHooks } from '../../../core/hooks.js';
import { buildNodeAgentContext } from '../../../plugins/nodeagent/context.js';
import { nodeHostname, SubsystemRunner } from '../../../plugins/nodeagent/index.js';
import type { SubsystemFactory } from '../../../plugins/nodeagent/run-subsystems.js';
import { nodeAgentTestContext } from '../../helpers/nodeagent-context.js';
import { nodeAgentFlags, ok } from '../config/support.js';

describe('the node name', () => {
  it('is --hostname-override or the machine name, trimmed and lower-cased; empty is refused', () => {
    assert.equal(nodeHostname(' Node-A.Example.COM\n'), 'node-a.example.com');
    assert.equal(nodeHostname('', () => 'Build-Host'), 'build-host');
    assert.throws(() => nodeHostname('   '), /^Error: empty hostname is invalid$/);
    assert.throws(() => nodeHostname('', () => { throw new Error('EPERM'); }), /^Error: couldn't determine hostname: EPERM$/);
  });

  it('names the context; --platconfig decides standalone mode', () => {
    const flags = nodeAgentFlags();
    flags.parse(['--hostname-override=Worker-7']);
    const standalone = buildNodeAgentContext({ config: ok(), flags, logger: createLogger({ write: () => {} }), hooks: createHooks() });
    assert.equal(standalone.nodeName, 'worker-7');
    assert.equal(standalone.hostname, 'worker-7');
    assert.equal(standalone.standalone, true);
    const withApi = nodeAgentFlags();
    withApi.parse(['--platconfig=/etc/plat/nodeagent.conf']);
    assert.equal(buildNodeAgentContext({ config: ok(), flags: withApi, logger: createLogger({ write: () => {} }), hooks: createHooks(), machineHostname: () => 'm' }).standalone, false);
  });

  it('carries the feature gates in force: the configuration\'s over the defaults', () => {
    const flags = nodeAgentFlags();
    flags.parse(['--hostname-override=w']);
    const make = (config: ReturnType<typeof ok>) => buildNodeAgentContext({ config, flags, logger: createLogger({ write: () => {} }), hooks: createHooks() });
    assert.equal(make(ok()).gates.enabled('KubeletFineGrainedAuthz'), true);
    const off = make(ok({ file: { featureGates: { KubeletFineGrainedAuthz: false } } }));
    assert.equal(off.gates.enabled('KubeletFineGrainedAuthz'), false);
    assert.equal(off.gates.enabled('ContainerCheckpoint'), true, 'the others keep their defaults');
  });
});

function runner(factories: Record<string, SubsystemFactory>, o: { stopTimeoutMs?: number; disabled?: string[]; verbosity?: number } = {}) {
  const registry = new MapRegistry<SubsystemFactory>();
  for (const [name, f] of Object.entries(factories)) registry.register(name, f, { enabledByDefault: !o.disabled?.includes(name) });
  let logs = '';
  const failures: string[] = [];
  const logger = createLogger({ write: (l) => { logs += `${l}\n`; }, verbosity: o.verbosity ?? 0 });
  const r = new SubsystemRunner({
    registry, context: nodeAgentTestContext({ logger }), logger, stopTimeoutMs: o.stopTimeoutMs ?? 5_000,
    onFailure: (name, e) => failures.push(`${name}: ${(e as Error).message}`),
  });
  return { r, failures, logs: () => logs };
}

const untilAborted = (signal: AbortSignal) => new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));

describe('the subsystem runner', () => {
  it('gives each subsystem its own logger, skips disabled ones, and stops them all', async () => {
    const seen: string[] = [];
    const make = (name: string): SubsystemFactory => (ctx) => {
      ctx.logger.info('hello');
      return { async run(signal) { seen.push(`${name} run`); await untilAborted(signal); seen.push(`${name} stop`); } };
    };
    const { r, logs } = runner({ a: make('a'), b: make('b'), off: make('off') }, { disabled: ['off'] });
    r.build();
    assert.deepEqual(r.names, ['a', 'b']);
    assert.match(logs(), /plat\/a\] hello/);
    assert.match(logs(), /plat\/b\] hello/);
    r.start();
    await r.stop();
    assert.deepEqual(seen.sort(), ['a run', 'a stop', 'b run', 'b stop']);
    assert.deepEqual(r.running, []);
  });

  it('logs a run that returns early with a reason at V(2), one without a reason as unexpected', async () => {
    const { r, logs } = runner({ idle: () => ({ run: async () => 'no client identity: running standalone' }), gone: () => ({ run: async () => {} }) });
    r.build();
    r.start();
    await new Promise((res) => setImmediate(res));
    assert.doesNotMatch(logs(), /subsystem="idle"/);
    assert.match(logs(), /Subsystem returned before the node agent stopped subsystem="gone"/);
    await r.stop();
    const verbose = runner({ idle: () => ({ run: async () => 'no client identity: running standalone' }) }, { verbosity: 2 });
    verbose.r.build();
    verbose.r.start();
    await new Promise((res) => setImmediate(res));
    await verbose.r.stop();
    assert.match(verbose.logs(), /Subsystem has nothing more to do subsystem="idle" reason="no client identity: running standalone"/);
    assert.doesNotMatch(verbose.logs(), /returned before/);
  });

  it('reports the factory that throws', () => {
    const { r } = runner({ good: () => ({ run: async () => {} }), bad: () => { throw new Error('no config for me'); } });
    assert.throws(() => r.build(), /^Error: error initializing subsystem "bad": no config for me$/);
  });

  it('reports a run that fails while running, and one that fails while stopping', async () => {
    let fail!: (e: Error) => void;
    const { r, failures } = runner({
      flaky: () => ({ run: () => new Promise<void>((_, reject) => { fail = reject; }) }),
      messy: () => ({ async run(signal) { await untilAborted(signal); throw new Error('left a mess'); } }),
    });
    r.build();
    r.start();
    fail(new Error('connection lost'));
    await new Promise((res) => setImmediate(res));
    assert.deepEqual(failures, ['flaky: connection lost']);
    await assert.rejects(r.stop(), /^Error: subsystems failed while stopping: messy: left a mess$/);
  });

  it('gives up on a subsystem that does not stop, naming it', async () => {
    const { r } = runner({ stuck: () => ({ run: () => new Promise<void>(() => {}) }), polite: () => ({ run: untilAborted }) }, { stopTimeoutMs: 50 });
    r.build();
    r.start();
    await assert.rejects(r.stop(), /^Error: subsystems did not stop within 50ms: stuck$/);
  });
});

