// The in-process connection of `plat all` (core/server/in-process.ts): requests from the process's
// own controllers travel in memory, yet the API server authenticates the chain they present as it
// would a TLS client's, and everything else (authorization, stores, watches) is the same path.
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { inProcessConnection } from '../../core/client/in-process.js';
import { ApiError, RestClient, type ResourceRef } from '../../core/client/rest-client.js';
import Koa from 'koa';
import { InProcessSocket, inProcessServer } from '../../core/server/in-process.js';
import { getApiServer } from '../../plugins/apiserver/index.js';
import { makeCa, makeCert } from '../helpers/certs.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { csrBody, makeCsr } from '../csrsigning/support.js';

const REVIEWS = '/apis/authentication.platform/v1/selfsubjectreviews';
const CSRS: ResourceRef = { group: 'certificates.platform', version: 'v1', plural: 'certificatesigningrequests' };
const review = { apiVersion: 'authentication.platform/v1', kind: 'SelfSubjectReview' };

describe('in-process connection', () => {
  let plat: RunningPlat;
  let adminDer: Buffer;
  const clientFor = (chain: Buffer[]) => {
    const api = getApiServer(plat.host!)!;
    return new RestClient({ server: new URL(api.url), dial: () => api.dial(chain) }, { qps: 0 });
  };

  before(async () => {
    plat = await startInProcess({ args: ['--controllers='] });
    adminDer = Buffer.from(new X509Certificate(readFileSync(path.join(plat.dataDir, 'pki', 'admin.crt'))).raw);
  });
  let stopped = false;
  after(async () => { if (!stopped) await plat?.stop(); });

  it('plat all gives its embedded controllers a dialled connection, as system:kube-controller-manager', async () => {
    const conn = inProcessConnection(plat.host!);
    assert.equal(typeof conn?.dial, 'function');
    // Their own user, so that the audit log and reviews tell their writes from the admin's.
    const client = new RestClient(conn!, { qps: 0 });
    try {
      const r = await client.request<any>('POST', REVIEWS, { body: review });
      assert.equal(r.status.userInfo.username, 'system:kube-controller-manager');
      assert.deepEqual(r.status.userInfo.groups, ['system:masters', 'system:authenticated']);
    } finally {
      client.close();
    }
    const files = readdirSync(path.join(plat.dataDir, 'pki'));
    assert.ok(files.includes('controller-manager.crt') && files.includes('controller-manager.key'), files.join(' '));
    assert.equal(statSync(path.join(plat.dataDir, 'pki', 'controller-manager.key')).mode & 0o777, 0o600);
  });

  it('authenticates the presented chain as the x509 authenticator does over TLS', async () => {
    const client = clientFor([adminDer]);
    try {
      const r = await client.request<any>('POST', REVIEWS, { body: review });
      assert.equal(r.status.userInfo.username, 'plat-admin');
      assert.deepEqual(r.status.userInfo.groups, ['system:masters', 'system:authenticated']);
      assert.match(r.status.userInfo.extra['authentication.platform/credential-id'][0], /^X509SHA256=[0-9a-f]{64}$/);
    } finally {
      client.close();
    }
  });

  it('refuses a chain the client CA did not sign, and no chain at all (401)', async () => {
    const stranger = makeCert(makeCa({ commonName: 'other-ca' }), { commonName: 'plat-admin', organizations: ['system:masters'], extKeyUsage: ['client auth'] });
    for (const chain of [[Buffer.from(stranger.der)], []]) {
      const client = clientFor(chain);
      try {
        await assert.rejects(client.request('POST', REVIEWS, { body: review }), (e: unknown) => e instanceof ApiError && e.code === 401 && e.reason === 'Unauthorized');
      } finally {
        client.close();
      }
    }
  });

  it('carries writes, large bodies and watches like the secure port', async () => {
    const client = clientFor([adminDer]);
    const ac = new AbortController();
    try {
      const list = await client.list(CSRS);
      const seen: string[] = [];
      const watching = (async () => {
        for await (const ev of client.watch<any>(CSRS, { resourceVersion: list.metadata.resourceVersion ?? '0', signal: ac.signal })) {
          seen.push(`${ev.type} ${ev.object.metadata.name}`);
          if (seen.length === 1) return;
        }
      })();
      // Far more than one in-memory chunk: the body crosses the pair in pieces.
      const annotation = 'x'.repeat(200_000);
      const err = await client.request('POST', '/apis/certificates.platform/v1/certificatesigningrequests', {
        body: { apiVersion: 'certificates.platform/v1', kind: 'CertificateSigningRequest', metadata: { name: 'in-memory', annotations: { big: annotation } }, spec: { request: '', signerName: 'example.com/x', usages: ['client auth'] } },
      }).catch((e: unknown) => e);
      // An empty request is invalid: the API's own validation answered, through the same stores.
      assert.ok(err instanceof ApiError && err.code === 422, String(err));
      assert.match(err.message, /spec\.request/);
      const ns = await client.request<any>('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'in-memory', annotations: { big: annotation } } } });
      assert.equal(ns.metadata.annotations.big.length, annotation.length);
      await client.request('POST', '/apis/certificates.platform/v1/certificatesigningrequests', {
        body: csrBody('in-memory', makeCsr({ cn: 'in-memory' }), 'example.com/x', ['client auth']),
      });
      await watching;
      assert.deepEqual(seen, ['ADDED in-memory']);
    } finally {
      ac.abort();
      client.close();
    }
  });

  it('keeps a watch of a quiet store open past the idle timeout a network watch has (no network to lose it)', async () => {
    const api = getApiServer(plat.host!)!;
    // The same idle timeout over TLS would end this watch after 0.2 s (rest-client.ts).
    const client = new RestClient({ server: new URL(api.url), dial: () => api.dial([adminDer]) }, { qps: 0, watchIdleTimeoutMs: 200 });
    const ac = new AbortController();
    try {
      const list = await client.list(CSRS);
      const events = client.watch<any>(CSRS, { resourceVersion: list.metadata.resourceVersion ?? '0', timeoutSeconds: 60, signal: ac.signal });
      const next = events.next();
      await new Promise((r) => setTimeout(r, 1000));
      await client.request('POST', '/apis/certificates.platform/v1/certificatesigningrequests', {
        body: csrBody('after-quiet', makeCsr({ cn: 'after-quiet' }), 'example.com/x', ['client auth']),
      });
      const ev = await next;
      assert.equal(`${ev.value?.type} ${ev.value?.object.metadata.name}`, 'ADDED after-quiet');
    } finally {
      ac.abort();
      client.close();
    }
  });

  it('after shutdown a dial fails, and so does the request, instead of hanging', async () => {
    const api = getApiServer(plat.host!)!;
    await plat.stop();
    stopped = true;
    const client = new RestClient({ server: new URL(api.url), dial: () => api.dial([adminDer]) }, { qps: 0, timeoutMs: 5000 });
    try {
      await assert.rejects(client.request('GET', '/api'));
    } finally {
      client.close();
    }
  });
});

describe('in-process connection timeouts', () => {
  it("a request's timeout holds over an in-memory connection (the server never answers)", async () => {
    const release = new AbortController();
    const app = new Koa();
    app.use(async () => { await new Promise((r) => release.signal.addEventListener('abort', r)); });
    const server = inProcessServer(app, 1 << 20);
    const client = new RestClient({ server: new URL('https://127.0.0.1:1'), dial: () => server.dial([]) }, { qps: 0, timeoutMs: 200 });
    // Socket timers do not hold the process open (as net's); nothing else here does.
    const alive = setInterval(() => {}, 1000);
    try {
      await assert.rejects(client.request('GET', '/hang'), /context deadline exceeded/);
    } finally {
      clearInterval(alive);
      release.abort();
      client.close();
      server.close();
    }
  });

  it('requests with a timeout over one kept-alive connection leave no timeout listeners behind', async () => {
    const app = new Koa();
    app.use((ctx) => { ctx.body = { ok: true }; });
    const server = inProcessServer(app, 1 << 20);
    const dialled: InProcessSocket[] = [];
    const client = new RestClient({ server: new URL('https://127.0.0.1:1'), dial: () => {
      const s = server.dial([]);
      dialled.push(s);
      return s;
    } }, { qps: 0, timeoutMs: 5000 });
    try {
      for (let i = 0; i < 40; i++) await client.request('GET', '/ok');
      assert.equal(dialled.length, 1, 'the requests shared one connection');
      const socket = dialled[0]!;
      // The agent's own listener stays; each request's was removed when its response ended.
      assert.ok(socket.listenerCount('timeout') <= 1, `${socket.listenerCount('timeout')} timeout listeners after 40 requests`);
      assert.ok(socket.peer!.listenerCount('timeout') <= 1, `${socket.peer!.listenerCount('timeout')} on the server's end`);
    } finally {
      client.close();
      server.close();
    }
  });
});

describe('in-process socket setTimeout, as net.Socket', () => {
  it('arms and fires, records the timeout, and setTimeout(0, cb) disarms and removes cb', async () => {
    const s = new InProcessSocket();
    let fired = 0;
    const cb = () => { fired++; };
    s.setTimeout(20, cb);
    assert.equal(s.timeout, 20);
    assert.equal(s.listenerCount('timeout'), 1);
    await new Promise((r) => setTimeout(r, 60));
    assert.equal(fired, 1);
    s.setTimeout(20, cb);
    s.setTimeout(0, cb);
    assert.equal(s.timeout, 0);
    assert.equal(s.listenerCount('timeout'), 0);
    await new Promise((r) => setTimeout(r, 60));
    assert.equal(fired, 1, 'a disarmed timeout does not fire');
    s.destroy();
  });
});

describe('in-process socket pair', () => {
  const pair = () => {
    const a = new InProcessSocket();
    const b = new InProcessSocket();
    a.peer = b;
    b.peer = a;
    return { a, b };
  };

  it('a side that does not read holds the writer back (backpressure), and reading releases it', async () => {
    const { a, b } = pair();
    const chunk = Buffer.alloc(64 * 1024, 1);
    let writes = 0;
    while (a.write(chunk) && writes < 1000) writes++;
    assert.ok(writes < 1000, 'write() reported a full buffer while nothing was read');
    const drained = new Promise<void>((resolve) => a.once('drain', resolve));
    let read = 0;
    b.on('data', (d: Buffer) => { read += d.length; });
    await drained;
    assert.ok(read > 0);
    a.destroy();
    assert.equal(b.destroyed, true);
  });

  it('data and end cross in order, and both sides close after it (no half-open connection)', async () => {
    const { a, b } = pair();
    const got: Buffer[] = [];
    const closed = Promise.all([a, b].map((s) => new Promise<void>((resolve) => s.once('close', resolve))));
    b.on('data', (d: Buffer) => got.push(d));
    a.write('hello ');
    a.end('world');
    await closed;
    assert.equal(Buffer.concat(got).toString(), 'hello world');
  });

  it('destroying one side closes the other', async () => {
    const { a, b } = pair();
    const closed = new Promise<void>((resolve) => a.once('close', resolve));
    b.destroy();
    await closed;
    assert.equal(a.destroyed, true);
  });
});
