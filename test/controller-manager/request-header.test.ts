// Request-header authentication on the controller manager's endpoint against a real plat API
// server: identity headers are believed only from a client certificate of the request-header CA
// (and an allowed CommonName), given by --requestheader-* or looked up in
// extension-apiserver-authentication; the identity reaches the SubjectAccessReview the endpoint
// sends (user, uid, groups, extra). Everyone else's identity headers are ignored.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Attributes } from '../../core/authz/attributes.js';
import type { Plugin } from '../../core/plugin.js';
import { makeCa, makeClientCert, type TestCredential } from '../helpers/certs.js';
import { freePort, startInProcess, tempDir, type Client, type RunningPlat } from '../helpers/plat.js';
import { tableAuthorizer } from '../helpers/table-authorizer.js';
import { ConfigMapsForTests } from './fixtures/configmaps.js';
import { platCa, startControllerManager, writeKubeconfig, type RunningControllerManager } from './support.js';

/** Records who the API server was asked about for path /whoami, with no opinion of its own. */
function recordingAuthorizer(): { plugin: Plugin; asked: Attributes['user'][] } {
  const asked: Attributes['user'][] = [];
  return {
    asked,
    plugin: { name: 'WhoAmIForTests', apply(host) { host.hooks.authorize.tap({ name: 'WhoAmIForTests', stage: -Infinity }, (a) => { if (!a.isResourceRequest && a.path === '/whoami') asked.push(a.user); return undefined; }); } },
  };
}

const pair = (c: TestCredential) => ({ cert: c.certificatePem, key: c.privateKeyPem });

