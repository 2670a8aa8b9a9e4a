// The API server's shutdown drains as upstream's (genericapiserver.go RunWithContext, Server.Shutdown
// bounded by --request-timeout): the listener closes at once, the requests in flight finish and
// their writes are stored, the store closes after them; a watch is not ended and holds the drain
// to its bound, past which what is left is cut. Shutdown stages: `plat all`'s controllers stop
// before the server drains.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import http2 from 'node:http2';
import { after, describe, it } from 'node:test';
import { SHUTDOWN_STAGE } from '../../core/hooks.js';
import { createLogger } from '../../core/log.js';
import type { Plugin } from '../../core/plugin.js';
import { fixtures } from '../certificates/fixtures.js';
import { csrObject, csrPath, CSR_PATH } from '../admission/support.js';
import { connectError, startInProcess, tempDir, type Client } from '../helpers/plat.js';
import { WatchStream, waitUntil } from '../helpers/watch-stream.js';
import { until } from '../controller-manager/support.js';

const SIGNER = 'example.com/drain';

/** Holds every CSR create in admitValidate until release(). */
function holding(): { plugin: Plugin; held: () => number; release: () => void } {
  let waiting: (() => void)[] = [];
  const plugin: Plugin = {
    name: 'HoldingAdmission',
    apply(host) {
      host.hooks.admitValidate.tapPromise('HoldingAdmission', async (req) => {
        if (req.resource !== 'certificatesigningrequests' || req.operation !== 'CREATE') return;
        await new Promise<void>((resolve) => waiting.push(resolve));
      });
    },
  };
  return { plugin, held: () => waiting.length, release: () => { for (const w of waiting.splice(0)) w(); } };
}

/** Resolves 'refused' once a new TCP connection to `port` is refused; bounded. */
async function refusedOn(port: number): Promise<string> {
  return until(async () => ((await connectError(port)) === 'ECONNREFUSED' ? 'refused' : undefined), 'the listener to close');
}

/** GETs `path` over HTTP/2 as kubectl does; says the status and whether the server sent a GOAWAY. */
async function overHttp2(client: Client, path: string): Promise<{ status: number; goaway: boolean }> {
  const session = http2.connect(client.url, { ca: client.creds.ca, cert: client.creds.cert, key: client.creds.key });
  let goaway = false;
  session.on('goaway', () => { goaway = true; });
  try {
    const status = await new Promise<number>((resolve, reject) => {
      const req = session.request({ ':path': path });
      req.on('response', (h) => resolve(Number(h[':status'])));
      req.on('error', reject);
      req.resume();
      req.end();
    });
    await waitUntil(() => (goaway || session.closed ? true : undefined), 'the session to be told to go away', 5_000).catch(() => undefined);
    return { status, goaway };
  } finally { session.destroy(); }
}

/** Fails if `p` has not settled within `ms`, naming `what`. */
function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms); });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

