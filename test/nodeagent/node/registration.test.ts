// The node subsystem against a real `plat all` (Node,RBAC + NodeRestriction), authenticated as the
// node with a client certificate from the plat's CA; time is a clock the test moves, the host's
// network and machine are described by the test. Registration, restart, status reports, refusals.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { RestClient, type ApiError, type RequestOptions } from '../../../core/client/rest-client.js';
import { createLogger } from '../../../core/log.js';
import type { NodeAgentConfiguration } from '../../../core/nodeagent/configuration.js';
import type { Node } from '../../../core/nodes/node-object.js';
import { goArch, goOs } from '../../../plugins/nodeagent-node/machine.js';
import { nodeSubsystem, type NodeSubsystem } from '../../../plugins/nodeagent-node/index.js';
import { initialNode } from '../../../plugins/nodeagent-node/initial-node.js';
import { startScriptedServer, json, status } from '../../client/scripted-server.js';
import { nodeAgentTestContext } from '../../helpers/nodeagent-context.js';
import { startInProcess, type RunningPlat } from '../../helpers/plat.js';
import { advanceUntil, eventually, fakeMachine, fakeNetwork, ManualClock, nodeClient, nodeFlags, settled } from './support.js';

const NODES = '/api/v1/nodes';
const LEASES = '/apis/coordination.platform/v1/namespaces/plat-node-lease/leases';

/** A node client that counts its status patches, to see when the subsystem reported. */
class CountingClient extends RestClient {
  statusPatches = 0;
  override request<T = unknown>(method: string, path: string, o?: RequestOptions): Promise<T> {
    if (method === 'PATCH' && path.endsWith('/status')) this.statusPatches++;
    return super.request<T>(method, path, o);
  }
}

interface Running {
  readonly sub: NodeSubsystem;
  readonly clock: ManualClock;
  readonly client: CountingClient;
  readonly logs: string[];
  stop(): Promise<void>;
}

