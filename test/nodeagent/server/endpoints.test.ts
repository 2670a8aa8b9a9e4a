// What the node agent's servers serve, path by path, with upstream's bodies: /healthz and its
// checks, /pods from the static-pods slot, /configz (Go's encoding of the versioned object), /debug/flags/v, /debug/pprof/ (V8 profiles),
// /runningpods/, the switches that turn the debugging endpoints off (405), unknown paths (404), the
// read-only port (no authentication, /healthz and /pods only) and the health port.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createLogger } from '../../../core/log.js';
import { createServerSubsystem } from '../../../plugins/nodeagent-server/index.js';
import { nodeAgentTestContext } from '../../helpers/nodeagent-context.js';
import { freePort } from '../../helpers/plat.js';
import { request, selfSignedPair, serverConfig, startServer, type RequestOptions, type RunningServer } from './support.js';

describe('node agent servers: endpoints', () => {
  const pair = selfSignedPair();
  const lines: string[] = [];
  let healthy = true;
  let agent: RunningServer;
  const get = (path: string, o: RequestOptions = {}) => request(agent.port, path, { ca: pair.cert, ...o });

  before(async () => {
    agent = await startServer({
      config: await serverConfig({
        readOnlyPort: await freePort(), healthzPort: await freePort(),
        staticPodURLHeader: { 'z-header': ['1'], 'b-header': ['2'], 'A-Header': ['x<y> & z'] },
        evictionHard: { 'nodefs.available': '10%', 'memory.available': '100Mi', 'imagefs.available': '15%' },
      }),
      logger: createLogger({ write: (l) => lines.push(l) }),
      setup: (ctx) => ctx.healthChecks.push({ name: 'node-lease', check: () => { if (!healthy) throw new Error('lease not renewed'); } }),
      pair,
    });
  });
  after(async () => { await agent?.stop(); });

  it('/healthz: ok, the checks by name, ?verbose, and 500 when a check fails', async () => {
    const headers = (r: { headers: Record<string, unknown> }) => [r.headers['content-type'], r.headers['x-content-type-options']];
    const root = await get('/healthz');
    assert.deepEqual([root.status, root.text, ...headers(root)], [200, 'ok', 'text/plain; charset=utf-8', 'nosniff']);
    assert.equal((await get('/healthz?verbose')).text, '[+]ping ok\n[+]node-lease ok\nhealthz check passed\n');
    // adaptCheckToHandler's bare fmt.Fprint: Go sniffs the type and sets no nosniff; http.Error (its failure) does.
    const one = await get('/healthz/node-lease');
    assert.deepEqual([one.text, ...headers(one)], ['ok', 'text/plain; charset=utf-8', undefined]);
    // Upstream's log and syncloop checks watch machinery plat has not: not faked.
    for (const p of ['/healthz/log', '/healthz/syncloop']) assert.equal((await get(p)).status, 404, p);
    healthy = false;
    agent.ctx.logger.setVerbosity?.(2);
    try {
      const r = await get('/healthz');
      assert.equal(r.status, 500);
      assert.equal(r.text, '[+]ping ok\n[-]node-lease failed: reason withheld\nhealthz check failed\n');
      assert.equal(r.headers['x-content-type-options'], 'nosniff');
      // The reason the body withholds is logged at V(2), as handleRootHealth's klog line.
      assert.equal(lines.filter((l) => l.endsWith('] node-lease check failed: healthz\n[-]node-lease failed: lease not renewed')).length, 1, lines.join('\n'));
      const failed = await get('/healthz/node-lease');
      assert.deepEqual([failed.status, failed.text, ...headers(failed)], [500, 'internal server error: lease not renewed\n', 'text/plain; charset=utf-8', 'nosniff']);
      assert.equal((await get('/healthz?exclude=node-lease')).status, 200);
      assert.ok(!lines.some((l) => l.includes('cannot exclude')), 'V(6)');
      agent.ctx.logger.setVerbosity?.(6);
      assert.equal((await get('/healthz?exclude=node-lease&exclude=nope&exclude=alpha')).status, 200);
      assert.ok(lines.some((l) => l.endsWith('] cannot exclude some health checks, no health checks are installed matching "alpha","nope"')), lines.join('\n'));
    } finally {
      healthy = true;
      agent.ctx.logger.setVerbosity?.(0);
    }
  });

  it('/pods: a v1 PodList of the static pods, items null when there are none (as upstream encodes it)', async () => {
    const empty = await get('/pods');
    assert.equal(empty.status, 200);
    assert.equal(empty.headers['content-type'], 'application/json');
    // encodePods' runtime.Encode: the JSON serializer's json.Encoder line, newline and HTML-safe escapes.
    assert.equal(empty.text, '{"kind":"PodList","apiVersion":"v1","metadata":{},"items":null}\n');
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-node-1', namespace: 'default', annotations: { note: 'a<b>&c\u2028' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } };
    agent.ctx.staticPods.set([pod]);
    const one = await get('/pods');
    assert.deepEqual(one.json.items, [pod]);
    assert.ok(one.text.endsWith('}]}\n') && one.text.includes('"note":"a\\u003cb\\u003e\\u0026c\\u2028"'), one.text);
    assert.equal((await get('/pods', { method: 'DELETE' })).status, 405);
    agent.ctx.staticPods.set([]);
  });

  it('/configz: the versioned configuration under "nodeagentconfig" as encoding/json writes it, plain application/json', async () => {
    const r = await get('/configz');
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-type'], 'application/json');
    assert.equal(r.headers['x-content-type-options'], 'nosniff');
    assert.deepEqual(Object.keys(r.json), ['nodeagentconfig']);
    const c = r.json.nodeagentconfig;
    // Struct order: TypeMeta stamped first (upstream's setConfigz), then the v1beta1 fields.
    assert.deepEqual(Object.keys(c).slice(0, 6), ['kind', 'apiVersion', 'enableServer', 'podLogsDir', 'syncFrequency', 'fileCheckFrequency']);
    assert.deepEqual([c.kind, c.apiVersion], ['NodeAgentConfiguration', 'nodeagent.config.platform/v1beta1']);
    const keys = Object.keys(c);
    assert.ok(keys.indexOf('address') < keys.indexOf('port') && keys.indexOf('port') < keys.indexOf('authentication') && keys.indexOf('authentication') < keys.indexOf('evictionHard'), keys.join(','));
    assert.equal(c.port, agent.port);
    // omitempty zero values are left out.
    for (const absent of ['staticPodPath', 'staticPodURL', 'tlsCertFile', 'tlsPrivateKeyFile', 'serverTLSBootstrap', 'clusterDomain', 'providerID']) assert.equal(absent in c, false, absent);
    // Map keys sorted, whatever order the configuration holds them in.
    assert.deepEqual(Object.keys(c.staticPodURLHeader), ['A-Header', 'b-header', 'z-header']);
    assert.deepEqual(Object.keys(c.evictionHard), ['imagefs.available', 'memory.available', 'nodefs.available']);
    assert.deepEqual(c.authorization, { mode: 'AlwaysAllow', webhook: { cacheAuthorizedTTL: '5m0s', cacheUnauthorizedTTL: '30s' } });
    assert.equal(c.imageGCHighThresholdPercent, 85, 'fields plat only validates are reported too');
    // Go's HTML-safe escaping of strings.
    assert.match(r.text, /"staticPodURLHeader":\{"A-Header":\["x\\u003cy\\u003e \\u0026 z"\]/);
  });

  it('/debug/flags/v: PUT sets the process-wide verbosity with klog\'s parsing and messages', async () => {
    const log = agent.ctx.logger.child('probe');
    log.v(4).info('hidden at v=0');
    const ok = await get('/debug/flags/v', { method: 'PUT', body: '4' });
    assert.deepEqual([ok.status, ok.text, ok.headers['content-type']], [200, 'successfully set klog.logging.verbosity to 4\n', 'text/plain']);
    log.v(4).info('shown at v=4');
    assert.ok(!lines.some((l) => l.includes('hidden at v=0')));
    assert.ok(lines.some((l) => l.includes('shown at v=4')));
    const bad = await get('/debug/flags/v', { method: 'PUT', body: 'four' });
    assert.deepEqual([bad.status, bad.text], [400, 'failed set klog.logging.verbosity four: strconv.ParseInt: parsing "four": invalid syntax\n']);
    const big = await get('/debug/flags/v', { method: 'PUT', body: '3000000000' });
    assert.equal(big.text, 'failed set klog.logging.verbosity 3000000000: strconv.ParseInt: parsing "3000000000": value out of range\n');
    assert.deepEqual(await get('/debug/flags/v').then((r) => [r.status, r.text]), [406, 'unsupported http method\n']);
    await get('/debug/flags/v', { method: 'PUT', body: '0' });
  });

  it('/debug/pprof/: the index, a V8 CPU profile for ?seconds, the sampled heap, the command line; Go-only profiles are unknown', async () => {
    const index = await get('/debug/pprof/');
    assert.equal(index.status, 200);
    assert.match(index.text, /<a href="profile">profile<\/a>/);
    const cpu = await get('/debug/pprof/profile?seconds=1');
    assert.equal(cpu.status, 200, cpu.text);
    assert.equal(cpu.headers['content-disposition'], 'attachment; filename="profile.cpuprofile"');
    assert.ok(Array.isArray(cpu.json.nodes) && cpu.json.nodes.length > 0 && cpu.json.endTime > cpu.json.startTime, 'a V8 .cpuprofile');
    const heap = await get('/debug/pprof/heap');
    assert.equal(heap.status, 200);
    assert.equal(heap.headers['content-disposition'], 'attachment; filename="heap.heapprofile"');
    assert.equal(heap.json.head.callFrame.functionName, '(root)', 'a V8 sampling heap profile');
    assert.equal((await get('/debug/pprof/cmdline')).text, process.argv.join('\x00'));
    const unknown = await get('/debug/pprof/goroutine');
    assert.deepEqual([unknown.status, unknown.text, unknown.headers['x-go-pprof']], [404, 'Unknown profile\n', '1']);
    const long = await get('/debug/pprof/profile?seconds=601');
    assert.equal(long.status, 400);
    assert.equal((await get('/debug/pprof/heap', { method: 'POST', body: '' })).status, 405);
  });

  it('/runningpods/: no container runtime, so nothing runs; unknown and runtime paths are 404', async () => {
    assert.equal((await get('/runningpods/')).text, '{"kind":"PodList","apiVersion":"v1","metadata":{},"items":null}\n');
    for (const p of ['/nope', '/exec/default/web/c', '/containerLogs/default/web/c', '/stats/summary', '/metrics/cadvisor', '/logs']) {
      const r = await get(p);
      assert.deepEqual([r.status, r.text], [404, '404: Page Not Found'], p);
    }
  });

  it('the read-only port: no authentication, /healthz, /pods and /metrics only', async () => {
    const port = agent.readOnlyPort;
    assert.deepEqual(await request(port, '/healthz').then((r) => [r.status, r.text]), [200, 'ok']);
    // IdleTimeout 90s, as upstream's read-only http.Server (node's own default is 5 s).
    const kept = await request(port, '/healthz', { headers: { connection: 'keep-alive' } });
    assert.deepEqual([kept.headers['connection'], kept.headers['keep-alive']], ['keep-alive', 'timeout=90']);
    assert.equal((await request(port, '/pods')).json.kind, 'PodList');
    assert.equal((await request(port, '/metrics')).status, 200);
    for (const p of ['/configz', '/debug/pprof/', '/logs/', '/debug/flags/v']) assert.equal((await request(port, p)).status, 404, p);
  });

  it('the health port: /healthz with the checks, nothing else', async () => {
    const port = agent.healthzPort;
    assert.deepEqual(await request(port, '/healthz').then((r) => [r.status, r.text]), [200, 'ok']);
    // http.ListenAndServe's zero http.Server: no idle timeout, so node announces none.
    const kept = await request(port, '/healthz', { headers: { connection: 'keep-alive' } });
    assert.deepEqual([kept.headers['connection'], kept.headers['keep-alive']], ['keep-alive', undefined]);
    assert.equal((await request(port, '/healthz?verbose')).text, '[+]ping ok\n[+]node-lease ok\nhealthz check passed\n');
    assert.deepEqual(await request(port, '/pods').then((r) => [r.status, r.text]), [404, '404 page not found\n']);
  });
});

describe('node agent servers: switches', () => {
  const pair = selfSignedPair();
  const running: RunningServer[] = [];
  after(async () => { for (const r of running) await r.stop(); });
  const start = async (over: Parameters<typeof serverConfig>[0]) => {
    const r = await startServer({ config: await serverConfig(over), pair });
    running.push(r);
    return (path: string, o: RequestOptions = {}) => request(r.port, path, { ca: pair.cert, ...o });
  };

  it('enableDebuggingHandlers=false: the debugging paths are 405 "Debug endpoints are disabled.", /configz is not served', async () => {
    const get = await start({ enableDebuggingHandlers: false });
    for (const p of ['/logs/', '/debug/pprof/', '/runningpods/', '/exec/a/b/c', '/run/a/b/c', '/attach/a/b/c', '/portForward/a/b', '/containerLogs/a/b/c']) {
      const r = await get(p);
      assert.deepEqual([r.status, r.text], [405, 'Debug endpoints are disabled.\n'], p);
    }
    assert.equal((await get('/configz')).status, 404);
    assert.equal((await get('/debug/flags/v', { method: 'PUT', body: '1' })).status, 404);
    assert.equal((await get('/pods')).status, 200);
  });

  it('each debugging endpoint has its own switch', async () => {
    const get = await start({ enableSystemLogHandler: false, enableProfilingHandler: false, enableDebugFlagsHandler: false });
    assert.deepEqual(await get('/logs/').then((r) => [r.status, r.text]), [405, 'logs endpoint is disabled.\n']);
    assert.deepEqual(await get('/debug/pprof/heap').then((r) => [r.status, r.text]), [405, 'profiling endpoint is disabled.\n']);
    assert.deepEqual(await get('/debug/flags/v', { method: 'PUT', body: '1' }).then((r) => [r.status, r.text]), [405, 'flags endpoint is disabled.\n']);
  });

  it('refuses configurations it cannot serve, naming the field', () => {
    const make = (config: Parameters<typeof nodeAgentTestContext>[0]) => () => createServerSubsystem(nodeAgentTestContext(config));
    assert.throws(make({ standalone: true }), { message: 'authentication.webhook.enabled: no client provided, cannot use webhook authentication (standalone mode has no API server)' });
    assert.throws(make({ standalone: true, config: { authentication: { x509: {}, webhook: { enabled: false, cacheTTL: '2m' }, anonymous: { enabled: true } } } }),
      { message: 'authorization.mode: no client provided, cannot use webhook authorization (standalone mode has no API server)' });
    assert.throws(make({ config: { authentication: { x509: {}, webhook: { enabled: false, cacheTTL: '2m' }, anonymous: { enabled: false } } } }),
      { message: 'authentication: no authentication method configured' });
    assert.throws(make({ config: { authentication: { x509: { clientCAFile: '/nonexistent/ca.crt' }, webhook: { enabled: true, cacheTTL: '2m' }, anonymous: { enabled: false } } } }),
      { message: 'authentication.x509.clientCAFile: unable to load client CA file /nonexistent/ca.crt: open /nonexistent/ca.crt: no such file or directory' });
    assert.throws(make({ config: { authentication: { x509: { clientCAFile: '/' }, webhook: { enabled: true, cacheTTL: '2m' }, anonymous: { enabled: false } } } }),
      { message: 'authentication.x509.clientCAFile: unable to load client CA file /: read /: is a directory' }, "the kubelet's InitializeTLS wrapper around Go's os error");
    assert.doesNotThrow(make({ standalone: true, config: { enableServer: false } }), 'no secure server, nothing to authenticate');
  });
});
