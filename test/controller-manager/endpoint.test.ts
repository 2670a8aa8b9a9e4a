// The controller manager's HTTPS endpoint with delegated authentication and authorization against
// a real plat API server: health paths open to anyone, every other path decided by a
// SubjectAccessReview (system:masters excepted), tokens checked by TokenReview, client
// certificates by the client CA (given, or looked up in extension-apiserver-authentication),
// failed credentials 401, answers cached for the TTLs.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Attributes } from '../../core/authz/attributes.js';
import type { Plugin } from '../../core/plugin.js';
import { makeCa, makeClientCert } from '../helpers/certs.js';
import { freePort, startInProcess, tempDir, type Client, type RunningPlat } from '../helpers/plat.js';
import { tableAuthorizer } from '../helpers/table-authorizer.js';
import { ConfigMapsForTests } from './fixtures/configmaps.js';
import { platCa, startControllerManager, writeKubeconfig, type RunningControllerManager } from './support.js';

const TOKENS = ['alice-token,alice,1', 'bob-token,bob,2', 'carol-token,carol,3', 'root-token,root,4,"system:masters"'].join('\n') + '\n';

/**
 * Counts the API server's authorization questions that match, without an opinion of its own; taps
 * ahead even of the system:masters allow, since the controller manager reviews tokens as the admin.
 */
function countingAuthorizer(match: (a: Attributes) => boolean): { plugin: Plugin; count: () => number } {
  let n = 0;
  return {
    count: () => n,
    plugin: { name: 'CountingAuthorizerForTests', apply(host) { host.hooks.authorize.tap({ name: 'CountingAuthorizerForTests', stage: -Infinity }, (a) => { if (match(a)) n++; return undefined; }); } },
  };
}