describe('API server shutdown', () => {
  const fx = fixtures();
  const dirs: string[] = [];
  after(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

  it('lets the creates in flight finish with 201 and stores them; new connections are refused meanwhile', async () => {
    const dataDir = tempDir();
    dirs.push(dataDir);
    const hold = holding();
    const plat = await startInProcess({ dataDir, plugins: [hold.plugin] });
    const port = Number(new URL(plat.url).port);
    const names = Array.from({ length: 20 }, (_, i) => `in-flight-${i}`);
    const creates = names.map((n) => plat.admin.post(CSR_PATH, csrObject(n, SIGNER, fx.ecCsrPem)));
    await waitUntil(() => (hold.held() === names.length ? true : undefined), 'every create to be in admission');
    let stopped = false;
    const stopping = plat.host!.hooks.shutdown.promise().then(() => { stopped = true; });
    assert.equal(await refusedOn(port), 'refused');
    assert.equal(stopped, false, 'the drain waits for the requests in flight');
    hold.release();
    const answers = await Promise.all(creates);
    for (const r of answers) assert.equal(r.status, 201, r.text);
    await stopping;

    const again = await startInProcess({ dataDir });
    try {
      for (const n of names) assert.equal((await again.admin.get(csrPath(n))).status, 200, n);
    } finally { await again.stop(); }
  });

  it('does not end a watch: it holds the drain to --request-timeout, then is cut, and the store closes after it', async () => {
    const lines: string[] = [];
    const plat = await startInProcess({ args: ['--request-timeout=1s', '-v=1'], logger: createLogger({ verbosity: 1, write: (l) => lines.push(l) }) });
    dirs.push(plat.dataDir);
    const watch = await WatchStream.open(plat.admin, `${CSR_PATH}?watch=true`);
    let stopped = false;
    const stopping = plat.host!.hooks.shutdown.promise().then(() => { stopped = true; });
    await refusedOn(Number(new URL(plat.url).port));
    assert.equal(watch.ended, false);
    assert.equal(stopped, false);
    await waitUntil(() => (stopped ? true : undefined), 'the shutdown to end', 20_000);
    await stopping;
    // The server has cut the watch before its shutdown ended; the client sees the close a moment
    // later (its socket's events run after this), so this waits for it, bounded.
    await watch.waitEnd(5_000);
    const text = lines.join('\n');
    assert.match(text, /Stopped listening on 127\.0\.0\.1:\d+/);
    assert.match(text, /\[graceful-termination\] not going to wait for active watch request\(s\) to drain/);
    assert.match(text, /Failed to shutdown server: context deadline exceeded/);
    assert.match(text, /\[graceful-termination\] apiserver is exiting/);
  });

  it('ends at once when idle', async () => {
    const lines: string[] = [];
    const plat = await startInProcess({ logger: createLogger({ verbosity: 1, write: (l) => lines.push(l) }) });
    dirs.push(plat.dataDir);
    assert.equal((await plat.admin.get('/healthz')).status, 200);
    await plat.host!.hooks.shutdown.promise();
    assert.doesNotMatch(lines.join('\n'), /Failed to shutdown server/);
  });

  it('runs shutdown taps by stage: each stage after the earlier ones have ended', async () => {
    const order: string[] = [];
    const tapper: Plugin = {
      name: 'StageProbe',
      apply(host) {
        const after = (ms: number, what: string) => new Promise<void>((r) => setTimeout(() => { order.push(what); r(); }, ms));
        host.hooks.shutdown.tapPromise({ name: 'late-storage', stage: SHUTDOWN_STAGE.storage }, () => after(0, 'storage'));
        host.hooks.shutdown.tap({ name: 'default', stage: 0 }, () => { order.push('default'); });
        host.hooks.shutdown.tapAsync({ name: 'client', stage: SHUTDOWN_STAGE.clients }, (cb) => { void after(50, 'client').then(() => cb()); });
        host.hooks.shutdown.tapPromise({ name: 'client-2', stage: SHUTDOWN_STAGE.clients }, () => after(10, 'client-2'));
      },
    };
    const plat = await startInProcess({ plugins: [tapper] });
    dirs.push(plat.dataDir);
    await plat.host!.hooks.shutdown.promise();
    assert.deepEqual(order, ['client-2', 'client', 'default', 'storage']);
  });

  it('reports a failed shutdown tap only once every stage has run: the drain and the store\'s close still happen', async () => {
    const order: string[] = [];
    const failing: Plugin = {
      name: 'FailingStop',
      apply(host) {
        host.hooks.shutdown.tapPromise({ name: 'failing-client', stage: SHUTDOWN_STAGE.clients }, async () => { throw new Error('boom'); });
        host.hooks.shutdown.tapPromise({ name: 'late-storage', stage: SHUTDOWN_STAGE.storage }, async () => { order.push('storage'); });
      },
    };
    const plat = await startInProcess({ plugins: [failing] });
    dirs.push(plat.dataDir);
    await assert.rejects(plat.host!.hooks.shutdown.promise(), { message: 'boom' });
    assert.deepEqual(order, ['storage'], 'the last stage ran before the failure was reported');
    await assert.rejects(plat.admin.get('/healthz'), 'the secure port was drained and closed');
  });

  it('--shutdown-delay-duration: /readyz fails at once while the server goes on serving, then it drains', async () => {
    const lines: string[] = [];
    const plat = await startInProcess({ args: ['--shutdown-delay-duration=6s', '-v=2'], logger: createLogger({ verbosity: 2, write: (l) => lines.push(l) }) });
    dirs.push(plat.dataDir);
    const port = Number(new URL(plat.url).port);
    assert.equal((await plat.admin.get('/readyz')).status, 200);
    const stopped = plat.host!.hooks.shutdown.promise();
    await until(async () => ((await plat.admin.get('/readyz')).status === 500 ? true : undefined), '/readyz to fail');
    const readyz = await plat.admin.get('/readyz?verbose');
    assert.match(readyz.text, /\[-\]shutdown failed: reason withheld/);
    // The reason the public body withholds goes to the log at V(2), as handleRootHealth's.
    assert.ok(lines.some((l) => l.endsWith('] shutdown check failed: readyz\n[-]shutdown failed: process is shutting down')), lines.join('\n'));
    assert.equal((await plat.admin.get('/livez')).status, 200, '/livez succeeds during the delay');
    assert.equal((await plat.admin.get('/healthz')).status, 200, '/healthz succeeds during the delay');
    const created = await plat.admin.post(CSR_PATH, csrObject('during-delay', SIGNER, fixtures().ecCsrPem));
    assert.equal(created.status, 201, 'a write on a new connection is served during the delay');
    assert.ok(!lines.some((l) => l.includes('AfterShutdownDelayDuration')), 'still within the delay');
    assert.equal(await refusedOn(port), 'refused');
    await stopped;
    const events = lines.filter((l) => l.includes('shutdown event')).map((l) => /name="(\w+)"/.exec(l)?.[1]);
    assert.deepEqual(events, ['ShutdownInitiated', 'AfterShutdownDelayDuration', 'NotAcceptingNewRequest', 'InFlightRequestsDrained']);
  });

  it('--shutdown-send-retry-after: the port stays open while the requests in flight drain, new requests get 429 and are told to close; then it closes', async () => {
    const lines: string[] = [];
    const hold = holding();
    const plat = await startInProcess({ args: ['--shutdown-send-retry-after', '-v=1'], plugins: [hold.plugin], logger: createLogger({ verbosity: 1, write: (l) => lines.push(l) }) });
    dirs.push(plat.dataDir);
    const port = Number(new URL(plat.url).port);
    assert.match(lines.join('\n'), /\[graceful-termination\] using HTTP Server shutdown timeout.*shutdownTimeout="2s"/);
    const creating = plat.admin.post(CSR_PATH, csrObject('in-flight', SIGNER, fixtures().ecCsrPem));
    await waitUntil(() => (hold.held() === 1 ? true : undefined), 'the create to be in admission');
    const stopped = plat.host!.hooks.shutdown.promise();
    await waitUntil(() => (lines.some((l) => l.includes('NotAcceptingNewRequest')) ? true : undefined), 'the drain to begin');

    for (const path of ['/api', `${CSR_PATH}?watch=true`]) {
      const r = await plat.admin.get(path);
      assert.equal(r.status, 429, path);
      assert.equal(r.text, 'The apiserver is shutting down, please try again later.\n', path);
      assert.equal(r.headers['retry-after'], '5', path);
      assert.equal(r.headers['connection'], 'close', path);
      assert.equal(r.headers['content-type'], 'text/plain; charset=utf-8', path);
      assert.equal(r.headers['x-content-type-options'], 'nosniff', path);
    }
    assert.deepEqual(await overHttp2(plat.admin, '/api'), { status: 429, goaway: true }, 'HTTP/2: a GOAWAY instead of Connection: close');
    assert.equal((await plat.admin.get('/livez')).status, 200, 'health probes are exempt');
    assert.equal(await connectError(port), undefined, 'the port still accepts connections');

    hold.release();
    assert.equal((await creating).status, 201, 'the request in flight finishes');
    await stopped;
    assert.equal(await refusedOn(port), 'refused');
    const text = lines.join('\n');
    assert.match(text, /\[graceful-termination\] in-flight non long-running request\(s\) have drained/);
    const events = lines.filter((l) => l.includes('shutdown event')).map((l) => /name="(\w+)"/.exec(l)?.[1]);
    assert.deepEqual(events, ['ShutdownInitiated', 'AfterShutdownDelayDuration', 'NotAcceptingNewRequest', 'InFlightRequestsDrained']);
    assert.ok(text.indexOf('InFlightRequestsDrained') < text.indexOf('Stopped listening on'), 'the listener closes after the drain');
  });

  it('--shutdown-watch-termination-grace-period: open watches end cleanly when the drain begins, so it does not wait out --request-timeout', async () => {
    const lines: string[] = [];
    const plat = await startInProcess({
      args: ['--shutdown-watch-termination-grace-period=30s', '--request-timeout=1h', '-v=1'],
      logger: createLogger({ verbosity: 1, write: (l) => lines.push(l) }),
    });
    dirs.push(plat.dataDir);
    const watches = await Promise.all([0, 1, 2].map(() => WatchStream.open(plat.admin, `${CSR_PATH}?watch=true`)));
    await within(plat.host!.hooks.shutdown.promise(), 20_000, 'the shutdown with three watches open');
    for (const w of watches) assert.ok(w.cleanEnd, 'the watch response ended properly, not cut');
    const text = lines.join('\n');
    assert.match(text, /\[graceful-termination\] active watch request\(s\) have drained.*duration="30s" activeWatchesBefore=3 activeWatchesAfter=0 error="<nil>"/);
    assert.doesNotMatch(text, /not going to wait for active watch/);
    assert.doesNotMatch(text, /Failed to shutdown server/);
  });

  it('--shutdown-watch-termination-grace-period: a watch still being authenticated when the drain begins ends as soon as it is served', async () => {
    let release: (() => void) | undefined;
    const held = new Promise<void>((resolve) => { release = resolve; });
    let holding = 0;
    const gate: Plugin = {
      name: 'HoldWatchAuthentication',
      apply(host) {
        host.hooks.authenticate.tapPromise({ name: 'HoldWatchAuthentication', stage: -1000 }, async (req) => {
          if (req.headers['x-hold'] !== undefined) { holding++; await held; }
          return undefined;
        });
      },
    };
    const lines: string[] = [];
    const plat = await startInProcess({
      args: ['--shutdown-watch-termination-grace-period=30s', '--request-timeout=1h', '-v=1'], plugins: [gate],
      logger: createLogger({ verbosity: 1, write: (l) => lines.push(l) }),
    });
    dirs.push(plat.dataDir);
    const opening = WatchStream.open(plat.admin, `${CSR_PATH}?watch=true`, { 'x-hold': '1' });
    await waitUntil(() => (holding === 1 ? true : undefined), 'the watch to be held in authentication');
    const stopped = plat.host!.hooks.shutdown.promise();
    await waitUntil(() => (lines.some((l) => l.includes('NotAcceptingNewRequest')) ? true : undefined), 'the drain to begin');
    release!();
    const watch = await opening;
    await within(stopped, 20_000, 'the shutdown with a watch served after the drain began');
    await waitUntil(() => (watch.ended ? true : undefined), 'the watch to end');
    assert.ok(watch.cleanEnd, 'the watch ended properly');
    assert.match(lines.join('\n'), /active watch request\(s\) have drained.*activeWatchesBefore=1 activeWatchesAfter=0 error="<nil>"/);
  });
});