describe('the node subsystem against a real plat', () => {
  let plat: RunningPlat;
  const running: Running[] = [];
  before(async () => {
    plat = await startInProcess({ args: ['--authorization-mode=Node,RBAC', '--enable-admission-plugins=NodeRestriction'] });
  });
  after(async () => {
    for (const r of running) await r.stop();
    await plat?.stop();
  });

  function start(name: string, o: { args?: string[]; config?: Partial<NodeAgentConfiguration>; clock?: ManualClock; machine?: () => ReturnType<typeof fakeMachine>; identity?: string; standalone?: boolean; gitVersion?: string } = {}): Running {
    const clock = o.clock ?? new ManualClock();
    const logs: string[] = [];
    const ctx = nodeAgentTestContext({
      nodeName: name, flags: nodeFlags(o.args ?? ['--node-ip=192.0.2.20']), config: o.config ?? {}, standalone: o.standalone ?? false,
      logger: createLogger({ verbosity: 4, write: (l) => logs.push(l) }),
    });
    const base = nodeClient(plat, o.identity ?? name);
    const client = new CountingClient(base.connection);
    base.close();
    if (!o.standalone) ctx.api.set(client);
    const sub = nodeSubsystem(ctx, { version: '0.1.0', gitVersion: o.gitVersion, clock, random: () => 0, network: fakeNetwork(), machine: async () => (o.machine ?? fakeMachine)() });
    const ac = new AbortController();
    const done = sub.run(ac.signal);
    const r: Running = { sub, clock, client, logs, stop: async () => { ac.abort(); await done; client.close(); } };
    running.push(r);
    (r as { ctx?: unknown }).ctx = ctx;
    return r;
  }
  const ctxOf = (r: Running) => (r as unknown as { ctx: ReturnType<typeof nodeAgentTestContext> }).ctx;
  const getNode = async (name: string): Promise<Node | undefined> => {
    const r = await plat.admin.get(`${NODES}/${name}`);
    return r.status === 200 ? r.json as Node : undefined;
  };
  const registered = (r: Running) => () => r.sub.sync.registered && r.client.statusPatches > 0;

  it('registers the Node: default labels and --node-labels, taints, provider ID, addresses, conditions, capacity, node info', async () => {
    const r = start('worker-1', {
      args: ['--node-ip=192.0.2.20', '--node-labels=nodeagent.platform/pool=blue,example.com/team=a'],
      config: { registerWithTaints: [{ key: 'dedicated', value: 'edge', effect: 'NoSchedule' }], providerID: 'plat://worker-1' },
    });
    await advanceUntil(r.clock, registered(r), 'registration', 2);
    const node = (await getNode('worker-1'))!;
    const os = goOs(process.platform);
    const arch = goArch(process.arch);
    assert.deepEqual(node.metadata.labels, {
      'platform/hostname': 'worker-1', 'platform/os': os, 'platform/arch': arch, 'beta.platform/os': os, 'beta.platform/arch': arch,
      'nodeagent.platform/pool': 'blue', 'example.com/team': 'a',
    });
    assert.deepEqual(node.metadata.annotations, { 'volumes.platform/controller-managed-attach-detach': 'true' });
    assert.deepEqual(node.spec, { taints: [{ key: 'dedicated', value: 'edge', effect: 'NoSchedule' }], providerID: 'plat://worker-1' });
    const s = node.status!;
    assert.deepEqual(s.addresses, [{ type: 'InternalIP', address: '192.0.2.20' }, { type: 'Hostname', address: 'worker-1' }]);
    assert.deepEqual(s.conditions?.map((c) => [c.type, c.status, c.reason, c.message]), [
      ['MemoryPressure', 'False', 'NodeAgentHasSufficientMemory', 'nodeagent has sufficient memory available'],
      ['DiskPressure', 'False', 'NodeAgentHasNoDiskPressure', 'nodeagent has no disk pressure'],
      ['PIDPressure', 'False', 'NodeAgentHasSufficientPID', 'nodeagent has sufficient PID available'],
      ['Ready', 'True', 'NodeAgentReady', 'nodeagent is posting ready status'],
    ]);
    const at = new Date(r.clock.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
    for (const c of s.conditions!) assert.deepEqual([c.lastHeartbeatTime, c.lastTransitionTime], [at, at]);
    assert.deepEqual(s.capacity, { cpu: '4', memory: '8Gi', pods: '110', 'ephemeral-storage': '100Gi' });
    // The agent sends 96636764000 (BinarySI's form); the server decodes it as DecimalSI and stores that canonical form.
    assert.deepEqual(s.allocatable, { cpu: '4', memory: '8092Mi', pods: '110', 'ephemeral-storage': '96636764k' });
    assert.deepEqual(s.nodeInfo, {
      machineID: 'machine-1', systemUUID: 'uuid-1', bootID: 'boot-1', kernelVersion: '6.1.0-test', osImage: 'Debian GNU/Linux 12 (bookworm)',
      containerRuntimeVersion: '', kubeletVersion: 'v1.32.0+plat.0.1.0', kubeProxyVersion: '', operatingSystem: 'linux', architecture: 'amd64',
    });
    assert.deepEqual(s.daemonEndpoints, { kubeletEndpoint: { Port: 10250 } });
    assert.deepEqual(ctxOf(r).addresses.get(), s.addresses);
    assert.ok(r.logs.some((l) => l.includes('Successfully registered node')), r.logs.join('\n'));
  });

  it('reports status only when it changed or nodeStatusReportFrequency has passed', async () => {
    let memory = 8n * 1024n ** 3n;
    const r = start('worker-2', { machine: () => fakeMachine({ memoryCapacity: memory }) });
    await advanceUntil(r.clock, registered(r), 'registration', 2);
    const first = (await getNode('worker-2'))!;
    const patches = r.client.statusPatches;
    // A minute of status syncs (every 10s) with nothing new: no report.
    const end = r.clock.now() + 60_000;
    await advanceUntil(r.clock, () => r.clock.now() >= end, 'a quiet minute', 2);
    assert.equal(r.client.statusPatches, patches);
    assert.equal((await getNode('worker-2'))!.metadata.resourceVersion, first.metadata.resourceVersion);
    // A change is reported at the next sync.
    memory = 16n * 1024n ** 3n;
    await advanceUntil(r.clock, () => r.client.statusPatches > patches, 'the change reported', 2);
    assert.equal((await getNode('worker-2'))!.status?.capacity?.['memory'], '16Gi');
    // Five minutes after the last report, a report without changes: new heartbeats, same transitions.
    const reported = r.client.statusPatches;
    const before = (await getNode('worker-2'))!;
    await advanceUntil(r.clock, () => r.client.statusPatches > reported, 'the periodic report', 2);
    const after = (await getNode('worker-2'))!;
    const ready = (n: Node) => n.status!.conditions!.find((c) => c.type === 'Ready')!;
    assert.ok(Date.parse(ready(after).lastHeartbeatTime!) - Date.parse(ready(before).lastHeartbeatTime!) >= 300_000);
    assert.equal(ready(after).lastTransitionTime, ready(before).lastTransitionTime);
  });

  it('puts back platform/os and platform/arch at the next status sync, not only when a report is due', async () => {
    const r = start('worker-10');
    await advanceUntil(r.clock, registered(r), 'registration', 2);
    const edited = await plat.admin.patch(`${NODES}/worker-10`, { metadata: { labels: { 'platform/os': null, 'platform/arch': 'plan9', team: 'x' } } }, 'application/merge-patch+json');
    assert.equal(edited.status, 200, edited.text);
    // Status syncs every 10 s, reports without a change every 5 min: a few syncs must do.
    const restored = async () => {
      const labels = (await getNode('worker-10'))!.metadata.labels ?? {};
      return labels['platform/os'] === goOs(process.platform) && labels['platform/arch'] === goArch(process.arch);
    };
    await advanceUntil(r.clock, restored, 'the required labels put back', 2, 4);
    assert.equal((await getNode('worker-10'))!.metadata.labels?.['team'], 'x');
  });

  it('reports the GitVersion --version=vX.Y.Z... asked for as the agent\'s version (version.Get() is the dynamic one)', async () => {
    const r = start('worker-11', { gitVersion: 'v1.32.0-rc.1' });
    await advanceUntil(r.clock, registered(r), 'registration', 2);
    assert.equal((await getNode('worker-11'))!.status?.nodeInfo?.kubeletVersion, 'v1.32.0-rc.1');
  });

  it('a restart reconciles the existing Node instead of duplicating it', async () => {
    const r1 = start('worker-3', { config: { registerWithTaints: [{ key: 'first', effect: 'NoSchedule' }] } });
    await advanceUntil(r1.clock, registered(r1), 'registration', 2);
    await r1.stop();
    const original = (await getNode('worker-3'))!;
    // An administrator changed a label the agent owns, and one it does not.
    const edited = await plat.admin.patch(`${NODES}/worker-3`, { metadata: { labels: { 'platform/os': 'plan9', team: 'x' }, annotations: null } }, 'application/merge-patch+json');
    assert.equal(edited.status, 200, edited.text);

    const r2 = start('worker-3', { config: { registerWithTaints: [{ key: 'second', effect: 'NoExecute' }] } });
    await advanceUntil(r2.clock, registered(r2), 're-registration', 2);
    const node = (await getNode('worker-3'))!;
    assert.equal(node.metadata.uid, original.metadata.uid);
    assert.equal(node.metadata.labels?.['platform/os'], goOs(process.platform));
    assert.equal(node.metadata.labels?.['team'], 'x');
    assert.equal(node.metadata.annotations?.['volumes.platform/controller-managed-attach-detach'], 'true');
    // Taints are only for the initial registration.
    assert.deepEqual(node.spec?.taints, [{ key: 'first', effect: 'NoSchedule' }]);
    const all = await plat.admin.get(`${NODES}?fieldSelector=metadata.name%3Dworker-3`);
    assert.equal(all.json.items.length, 1);
    assert.ok(r2.logs.some((l) => l.includes('Node was previously registered')), r2.logs.join('\n'));
  });

  it('refuses a forbidden --node-labels key and a bad --node-ip at start-up, before touching the API', () => {
    const ctx = nodeAgentTestContext({ nodeName: 'worker-x', flags: nodeFlags(['--node-labels=node-role.platform/master=']) });
    assert.throws(() => nodeSubsystem(ctx, { version: '0.1.0' }), (e: Error) => e.message.startsWith(
      "failed to validate nodeagent flags: unknown 'platform' labels specified with --node-labels: [node-role.platform/master]\n--node-labels in the 'platform' namespace must begin with an allowed prefix (node.platform, nodeagent.platform)"));
    const ctx2 = nodeAgentTestContext({ nodeName: 'worker-x', flags: nodeFlags(['--node-ip=10.0.0.1,10.0.0.2']) });
    assert.throws(() => nodeSubsystem(ctx2, { version: '0.1.0' }), { message: 'bad --node-ip "10.0.0.1,10.0.0.2": must contain either a single IP or a dual-stack pair of IPs' });
  });

  it('another node cannot write this Node or its Lease, and a node cannot register under another name', async () => {
    const r = start('worker-4');
    await advanceUntil(r.clock, async () => registered(r)() && (await plat.admin.get(`${LEASES}/worker-4`)).status === 200, 'node and lease', 2);
    const other = nodeClient(plat, 'worker-5');
    try {
      const lease = await plat.admin.get(`${LEASES}/worker-4`);
      await assert.rejects(other.update({ group: 'coordination.platform', version: 'v1', plural: 'leases', namespace: 'plat-node-lease' }, lease.json),
        (e: ApiError) => e.code === 403 && e.message.startsWith('leases.coordination.platform "worker-4" is forbidden: User "system:node:worker-5" cannot update resource "leases"'));
      await assert.rejects(other.patch({ group: '', version: 'v1', plural: 'nodes' }, 'worker-4', { status: { phase: 'x' } }, 'application/merge-patch+json', 'status'),
        (e: ApiError) => e.code === 403 && e.message === 'nodes "worker-4" is forbidden: node "worker-5" is not allowed to modify node "worker-4"');
    } finally {
      other.close();
    }
    // worker-5's credentials with the name worker-6: refused, retried with backoff, never created.
    const impostor = start('worker-6', { identity: 'worker-5' });
    await advanceUntil(impostor.clock, () => impostor.logs.filter((l) => l.includes('Unable to register node with API server')).length >= 3, 'three refused attempts', 2);
    assert.ok(impostor.logs.some((l) => l.includes('node \\"worker-5\\" is not allowed to modify node \\"worker-6\\"') || l.includes('node "worker-5" is not allowed to modify node "worker-6"')), impostor.logs.join('\n'));
    assert.equal(await getNode('worker-6'), undefined);
    await impostor.stop();
  });

  it('with registerNode false: no Node is created, and the status is reported once an administrator creates it', async () => {
    const r = start('worker-7', { config: { registerNode: false } });
    await settled(r.clock, 2, 'both loops asleep');
    assert.equal(await getNode('worker-7'), undefined);
    assert.ok(r.logs.some((l) => l.includes('error getting node \\"worker-7\\"') || l.includes('error getting node "worker-7"')), r.logs.join('\n'));
    assert.equal((await plat.admin.post(NODES, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'worker-7' } })).status, 201);
    await advanceUntil(r.clock, () => r.client.statusPatches > 0, 'first report', 2);
    assert.equal((await getNode('worker-7'))!.status?.conditions?.find((c) => c.type === 'Ready')?.status, 'True');
  });

  it('in standalone mode publishes its addresses and calls no API', async () => {
    const r = start('worker-8', { standalone: true, args: ['--node-ip=fd00::20'] });
    const ctx = ctxOf(r);
    await ctx.addresses.wait();
    assert.deepEqual(ctx.addresses.get(), [{ type: 'InternalIP', address: 'fd00::20' }, { type: 'Hostname', address: 'worker-8' }]);
    assert.equal(r.client.statusPatches, 0);
    assert.equal(r.clock.sleeping, 0);
    assert.equal(await getNode('worker-8'), undefined);
  });
});