describe('controller manager endpoint', () => {
  const dir = tempDir();
  const sars = countingAuthorizer((a) => !a.isResourceRequest && a.path === '/cached' && a.user.name === 'alice');
  const reviews = countingAuthorizer((a) => a.resource === 'tokenreviews');
  let plat: RunningPlat;
  let admin: string;
  let cm: RunningControllerManager;
  const started: RunningControllerManager[] = [];

  const start = async (args: string[]) => {
    const r = await startControllerManager(['--platconfig', admin, '--leader-elect=false', '--bind-address', '127.0.0.1', '--secure-port', String(await freePort()), ...args]);
    started.push(r);
    return r;
  };
  const as = (c: RunningControllerManager, creds: Parameters<Client['with']>[0]): Client => c.anonymous.with(creds);

  before(async () => {
    const tokenFile = path.join(dir, 'tokens.csv');
    writeFileSync(tokenFile, TOKENS);
    plat = await startInProcess({
      args: ['--token-auth-file', tokenFile, '--authorization-mode', 'AlwaysDeny'],
      plugins: [sars.plugin, reviews.plugin, ConfigMapsForTests, tableAuthorizer([
        { group: 'system:masters', decision: 'allow' },
        { user: 'alice', path: '/metrics', verb: 'get', decision: 'allow' },
        { user: 'bob', path: '/metrics', decision: 'deny', reason: 'bob may not' },
        { user: 'alice', path: '/api/v1/nodes/n1', verb: 'delete', decision: 'allow' },
      ])],
    });
    admin = writeKubeconfig(plat, path.join(dir, 'admin.conf'), 'admin');
    cm = await start(['--authentication-kubeconfig', admin, '--authorization-kubeconfig', admin, '--client-ca-file', path.join(plat.dataDir, 'pki', 'ca.crt')]);
  });
  after(async () => {
    for (const c of started) await c.stop();
    await plat?.stop();
  });

  it('answers each caller as upstream does', async () => {
    const ca = platCa(plat);
    const aliceCert = makeClientCert(ca, 'alice');
    const stranger = makeClientCert(makeCa({ commonName: 'elsewhere' }), 'alice');
    const adminCert = { cert: readFileSync(path.join(plat.dataDir, 'pki', 'admin.crt'), 'utf8'), key: readFileSync(path.join(plat.dataDir, 'pki', 'admin.key'), 'utf8') };
    const cases: { name: string; client: Client; method?: 'DELETE'; path: string; status: number; body?: RegExp }[] = [
      { name: 'anonymous /healthz', client: cm.anonymous, path: '/healthz', status: 200, body: /^ok$/ },
      // Always allowed; not in kube-controller-manager, installed as kube-scheduler installs them.
      { name: 'anonymous /readyz', client: cm.anonymous, path: '/readyz', status: 200, body: /^ok$/ },
      { name: 'anonymous /livez', client: cm.anonymous, path: '/livez', status: 200, body: /^ok$/ },
      { name: 'anonymous /readyz/<check> (only the exact paths are open)', client: cm.anonymous, path: '/readyz/certificatesigningrequest-approving-controller', status: 403,
        body: /cannot get path \\"\/readyz\/certificatesigningrequest-approving-controller\\"/ },
      { name: 'anonymous /healthz/ping (only the exact paths are open)', client: cm.anonymous, path: '/healthz/ping', status: 403,
        body: /forbidden: User \\"system:anonymous\\" cannot get path \\"\/healthz\/ping\\": Everything is forbidden\./ },
      { name: 'anonymous /metrics', client: cm.anonymous, path: '/metrics', status: 403, body: /User \\"system:anonymous\\" cannot get path \\"\/metrics\\"/ },
      { name: 'alice by token, allowed by the SubjectAccessReview', client: as(cm, { token: 'alice-token' }), path: '/metrics', status: 200, body: /^# HELP / },
      { name: 'bob by token, denied with a reason', client: as(cm, { token: 'bob-token' }), path: '/metrics', status: 403, body: /User \\"bob\\" cannot get path \\"\/metrics\\": bob may not/ },
      { name: 'system:masters by token, no review needed', client: as(cm, { token: 'root-token' }), path: '/debug/flags', status: 200, body: /full flags configurable/ },
      { name: 'an unknown token, even on an open path', client: as(cm, { token: 'nobody-token' }), path: '/healthz', status: 401, body: /"reason":"Unauthorized"/ },
      { name: 'the admin client certificate (system:masters)', client: as(cm, adminCert), path: '/metrics', status: 200 },
      { name: 'alice by client certificate', client: as(cm, { cert: aliceCert.certificatePem, key: aliceCert.privateKeyPem }), path: '/metrics', status: 200 },
      { name: 'a certificate of another CA', client: as(cm, { cert: stranger.certificatePem, key: stranger.privateKeyPem }), path: '/healthz', status: 401 },
      // No API prefixes here (upstream's RequestInfoFactory{}): /api and /apis are plain paths too.
      { name: 'anonymous under /apis, a plain path', client: cm.anonymous, path: '/apis/certificates.platform/v1/certificatesigningrequests', status: 403,
        body: /"message":"forbidden: User \\"system:anonymous\\" cannot get path \\"\/apis\/certificates.platform\/v1\/certificatesigningrequests\\": Everything is forbidden\.","reason":"Forbidden","details":\{\},"code":403/ },
      { name: 'alice deleting under /api, reviewed as the path with verb delete', client: as(cm, { token: 'alice-token' }), method: 'DELETE', path: '/api/v1/nodes/n1', status: 404 },
      { name: 'alice getting the same path', client: as(cm, { token: 'alice-token' }), path: '/api/v1/nodes/n1', status: 403, body: /cannot get path \\"\/api\/v1\/nodes\/n1\\"/ },
    ];
    for (const c of cases) {
      const r = c.method === 'DELETE' ? await c.client.delete(c.path) : await c.client.get(c.path);
      assert.equal(r.status, c.status, `${c.name}: ${r.text}`);
      if (c.body) assert.match(r.text, c.body, c.name);
    }
  });

  it('serves the component checks at the exact /healthz, with ?verbose and ?exclude', async () => {
    const root = as(cm, { token: 'root-token' });
    // One check per running controller under upstream's name; ping only while there is none
    // (healthz.InstallHandler), here never: csrsigning has no CA and is skipped.
    const verbose = await root.get('/healthz?verbose');
    assert.equal(verbose.status, 200);
    assert.equal(verbose.text, '[+]certificatesigningrequest-approving-controller ok\n[+]certificatesigningrequest-cleaner-controller ok\n[+]namespace-controller ok\n[+]serviceaccount-controller ok\n[+]garbage-collector-controller ok\n[+]clusterrole-aggregation-controller ok\n[+]node-lifecycle-controller ok\n[+]legacy-serviceaccount-token-cleaner-controller ok\nhealthz check passed\n');
    const excluded = await root.get('/healthz?verbose&exclude=zeta&exclude=certificatesigningrequest-cleaner-controller&exclude=alpha');
    assert.equal(excluded.text, '[+]certificatesigningrequest-approving-controller ok\n[+]certificatesigningrequest-cleaner-controller excluded: ok\n'
      + '[+]namespace-controller ok\n[+]serviceaccount-controller ok\n[+]garbage-collector-controller ok\n[+]clusterrole-aggregation-controller ok\n[+]node-lifecycle-controller ok\n[+]legacy-serviceaccount-token-cleaner-controller ok\nwarn: some health checks cannot be excluded: no matches for "alpha","zeta"\nhealthz check passed\n');
    // The handler is mounted at /healthz alone: its per-check paths are never reached.
    for (const p of ['/healthz/certificatesigningrequest-approving-controller', '/healthz/leaderElection', '/healthz/nosuchcheck', '/healthz/ping']) {
      assert.deepEqual(await root.get(p).then((r) => [r.status, r.text]), [404, '404 page not found\n'], p);
    }
  });

  it('serves /readyz with the /healthz checks and /livez with ping, each with its per-check paths (kube-scheduler\'s handlers)', async () => {
    const root = as(cm, { token: 'root-token' });
    const answer = (p: string) => root.get(p).then((r) => [r.status, r.text]);
    assert.deepEqual(await answer('/readyz?verbose'), [200,
      '[+]certificatesigningrequest-approving-controller ok\n[+]certificatesigningrequest-cleaner-controller ok\n[+]namespace-controller ok\n[+]serviceaccount-controller ok\n[+]garbage-collector-controller ok\n[+]clusterrole-aggregation-controller ok\n[+]node-lifecycle-controller ok\n[+]legacy-serviceaccount-token-cleaner-controller ok\nreadyz check passed\n']);
    assert.deepEqual(await answer('/readyz?verbose&exclude=certificatesigningrequest-cleaner-controller'), [200,
      '[+]certificatesigningrequest-approving-controller ok\n[+]certificatesigningrequest-cleaner-controller excluded: ok\n[+]namespace-controller ok\n[+]serviceaccount-controller ok\n[+]garbage-collector-controller ok\n[+]clusterrole-aggregation-controller ok\n[+]node-lifecycle-controller ok\n[+]legacy-serviceaccount-token-cleaner-controller ok\nreadyz check passed\n']);
    assert.deepEqual(await answer('/livez?verbose'), [200, '[+]ping ok\nlivez check passed\n']);
    assert.deepEqual(await answer('/readyz/certificatesigningrequest-approving-controller'), [200, 'ok']);
    assert.deepEqual(await answer('/livez/ping'), [200, 'ok']);
    for (const p of ['/readyz/nosuchcheck', '/readyz/ping', '/livez/certificatesigningrequest-approving-controller', '/livez/', '/readyz/a/b']) {
      assert.deepEqual(await answer(p), [404, '404 page not found\n'], p);
    }
  });

  it('serves ping alone while no controller has a check, as upstream before its controllers start', async () => {
    const idle = await start(['--controllers=']);
    const verbose = await as(idle, { token: 'root-token' }).get('/healthz?verbose');
    assert.equal(verbose.text, '[+]ping ok\nhealthz check passed\n');
  });

  it('caches SubjectAccessReview and TokenReview answers for their TTLs', async () => {
    const alice = as(cm, { token: 'alice-token' });
    const before = sars.count();
    assert.equal((await alice.get('/cached')).status, 403);
    assert.equal((await alice.get('/cached')).status, 403);
    assert.equal(sars.count() - before, 1, 'one review for two identical questions');

    const uncached = await start(['--authentication-kubeconfig', admin, '--authorization-kubeconfig', admin,
      '--authorization-webhook-cache-unauthorized-ttl=0', '--authentication-token-webhook-cache-ttl=0']);
    const again = sars.count();
    const tokens = reviews.count();
    assert.equal((await as(uncached, { token: 'alice-token' }).get('/cached')).status, 403);
    assert.equal((await as(uncached, { token: 'alice-token' }).get('/cached')).status, 403);
    assert.equal(sars.count() - again, 2, 'no cache with a TTL of 0');
    assert.equal(reviews.count() - tokens, 2, 'each request reviews its token');

    const carol = reviews.count();
    assert.equal((await as(cm, { token: 'carol-token' }).get('/metrics')).status, 403);
    assert.equal((await as(cm, { token: 'carol-token' }).get('/metrics')).status, 403);
    assert.equal(reviews.count() - carol, 1, 'one token review for two requests');
  });

  it('asks for a client certificate only when it has a CA to check it against, as Go\'s server', async () => {
    // openssl prints the certificate types of a CertificateRequest; without one, there are none.
    const handshake = (url: string) => new Promise<string>((resolve, reject) => {
      const p = spawn('openssl', ['s_client', '-tls1_2', '-connect', new URL(url).host], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      p.stdout.on('data', (d: Buffer) => { out += d; });
      p.stderr.on('data', (d: Buffer) => { out += d; });
      p.on('error', reject);
      p.on('close', () => resolve(out));
    });
    const withCa = await handshake(cm.url);
    assert.match(withCa, /Acceptable client certificate CA names/);
    assert.match(withCa, /Client Certificate Types/);
    const bare = await start([]);
    const without = await handshake(bare.url);
    assert.match(without, /Cipher is/, without);
    assert.doesNotMatch(without, /Client Certificate Types/);
  });

  it('with --secure-port=0 loads none of the endpoint\'s authentication and authorization files, as upstream', async () => {
    const missing = path.join(dir, 'missing');
    const off = await startControllerManager(['--platconfig', admin, '--leader-elect=false', '--secure-port=0',
      '--authentication-kubeconfig', missing, '--authorization-kubeconfig', missing, '--client-ca-file', missing, '--requestheader-client-ca-file', missing]);
    started.push(off);
    assert.equal(off.url, '');
  });

  it('forbids everything but the open paths without --authorization-kubeconfig, and ignores tokens without --authentication-kubeconfig', async () => {
    const bare = await start([]);
    assert.equal((await bare.anonymous.get('/healthz')).status, 200);
    const r = await as(bare, { token: 'root-token' }).get('/metrics');
    assert.equal(r.status, 403);
    assert.match(r.text, /forbidden: User \\"system:anonymous\\" cannot get path \\"\/metrics\\""/);
    assert.ok(bare.logs.some((l) => l.includes('No authentication-kubeconfig provided in order to lookup client-ca-file in configmap/extension-apiserver-authentication in plat-system')));
    assert.ok(bare.logs.some((l) => l.includes('No authorization-kubeconfig provided')));

    const noAuthz = await start(['--authentication-kubeconfig', admin]);
    const alice = await as(noAuthz, { token: 'alice-token' }).get('/metrics');
    assert.equal(alice.status, 403);
    assert.match(alice.text, /forbidden: User \\"alice\\" cannot get path \\"\/metrics\\""/);

    // Paths under /apis are plain paths, so an always-allowed prefix opens them as any other.
    const open = await start(['--authorization-always-allow-paths=/healthz,/apis/*']);
    const apis = await open.anonymous.get('/apis/certificates.platform/v1/certificatesigningrequests');
    assert.equal(apis.status, 404, apis.text);
    assert.equal((await open.anonymous.get('/api/v1/nodes')).status, 403);
  });

  it('looks the client CA up in extension-apiserver-authentication unless told not to', async () => {
    const adminCert = { cert: readFileSync(path.join(plat.dataDir, 'pki', 'admin.crt'), 'utf8'), key: readFileSync(path.join(plat.dataDir, 'pki', 'admin.key'), 'utf8') };
    const nothingPublished = await start(['--authentication-kubeconfig', admin, '--authorization-kubeconfig', admin]);
    assert.ok(nothingPublished.logs.some((l) => l.includes("Cluster doesn't provide client-ca-file in configmap/extension-apiserver-authentication in plat-system")));
    assert.equal((await as(nothingPublished, adminCert).get('/metrics')).status, 403, 'no client CA: the certificate is no credential');

    const created = await plat.admin.post('/api/v1/namespaces/plat-system/configmaps', {
      apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'extension-apiserver-authentication' },
      data: { 'client-ca-file': readFileSync(path.join(plat.dataDir, 'pki', 'ca.crt'), 'utf8') },
    });
    assert.equal(created.status, 201, created.text);
    const lookedUp = await start(['--authentication-kubeconfig', admin, '--authorization-kubeconfig', admin]);
    assert.equal((await as(lookedUp, adminCert).get('/metrics')).status, 200, 'the published CA verifies the admin certificate');
    const skipped = await start(['--authentication-kubeconfig', admin, '--authorization-kubeconfig', admin, '--authentication-skip-lookup']);
    assert.equal((await as(skipped, adminCert).get('/metrics')).status, 403);

    const bob = writeKubeconfig(plat, path.join(dir, 'bob.conf'), { token: 'bob-token' });
    await assert.rejects(start(['--authentication-kubeconfig', bob]),
      /unable to load configmap based request-header-client-ca-file: .*configmaps "extension-apiserver-authentication" is forbidden/);
    // An API server that cannot be reached: client-go's error text, naming the ConfigMap's URL.
    const closed = await freePort();
    const unreachable = path.join(dir, 'unreachable.conf');
    writeFileSync(unreachable, readFileSync(bob, 'utf8').replace(new URL(plat.url).port, String(closed)));
    await assert.rejects(start(['--authentication-kubeconfig', unreachable]), new RegExp('unable to load configmap based request-header-client-ca-file: '
      + `Get "https://127\\.0\\.0\\.1:${closed}/api/v1/namespaces/plat-system/configmaps/extension-apiserver-authentication[^"]*": dial tcp 127\\.0\\.0\\.1:${closed}: connect: connection refused`));
    const tolerant = await start(['--authentication-kubeconfig', bob, '--authentication-tolerate-lookup-failure']);
    assert.ok(tolerant.logs.some((l) => l.includes('Continuing without authentication configuration. This may treat all requests as anonymous.')));
    assert.equal((await tolerant.anonymous.get('/healthz')).status, 200);
  });
});
