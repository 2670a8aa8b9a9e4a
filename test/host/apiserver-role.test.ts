// `plat apiserver` with the spec's defaults for serving: a self-signed certificate generated into
// --cert-dir and reused on restart, static-token and anonymous authentication, AlwaysDeny.
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { baseCsr, fixtures } from '../certificates/fixtures.js';
import { Client, freePort, repoRoot, tempDir } from '../helpers/plat.js';
import { startPlat } from '../helpers/run-plat.js';
import { makeCa } from '../helpers/certs.js';
import { clientCertificateRequest } from '../helpers/tls-probe.js';

const P = '/apis/certificates.platform/v1/certificatesigningrequests';

async function apiserver(dir: string, extra: string[] = []) {
  const port = await freePort();
  const proc = await startPlat(['apiserver', '--data-dir', path.join(dir, 'data'), '--cert-dir', path.join(dir, 'certs'),
    '--bind-address', '127.0.0.1', '--secure-port', String(port), ...extra], /Serving securely on/);
  const ca = readFileSync(path.join(dir, 'certs', 'apiserver.crt'), 'utf8');
  return { proc, ca, client: new Client(`https://127.0.0.1:${port}`, { ca }) };
}

/** An ABAC policy allowing every user, authenticated or not, everything. */
function writePolicy(dir: string): string {
  const file = path.join(dir, 'abac.jsonl');
  const rule = (group: string) => JSON.stringify({ apiVersion: 'abac.authorization.platform/v1beta1', kind: 'Policy', spec: { group, namespace: '*', resource: '*', apiGroup: '*', nonResourcePath: '*' } });
  writeFileSync(file, `${rule('system:authenticated')}\n${rule('system:unauthenticated')}\n`);
  return file;
}