describe('stopping the node subsystem', () => {
  // The client's own timeout is an hour: if the stop signal did not reach the request in flight,
  // the run would not end and the test would fail on its timeout.
  it('aborts a request in flight to a server that does not answer, and logs no failure for it', { timeout: 30_000 }, async () => {
    let connections = 0;
    const server = net.createServer((s) => { connections++; s.on('error', () => {}); });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as import('node:net').AddressInfo).port;
    const client = new RestClient({ server: new URL(`https://127.0.0.1:${port}`) }, { timeoutMs: 3_600_000 });
    try {
      const logs: string[] = [];
      const clock = new ManualClock();
      const ctx = nodeAgentTestContext({ nodeName: 'silent-1', flags: nodeFlags(['--node-ip=192.0.2.20']), logger: createLogger({ verbosity: 4, write: (l) => logs.push(l) }) });
      ctx.api.set(client);
      const sub = nodeSubsystem(ctx, { version: '0.1.0', clock, random: () => 0, network: fakeNetwork(), machine: async () => fakeMachine() });
      const ac = new AbortController();
      const done = sub.run(ac.signal);
      // The lease loop's first read hangs; the status loop sleeps before registering.
      await eventually(() => (connections > 0 && clock.sleeping >= 1 ? true : undefined), 'a hanging request');
      ac.abort();
      await done;
      assert.ok(!logs.some((l) => l.startsWith('E')), logs.join('\n'));
    } finally {
      client.close();
      server.close();
    }
  });
});

