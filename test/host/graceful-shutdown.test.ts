// SIGTERM to the real `plat all`: a request whose body is still uploading finishes with its 201
// and is stored, while a new connection is refused; the embedded controllers stop before the API
// server drains, so CSRs approved just before the signal end issued without a status write cut
// ("socket hang up"); the process exits 0.
import assert from 'node:assert/strict';
import { X509Certificate, createPublicKey } from 'node:crypto';
import { once } from 'node:events';
import https from 'node:https';
import { after, describe, it } from 'node:test';
import { rmSync } from 'node:fs';
import { parseCsr } from '../../core/crypto/index.js';
import { fixtures } from '../certificates/fixtures.js';
import { csrObject, csrPath, CSR_PATH } from '../admission/support.js';
import { connectError, startProcess, tempDir, type Response } from '../helpers/plat.js';
import { waitUntil } from '../helpers/watch-stream.js';

const SECRETS = '/api/v1/namespaces/default/secrets';

describe('plat all on SIGTERM', () => {
  const fx = fixtures();
  const dirs: string[] = [];
  after(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

  it('finishes a create whose body is still uploading, refuses new connections, exits 0', async () => {
    const dataDir = tempDir();
    dirs.push(dataDir);
    const plat = await startProcess({ dataDir });
    const u = new URL(plat.url);
    const body = JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'uploaded-late' }, stringData: { k: 'v' } });
    const req = https.request({
      method: 'POST', hostname: u.hostname, port: u.port, path: SECRETS, agent: false,
      ca: plat.admin.creds.ca, cert: plat.admin.creds.cert, key: plat.admin.creds.key,
      headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), expect: '100-continue' },
    });
    const answer = new Promise<Response>((resolve, reject) => {
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: undefined, raw: Buffer.alloc(0) });
        });
      });
      req.on('error', reject);
    });
    // The server has the request (it said 100 Continue) and waits for its body.
    await once(req, 'continue');
    const exited = once(plat.child, 'exit');
    plat.child.kill('SIGTERM');
    await waitUntil(() => (/Stopped listening on/.test(plat.output()) ? true : undefined), 'the listener to close');
    assert.equal(await connectError(Number(u.port)), 'ECONNREFUSED');
    req.end(body);
    const r = await answer;
    assert.equal(r.status, 201, r.text);
    assert.equal(r.headers['connection'], 'close', 'no keep-alive while shutting down');
    const [code] = await exited;
    assert.equal(code, 0, plat.output());

    const again = await startProcess({ dataDir });
    try {
      assert.equal((await again.admin.get(`${SECRETS}/uploaded-late`)).status, 200);
    } finally { await again.stop(); }
  });

  it('lets the controllers finish signing approved CSRs before the API server drains', async () => {
    const dataDir = tempDir();
    dirs.push(dataDir);
    const plat = await startProcess({ dataDir, args: ['-v=4'] });
    const names = Array.from({ length: 30 }, (_, i) => `signed-at-stop-${i}`);
    for (const n of names) {
      const r = await plat.admin.post(CSR_PATH, csrObject(n, 'platform/apiserver-client', fx.ecCsrPem, { usages: ['digital signature', 'client auth'] }));
      assert.equal(r.status, 201, r.text);
    }
    await Promise.all(names.map(async (n) => {
      const csr = (await plat.admin.get(csrPath(n))).json;
      csr.status = { conditions: [{ type: 'Approved', status: 'True', reason: 'Test', message: 'approved by the test' }] };
      const r = await plat.admin.put(csrPath(n, 'approval'), csr);
      assert.equal(r.status, 200, r.text);
    }));
    // The signal comes once signing is under way (one certificate stored), the rest in flight or queued.
    let started = false;
    for (let i = 0; i < 400 && !started; i++) {
      started = Boolean((await plat.admin.get(`${CSR_PATH}?limit=500`)).json.items.some((c: { status?: { certificate?: string } }) => c.status?.certificate));
    }
    assert.ok(started, 'a first certificate');
    const exited = once(plat.child, 'exit');
    plat.child.kill('SIGTERM');
    const [code] = await exited;
    assert.equal(code, 0, plat.output());
    assert.doesNotMatch(plat.output(), /socket hang up/);

    // Read back without a signing controller, so that nothing signs after the restart: what the
    // stopped process wrote is what is there. Each CSR is issued (a whole certificate of its own
    // key) or still approved without one, never Failed by a cut write.
    const again = await startProcess({ dataDir, args: ['--controllers=*,-csrsigning'] });
    try {
      const csrKey = createPublicKey({ key: Buffer.from(parseCsr(fx.ecCsrPem).publicKey.spki), format: 'der', type: 'spki' });
      let issued = 0;
      for (const n of names) {
        const csr = (await again.admin.get(csrPath(n))).json;
        assert.deepEqual(csr.status.conditions.map((c: { type: string }) => c.type), ['Approved'], n);
        if (!csr.status.certificate) continue;
        const cert = new X509Certificate(Buffer.from(csr.status.certificate, 'base64'));
        assert.ok(cert.publicKey.equals(csrKey), `${n}: the certificate carries the CSR's key`);
        issued++;
      }
      assert.ok(issued > 0, 'the certificate seen before SIGTERM is there');
    } finally { await again.stop(); }
  });
});
