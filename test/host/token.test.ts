// `plat token create` against a running `plat all` with bootstrap token authentication on: the
// printed token authenticates as system:bootstrap:<id> with the extra groups asked for.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { baseCsr, fixtures } from '../certificates/fixtures.js';
import { makeCa } from '../helpers/certs.js';
import { startProcess, type RunningPlat } from '../helpers/plat.js';
import { runPlat, runPlatAsync } from '../helpers/run-plat.js';
import { writeLoopbackKubeconfig } from '../helpers/loopback-kubeconfig.js';

const P = '/apis/certificates.platform/v1/certificatesigningrequests';

describe('plat token create', () => {
  let plat: RunningPlat;
  before(async () => { plat = await startProcess({ args: ['--enable-bootstrap-token-auth'] }); });
  after(async () => { await plat?.stop(); });

  it('mints a token that authenticates as system:bootstrap:<id>', async () => {
    const r = runPlat(['token', 'create', '--platconfig', plat.kubeconfig, '--ttl', '1h', '--groups', 'system:bootstrappers:nodes', '--description', 'test']);
    assert.equal(r.code, 0, r.stderr);
    const m = /^([a-z0-9]{6})\.([a-z0-9]{16})\n$/.exec(r.stdout);
    assert.ok(m, r.stdout);
    const secret = await plat.admin.get(`/api/v1/namespaces/plat-system/secrets/bootstrap-token-${m[1]}`);
    assert.equal(secret.status, 200, secret.text);
    assert.equal(secret.json.type, 'bootstrap.platform/token');
    assert.equal(secret.json.stringData, undefined);
    const created = await plat.admin.with({ token: m[0].trim() }).post(P, baseCsr(fixtures(), 'by-bootstrap'));
    assert.equal(created.status, 201, created.text);
    assert.equal(created.json.spec.username, `system:bootstrap:${m[1]}`);
    assert.deepEqual(created.json.spec.groups, ['system:bootstrappers', 'system:bootstrappers:nodes', 'system:authenticated']);
  });

  it('refuses bad groups (exit 2) and an unreachable or missing kubeconfig (exit 1)', () => {
    const bad = runPlat(['token', 'create', '--platconfig', plat.kubeconfig, '--groups', 'admins']);
    assert.equal(bad.code, 2);
    // ValidateBootstrapGroupName's text, the pattern printed as api.BootstrapGroupPattern is.
    assert.equal(bad.stderr, String.raw`plat token create: invalid argument "admins" for "--groups" flag: bootstrap group "admins" is invalid (must match \Asystem:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]\z)` + '\n');
    const missing = runPlat(['token', 'create', '--platconfig', '/nonexistent/admin.conf']);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /nonexistent\/admin\.conf/);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'plat-token-'));
    try {
      writeFileSync(path.join(dir, 'empty.conf'), 'apiVersion: v1\nkind: Config\n');
      const empty = runPlat(['token', 'create'], { env: { PLATCONFIG: '', KUBECONFIG: path.join(dir, 'empty.conf') } });
      assert.equal(empty.code, 1);
      assert.equal(empty.stderr, `plat token create: kubeconfig ${path.join(dir, 'empty.conf')}: no cluster is configured\n`);
      // A server certificate the kubeconfig does not trust: kubectl's words, as plat csr says them.
      const other = Buffer.from(makeCa({ commonName: 'another-ca' }).certificatePem).toString('base64');
      const untrusted = path.join(dir, 'untrusted.conf');
      writeFileSync(untrusted, readFileSync(plat.kubeconfig, 'utf8').replace(/certificate-authority-data: \S+/, `certificate-authority-data: ${other}`));
      const r = runPlat(['token', 'create', '--platconfig', untrusted]);
      assert.equal(r.code, 1);
      assert.equal(r.stderr, 'plat token create: Unable to connect to the server: tls: failed to verify certificate: x509: certificate signed by unknown authority\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('finds the kubeconfig as plat csr does: --kubeconfig, $PLATCONFIG, $KUBECONFIG', () => {
    const elsewhere = mkdtempSync(path.join(os.tmpdir(), 'plat-token-'));
    try {
      const run = (env: Record<string, string>, ...args: string[]) =>
        runPlat(['token', 'create', ...args], { cwd: elsewhere, env: { PLATCONFIG: '', KUBECONFIG: '', ...env } });
      for (const [why, r] of [
        ['--kubeconfig', run({}, '--kubeconfig', plat.kubeconfig)],
        ['$PLATCONFIG', run({ PLATCONFIG: plat.kubeconfig })],
        ['$KUBECONFIG, its first existing entry', run({ KUBECONFIG: ['/nonexistent/config', plat.kubeconfig].join(path.delimiter) })],
      ] as const) {
        assert.equal(r.code, 0, `${why}: ${r.stderr}`);
        assert.match(r.stdout, /^[a-z0-9]{6}\.[a-z0-9]{16}\n$/, why);
      }
      const none = run({});
      assert.equal(none.code, 1);
      assert.match(none.stderr, /\.plat\/admin\.conf/, 'the default, relative to the working directory');
      const both = run({}, '--kubeconfig', plat.kubeconfig, '--platconfig', '/other');
      assert.equal(both.code, 2);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});

describe('plat token create over a kubeconfig\'s http:// loopback address', () => {
  it('sends the Secret over plain HTTP without the token, as client-go reads credentials only for TLS', async () => {
    const seen: { url?: string; auth?: string; body?: { metadata: { name: string } } } = {};
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => { body += d.toString(); });
      req.on('end', () => {
        Object.assign(seen, { url: req.url, auth: req.headers.authorization, body: JSON.parse(body) });
        res.writeHead(201, { 'content-type': 'application/json' }).end(body);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    try {
      const kubeconfig = writeLoopbackKubeconfig((server.address() as AddressInfo).port);
      const r = await runPlatAsync(['token', 'create', '--kubeconfig', kubeconfig], { env: { PLATCONFIG: '', KUBECONFIG: '' } });
      assert.equal(r.code, 0, r.stderr);
      const [id] = r.stdout.trim().split('.');
      assert.deepEqual([seen.url, seen.auth, seen.body?.metadata.name], ['/api/v1/namespaces/plat-system/secrets', undefined, `bootstrap-token-${id}`]);
    } finally {
      server.close();
    }
  });
});