/** The node subsystem without registration, heartbeats every second on a manual clock, its log lines into `logs`. */
function runHeartbeats(nodeName: string, nodeIp: string, client: RestClient, logs: string[], signal: AbortSignal): Promise<void> {
  const ctx = nodeAgentTestContext({
    nodeName, flags: nodeFlags([`--node-ip=${nodeIp}`]), config: { nodeStatusUpdateFrequency: '1s', registerNode: false },
    logger: createLogger({ verbosity: 4, write: (l) => logs.push(l) }),
  });
  ctx.api.set(client);
  return nodeSubsystem(ctx, { version: '0.1.0', clock: new ManualClock(), random: () => 0, network: fakeNetwork(), machine: async () => fakeMachine() }).run(signal);
}

describe('the heartbeat client', () => {
  // A server that reads each request's first line and never answers. The REST client's own rate
  // limit lets one request through in a thousand seconds and it has no timeout: only the heartbeat
  // calls' own (nodeStatusUpdateFrequency, 1 s here) and their not waiting for the limiter make
  // both loops fail, naming the deadline, while the server is silent.
  it('sends the status and Lease requests unthrottled with ?timeout=, and gives up on a silent server after that timeout', { timeout: 30_000 }, async () => {
    const requestLines = new Set<string>();
    const server = net.createServer((s) => {
      s.on('error', () => {});
      s.once('data', (d) => { requestLines.add(d.toString('latin1').split('\r\n')[0]!); });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as import('node:net').AddressInfo).port;
    const client = new RestClient({ server: new URL(`http://127.0.0.1:${port}`) }, { qps: 0.001, burst: 1 });
    const logs: string[] = [];
    const ac = new AbortController();
    let done: Promise<void> | undefined;
    try {
      done = runHeartbeats('hb-1', '192.0.2.20', client, logs, ac.signal);
      await eventually(() => (logs.some((l) => /Error updating node status, will retry .*error getting node .*hb-1.*: context deadline exceeded/.test(l))
        && logs.some((l) => /Failed to ensure lease exists, will retry .*context deadline exceeded/.test(l)) ? true : undefined), `both heartbeats to fail:\n${logs.join('\n')}`);
      assert.ok(requestLines.has('GET /api/v1/nodes/hb-1?timeout=1s HTTP/1.1'), [...requestLines].join('\n'));
      assert.ok(requestLines.has('GET /apis/coordination.platform/v1/namespaces/plat-node-lease/leases/hb-1?timeout=1s HTTP/1.1'), [...requestLines].join('\n'));
    } finally {
      ac.abort();
      await done;
      client.close();
      server.close();
    }
  });
});

describe('the heartbeat loops\' log lines', () => {
  // Upstream logs client-go's error (url.Error: `Get "<url>": dial tcp ...: connect: connection
  // refused`) and the retry interval as a Go duration, as klog prints them.
  it('say a refused connection and the retry interval in client-go\'s and Go\'s words', { timeout: 30_000 }, async () => {
    const closed = net.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const port = (closed.address() as import('node:net').AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const client = new RestClient({ server: new URL(`http://127.0.0.1:${port}`) }, { qps: 0 });
    const logs: string[] = [];
    const ac = new AbortController();
    let done: Promise<void> | undefined;
    try {
      done = runHeartbeats('hb-2', '192.0.2.21', client, logs, ac.signal);
      const refused = `dial tcp 127.0.0.1:${port}: connect: connection refused`;
      const lease = `Get \\"http://127.0.0.1:${port}/apis/coordination.platform/v1/namespaces/plat-node-lease/leases/hb-2?timeout=1s\\": ${refused}`;
      const node = `error getting node \\"hb-2\\": Get \\"http://127.0.0.1:${port}/api/v1/nodes/hb-2?timeout=1s\\": ${refused}`;
      await eventually(() => (logs.some((l) => l.includes(`Failed to ensure lease exists, will retry interval="200ms" err="${lease}"`))
        && logs.some((l) => l.includes(`Error updating node status, will retry err="${node}"`)) ? true : undefined), `both heartbeats to fail:\n${logs.join('\n')}`);
    } finally {
      ac.abort();
      await done;
      client.close();
    }
  });
});

describe('reconciling an existing Node', () => {
  it('logs upstream\'s words when the reconciling patch fails, and reports the registration as not done', async () => {
    const server = await startScriptedServer();
    const client = new RestClient({ server: server.url });
    try {
      const logs: string[] = [];
      const ctx = nodeAgentTestContext({ nodeName: 'rec-1', flags: nodeFlags(['--node-ip=192.0.2.20']), logger: createLogger({ write: (l) => logs.push(l) }) });
      ctx.api.set(client);
      const sub = nodeSubsystem(ctx, { version: '0.1.0', clock: new ManualClock(), random: () => 0, network: fakeNetwork(), machine: async () => fakeMachine() });
      const existing: Node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'rec-1', labels: { 'platform/os': 'plan9' } } };
      server.script(status(409, 'AlreadyExists', 'nodes "rec-1" already exists'), json(200, existing), status(500, 'InternalError', 'storage is down'));
      const registered = await sub.sync.tryRegisterWithApiServer(await initialNode(sub.inputs), new AbortController().signal);
      assert.equal(registered, false);
      assert.deepEqual(server.seen.map((x) => x.method), ['POST', 'GET', 'PATCH']);
      const line = logs.find((l) => l.includes('Unable to reconcile node'));
      assert.match(line ?? '', /^E.* Unable to reconcile node with API server,error updating node node="rec-1" err=".*storage is down"$/, logs.join('\n'));
      assert.ok(logs.some((l) => l.includes('Controller attach-detach setting changed to true; updating existing Node')), logs.join('\n'));
    } finally {
      client.close();
      await server.close();
    }
  });
});