describe('plat apiserver', () => {
  const fx = fixtures();

  it('serves with a self-signed certificate kept in --cert-dir and reused on restart', async () => {
    const dir = tempDir();
    const first = await apiserver(dir);
    const key = readFileSync(path.join(dir, 'certs', 'apiserver.key'));
    // The pair verifies; the answer is 401 as anonymous access is off with AlwaysAllow (below).
    assert.equal((await first.client.get('/healthz')).status, 401);
    // As client-go's: valid from an hour back, for a year from then; made once, said once (upstream's line).
    const leaf = new X509Certificate(first.ca);
    assert.equal(Date.parse(leaf.validTo) - Date.parse(leaf.validFrom), 365 * 86_400_000);
    const generated = `Generated self-signed cert (${path.join(dir, 'certs', 'apiserver.crt')}, ${path.join(dir, 'certs', 'apiserver.key')})`;
    assert.ok(first.proc.output().includes(generated), first.proc.output());
    await first.proc.stop();
    const second = await apiserver(dir);
    try {
      assert.equal(second.ca, first.ca);
      assert.deepEqual(readFileSync(path.join(dir, 'certs', 'apiserver.key')), key);
      assert.ok(!second.proc.output().includes('Generated self-signed cert'), second.proc.output());
    } finally { await second.proc.stop(); }
  });

  it('asks clients for a certificate only with --client-ca-file or --requestheader-client-ca-file, naming both bundles\' CAs, as Go\'s server', async () => {
    const dir = tempDir();
    const bare = await apiserver(dir);
    try {
      assert.equal(await clientCertificateRequest(Number(new URL(bare.client.url).port)), undefined, 'no CertificateRequest without a CA');
    } finally { await bare.proc.stop(); }
    const [clientCa, proxyCa] = [makeCa({ commonName: 'client-ca' }), makeCa({ commonName: 'front-proxy-ca' })];
    writeFileSync(path.join(dir, 'client-ca.crt'), clientCa.certificatePem);
    writeFileSync(path.join(dir, 'proxy-ca.crt'), proxyCa.certificatePem);
    const withCas = await apiserver(dir, [`--client-ca-file=${path.join(dir, 'client-ca.crt')}`, `--requestheader-client-ca-file=${path.join(dir, 'proxy-ca.crt')}`,
      '--requestheader-username-headers=X-Remote-User']);
    try {
      const names = await clientCertificateRequest(Number(new URL(withCas.client.url).port));
      assert.ok(names?.includes('CN = client-ca') && names.includes('CN = front-proxy-ca'), `both CAs named: ${names}`);
    } finally { await withCas.proc.stop(); }
  });

  it('names the CAs a third-party authenticator adds through hooks.clientAuthorities (fixed, from plat)', async () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, 'node_modules'));
    symlinkSync(repoRoot, path.join(dir, 'node_modules', 'plat'), 'dir');
    const ca = makeCa({ commonName: 'plugin-client-ca' });
    writeFileSync(path.join(dir, 'ca-plugin.mjs'), [
      "import { X509Certificate } from 'node:crypto';",
      "import { fixed } from 'plat';",
      `const pem = ${JSON.stringify(ca.certificatePem)};`,
      "export default { name: 'PluginCa', apply(host) { host.hooks.clientAuthorities.tap('PluginCa', (a) => a.add(fixed([{ x509: new X509Certificate(pem) }]))); } };",
    ].join('\n'));
    writeFileSync(path.join(dir, 'plat.config.json'), JSON.stringify({ plugins: ['./ca-plugin.mjs'] }));
    const port = await freePort();
    const proc = await startPlat(['apiserver', '--data-dir', path.join(dir, 'data'), '--cert-dir', path.join(dir, 'certs'),
      '--bind-address', '127.0.0.1', '--secure-port', String(port)], /Serving securely on/, { cwd: dir });
    try {
      assert.equal(await clientCertificateRequest(port), 'CN = plugin-client-ca');
    } finally { await proc.stop(); }
  });

  it('warns, as etcd, about a store directory others may read, and keeps the store files 0600', async () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, 'data', 'store'), { recursive: true, mode: 0o755 });
    chmodSync(path.join(dir, 'data', 'store'), 0o755);
    const { proc } = await apiserver(dir);
    try {
      assert.match(proc.output(), /check file permission .*The recommended permission is \\"-rwx------\\"/);
      assert.equal(statSync(path.join(dir, 'data', 'store', 'data.mdb')).mode & 0o777, 0o600);
    } finally { await proc.stop(); }
  });

  it('with the default AlwaysAllow turns anonymous access off, with upstream\'s warning, as ApplyAuthorization does', async () => {
    const cases: { args: (dir: string) => string[]; anonymous: boolean }[] = [
      { args: () => [], anonymous: false },
      { args: () => ['--anonymous-auth=true'], anonymous: false },
      { args: (dir) => ['--authorization-mode=ABAC,AlwaysAllow', '--authorization-policy-file', writePolicy(dir)], anonymous: false },
      { args: () => ['--authorization-mode=AlwaysDeny'], anonymous: true },
    ];
    for (const { args: argsFor, anonymous } of cases) {
      const dir = tempDir();
      const args = argsFor(dir);
      const { proc, client } = await apiserver(dir, args);
      try {
        const r = await client.with({ anonymous: true }).get('/healthz');
        // AlwaysDeny answers the anonymous user 403; with anonymous access off, no credential is 401.
        assert.equal(r.status, anonymous ? 403 : 401, `${args.join(' ')}: ${r.text}`);
        assert.equal(/W\d{4} .*AnonymousAuth is not allowed with the AlwaysAllow authorizer\. Resetting AnonymousAuth to false\. You should use a different authorizer/.test(proc.output()), !anonymous, args.join(' '));
      } finally { await proc.stop(); }
    }
  });

  it('authenticates static tokens (constant-time), fails closed on a bad token, otherwise anonymous', async () => {
    const dir = tempDir();
    const tokens = path.join(dir, 'tokens.csv');
    writeFileSync(tokens, 's3cr3t-token,alice,alice-uid,"dev,ops"\n');
    // ABAC lets everyone, the anonymous user included, do everything: AlwaysAllow would switch anonymous off.
    const { proc, client } = await apiserver(dir, ['--token-auth-file', tokens, '--authorization-mode=ABAC', '--authorization-policy-file', writePolicy(dir)]);
    try {
      const created = await client.with({ token: 's3cr3t-token' }).post(P, baseCsr(fx, 'by-alice'));
      assert.equal(created.status, 201, created.text);
      assert.equal(created.json.spec.username, 'alice');
      assert.equal(created.json.spec.uid, 'alice-uid');
      assert.deepEqual(created.json.spec.groups, ['dev', 'ops', 'system:authenticated']);
      const bad = await client.with({ token: 'wrong-token-zzz' }).get(P);
      assert.equal(bad.status, 401);
      // The log says upstream's error (the token file has none, the bearer token authenticator's
      // default stands), never the token.
      await new Promise((r) => setTimeout(r, 50));
      assert.match(proc.output(), /^E.*\] Unable to authenticate the request err="invalid bearer token"$/m);
      assert.ok(!proc.output().includes('wrong-token-zzz'));
      assert.deepEqual(bad.json, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
      const anon = await client.with({ anonymous: true }).post(P, baseCsr(fx, 'by-anon'));
      assert.equal(anon.status, 201, anon.text);
      assert.equal(anon.json.spec.username, 'system:anonymous');
      assert.deepEqual(anon.json.spec.groups, ['system:unauthenticated']);
      assert.ok(!proc.output().includes('s3cr3t-token'), 'the token must not reach the log');
    } finally { await proc.stop(); }
  });

  it('with --anonymous-auth=false an unauthenticated request is 401, logged only from -v 2', async () => {
    for (const [v, logged] of [['0', false], ['2', true]] as const) {
      const dir = tempDir();
      const { proc, client } = await apiserver(dir, ['--anonymous-auth=false', `-v=${v}`]);
      try {
        assert.equal((await client.with({ anonymous: true }).get(P)).status, 401);
        await new Promise((r) => setTimeout(r, 50));
        assert.equal(/request not authenticated .*refusedBy=\["no credentials and anonymous access is off"\]/.test(proc.output()), logged, `-v=${v}`);
      } finally { await proc.stop(); }
    }
  });

  it('AlwaysDeny answers 403 with a Status that names the user, verb and resource', async () => {
    const dir = tempDir();
    const { proc, client } = await apiserver(dir, ['--authorization-mode=AlwaysDeny']);
    try {
      const r = await client.with({ anonymous: true }).get(P);
      assert.equal(r.status, 403);
      assert.equal(r.json.reason, 'Forbidden');
      assert.equal(r.json.message, 'certificatesigningrequests.certificates.platform is forbidden: User "system:anonymous" cannot list resource "certificatesigningrequests" in API group "certificates.platform" at the cluster scope: Everything is forbidden.');
      assert.deepEqual(r.json.details, { group: 'certificates.platform', kind: 'certificatesigningrequests' });
    } finally { await proc.stop(); }
  });
});