describe('controller manager endpoint: request-header authentication', () => {
  const dir = tempDir();
  const who = recordingAuthorizer();
  const proxyCa = makeCa({ commonName: 'front-proxy-ca' });
  const proxyCaFile = path.join(dir, 'front-proxy-ca.crt');
  const proxy = makeClientCert(proxyCa, 'front-proxy-client');
  const otherProxy = makeClientCert(proxyCa, 'someone-else');
  let plat: RunningPlat;
  let admin: string;
  let cm: RunningControllerManager;
  const started: RunningControllerManager[] = [];

  const start = async (args: string[]) => {
    const r = await startControllerManager(['--platconfig', admin, '--leader-elect=false', '--bind-address', '127.0.0.1', '--secure-port', String(await freePort()),
      '--authentication-kubeconfig', admin, '--authorization-kubeconfig', admin, ...args]);
    started.push(r);
    return r;
  };
  const as = (c: RunningControllerManager, creds: Parameters<Client['with']>[0]): Client => c.anonymous.with(creds);

  before(async () => {
    writeFileSync(proxyCaFile, proxyCa.certificatePem);
    plat = await startInProcess({
      args: ['--authorization-mode', 'AlwaysDeny'],
      plugins: [who.plugin, ConfigMapsForTests, tableAuthorizer([
        { group: 'system:masters', decision: 'allow' },
        { user: 'alice', path: '/metrics', verb: 'get', decision: 'allow' },
      ])],
    });
    admin = writeKubeconfig(plat, path.join(dir, 'admin.conf'), 'admin');
    cm = await start(['--client-ca-file', path.join(plat.dataDir, 'pki', 'ca.crt'),
      '--requestheader-client-ca-file', proxyCaFile, '--requestheader-allowed-names', 'front-proxy-client', '--requestheader-uid-headers', 'X-Remote-Uid']);
  });
  after(async () => {
    for (const c of started) await c.stop();
    await plat?.stop();
  });

  it('believes identity headers from the allowed front proxy only', async () => {
    const carol = makeClientCert(platCa(plat), 'carol');
    const headers = { 'X-Remote-User': 'alice', 'X-Remote-Group': 'team-a', 'X-Remote-Extra-Scopes': 'read' };
    const cases: { name: string; client: Client; headers?: Record<string, string>; path: string; status: number; body?: RegExp }[] = [
      { name: 'the front proxy asserting alice', client: as(cm, pair(proxy)), headers, path: '/metrics', status: 200, body: /^# HELP / },
      { name: 'the front proxy asserting system:masters', client: as(cm, pair(proxy)), headers: { 'X-Remote-User': 'mallory', 'X-Remote-Group': 'system:masters' }, path: '/debug/flags', status: 200 },
      { name: 'a proxy certificate whose CN is not allowed', client: as(cm, pair(otherProxy)), headers, path: '/healthz', status: 401, body: /"reason":"Unauthorized"/ },
      { name: 'the front proxy naming nobody (its certificate is no client certificate)', client: as(cm, pair(proxy)), path: '/healthz', status: 401 },
      { name: 'headers from an ordinary client certificate are ignored', client: as(cm, pair(carol)), headers, path: '/metrics', status: 403, body: /User \\"carol\\" cannot get path \\"\/metrics\\"/ },
      { name: 'headers without a certificate are ignored', client: cm.anonymous, headers, path: '/metrics', status: 403, body: /User \\"system:anonymous\\" cannot get path/ },
    ];
    for (const c of cases) {
      const r = await c.client.get(c.path, c.headers);
      assert.equal(r.status, c.status, `${c.name}: ${r.text}`);
      if (c.body) assert.match(r.text, c.body, c.name);
    }
  });

  it('sends the asserted user, uid, groups and extra in the SubjectAccessReview', async () => {
    const r = await as(cm, pair(proxy)).get('/whoami', { 'X-Remote-User': 'dave', 'X-Remote-Uid': 'dave-uid', 'X-Remote-Group': 'team-d', 'X-Remote-Extra-Acme.com%2Fproject': 'p1' });
    assert.equal(r.status, 403);
    const asked = who.asked.at(-1);
    assert.equal(asked?.name, 'dave');
    assert.equal(asked?.uid, 'dave-uid');
    assert.deepEqual(asked?.groups, ['team-d', 'system:authenticated']);
    assert.deepEqual(asked?.extra, { 'acme.com/project': ['p1'] });
  });

  it('looks the request-header settings up in extension-apiserver-authentication', async () => {
    const nothing = await start([]);
    assert.ok(nothing.logs.some((l) => l.includes("Cluster doesn't provide requestheader-client-ca-file in configmap/extension-apiserver-authentication in plat-system, so request-header client certificate authentication won't work.")));
    const ignored = await as(nothing, pair(proxy)).get('/metrics', { 'X-Remote-User': 'alice' });
    assert.equal(ignored.status, 403, 'nothing published: neither the certificate nor the headers are credentials');
    assert.match(ignored.text, /User \\"system:anonymous\\" cannot get path/);

    const created = await plat.admin.post('/api/v1/namespaces/plat-system/configmaps', {
      apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'extension-apiserver-authentication' },
      data: {
        'requestheader-client-ca-file': proxyCa.certificatePem,
        'requestheader-username-headers': '["X-Proxy-User"]', 'requestheader-group-headers': '["X-Proxy-Group"]',
        'requestheader-extra-headers-prefix': '["X-Proxy-Extra-"]', 'requestheader-allowed-names': '["front-proxy-client"]',
      },
    });
    assert.equal(created.status, 201, created.text);
    const lookedUp = await start([]);
    assert.equal((await as(lookedUp, pair(proxy)).get('/metrics', { 'X-Proxy-User': 'alice' })).status, 200, 'the published header names are used');
    assert.equal((await as(lookedUp, pair(proxy)).get('/metrics', { 'X-Remote-User': 'alice' })).status, 403, 'the default header names are not (anonymous)');
    assert.equal((await as(lookedUp, pair(otherProxy)).get('/healthz', { 'X-Proxy-User': 'alice' })).status, 401, 'the published allowed names apply');
    // Upstream's warning is RequestHeaderAuthenticationOptions.Validate's, about the flags; the
    // ConfigMap's names are the API server's, which warned of them itself.
    assert.ok(!lookedUp.logs.some((l) => l.includes('API aggregation will not work')), 'no warning about published names');

    const flagsWin = await start(['--requestheader-client-ca-file', proxyCaFile]);
    assert.equal((await as(flagsWin, pair(otherProxy)).get('/metrics', { 'X-Remote-User': 'alice' })).status, 200, 'flags are not overridden by the published settings');
    assert.equal((await as(flagsWin, pair(otherProxy)).get('/whoami', { 'X-Remote-User': 'erin', 'X-Remote-Uid': 'erin-uid' })).status, 403);
    assert.deepEqual([who.asked.at(-1)?.name, who.asked.at(-1)?.uid], ['erin', undefined], 'no uid headers unless named');

    const otherUid = await start(['--requestheader-client-ca-file', proxyCaFile, '--requestheader-uid-headers', 'X-Proxy-Uid']);
    assert.ok(otherUid.logs.some((l) => l.includes('--requestheader-uid-headers is set without specifying the standard X-Remote-Uid header - API aggregation will not work')));
    assert.equal((await as(otherUid, pair(proxy)).get('/whoami', { 'X-Remote-User': 'erin', 'X-Proxy-Uid': 'erin-uid' })).status, 403);
    assert.equal(who.asked.at(-1)?.uid, 'erin-uid');

    const bad = await plat.admin.put('/api/v1/namespaces/plat-system/configmaps/extension-apiserver-authentication', {
      ...created.json, data: { ...created.json.data, 'requestheader-group-headers': 'X-Proxy-Group' },
    });
    assert.equal(bad.status, 200, bad.text);
    await assert.rejects(start([]), /unable to load configmap based request-header-client-ca-file: requestheader-group-headers of configmap\/extension-apiserver-authentication in plat-system: /);
  });

  it('refuses bad request-header flags at start-up', async () => {
    const cases: [string[], RegExp][] = [
      [['--requestheader-client-ca-file', path.join(dir, 'missing.crt')], /unable to create request header authentication config: open .*missing\.crt: no such file or directory$/],
      [['--requestheader-uid-headers', 'X-Remote-Uid, '], /empty value in "requestheader-uid-headers"/],
      [['--requestheader-username-headers', 'X-Remote-User, '], /empty value in "requestheader-username-headers"/],
    ];
    for (const [args, message] of cases) await assert.rejects(start(args), message, args.join(' '));
  });
});
