// A uid, groups or extras to impersonate without a user to impersonate: clientcmd's
// validateAuthInfo makes the configuration unusable, so kubectl refuses before sending anything
// (`requesting uid, groups or user-extra for u without impersonating a user`, exit 1), whether they
// come from --as-group/--as-uid or from the kubeconfig user's as-groups/as-uid/as-user-extra.
import assert from 'node:assert/strict';
import http from 'node:http';
import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadKubeconfigs } from '../../core/client/kubeconfig.js';
import { runPlatAsync } from '../helpers/run-plat.js';
import { tempDir } from '../helpers/plat.js';

const SSAR = '/apis/authorization.platform/v1/selfsubjectaccessreviews';
const NO_ENV = { env: { PLATCONFIG: '', KUBECONFIG: '' } };

describe('impersonating a uid, groups or extras without a user', () => {
  let server: http.Server;
  let port: number;
  const seen: { url: string; headers: http.IncomingHttpHeaders }[] = [];

  before(async () => {
    server = http.createServer((req, res) => {
      seen.push({ url: req.url ?? '', headers: req.headers });
      const json = (code: number, body: unknown) => res.writeHead(code, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.url === '/api/v1') return json(200, { kind: 'APIResourceList', groupVersion: 'v1', resources: [{ name: 'pods', kind: 'Pod', namespaced: true }] });
      if (req.url === '/apis') return json(200, { kind: 'APIGroupList', groups: [] });
      if (req.url === SSAR) return req.resume().on('end', () => json(201, { kind: 'SelfSubjectAccessReview', status: { allowed: true } }));
      json(404, { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404 });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as AddressInfo).port;
  });
  after(() => { server.close(); });

  /** A kubeconfig for the fake server; `user` is the user entry's fields, `contextUser` the context's user. */
  const kubeconfig = (user: string, contextUser = 'u'): string => {
    const file = path.join(tempDir(), 'imp.conf');
    writeFileSync(file, `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "http://127.0.0.1:${port}"}}]
users: [{name: u, user: {${user}}}]
contexts: [{name: x, context: {cluster: c${contextUser ? `, user: ${contextUser}` : ''}}}]
current-context: x
`);
    return file;
  };
  const problem = (name: string) => `requesting uid, groups or user-extra for ${name} without impersonating a user`;

  it('plat auth can-i --as-group or --as-uid without --as: refused before any request, exit 1', async () => {
    const conf = kubeconfig('token: t');
    for (const flags of [['--as-group', 'devs'], ['--as-uid', '42'], ['--as-group', 'a', '--as-group', 'b', '--as-uid', '1']]) {
      seen.length = 0;
      const r = await runPlatAsync(['auth', 'can-i', 'get', 'pods', ...flags, '--kubeconfig', conf], NO_ENV);
      assert.deepEqual([r.code, r.stdout, r.stderr], [1, '', `plat auth can-i: kubeconfig ${conf}: invalid configuration: ${problem('u')}\n`], flags.join(' '));
      assert.deepEqual(seen, [], flags.join(' '));
    }
  });

  it('with --as they are sent (Impersonate-User, -Group, -Uid)', async () => {
    seen.length = 0;
    const r = await runPlatAsync(['auth', 'can-i', 'get', 'pods', '--as', 'bob', '--as-group', 'devs', '--as-uid', '42', '--kubeconfig', kubeconfig('token: t')], NO_ENV);
    assert.deepEqual([r.code, r.stdout], [0, 'yes\n'], r.stderr);
    const review = seen.find((s) => s.url === SSAR)!;
    assert.deepEqual([review.headers['impersonate-user'], review.headers['impersonate-group'], review.headers['impersonate-uid']], ['bob', 'devs', '42']);
  });

  it('the kubeconfig user\'s own as-groups, as-uid or as-user-extra without as: the same refusal, for plat csr and plat token too', async () => {
    for (const fields of ['token: t, as-groups: [g]', 'token: t, as-uid: "7"', 'token: t, as-user-extra: {k: [v]}']) {
      const conf = kubeconfig(fields);
      seen.length = 0;
      for (const [cmd, prefix] of [[['csr', 'list'], 'plat csr list'], [['token', 'create'], 'plat token create'], [['auth', 'can-i', 'get', 'pods'], 'plat auth can-i']] as const) {
        const r = await runPlatAsync([...cmd, '--kubeconfig', conf], NO_ENV);
        assert.equal(r.code, 1, `${fields} ${prefix}: ${r.stderr}`);
        assert.equal(r.stderr, `${prefix}: kubeconfig ${conf}: invalid configuration: ${problem('u')}\n`, fields);
      }
      assert.deepEqual(seen, [], fields);
    }
  });

  it('clientcmd\'s name for the user (the context\'s, --user\'s, or none) and its place among the other problems', () => {
    // A context naming no user: the name is empty, as kubectl prints it (`for  without`).
    assert.throws(() => loadKubeconfigs([kubeconfig('token: t', '')], { impersonate: { groups: ['g'] } }), { message: `invalid configuration: ${problem('')}` });
    // After the user's own problems, before the cluster's (validateAuthInfo, then validateClusterInfo).
    const file = path.join(tempDir(), 'two.conf');
    writeFileSync(file, `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {insecure-skip-tls-verify: true}}]
users: [{name: u, user: {client-certificate-data: eA==, as-uid: "1"}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x
`);
    assert.throws(() => loadKubeconfigs([file]), {
      message: `invalid configuration: [client-key-data or client-key must be specified for u to use the clientCert authentication method., ${problem('u')}, no server found for cluster "c"]`,
    });
    // --as over the file's groups makes it usable; --as-group over the file's user too.
    assert.deepEqual(loadKubeconfigs([kubeconfig('token: t, as-groups: [g]')], { impersonate: { user: 'bob' } }).impersonate, { user: 'bob', uid: '', groups: ['g'], extra: {} });
    assert.deepEqual(loadKubeconfigs([kubeconfig('token: t, as: bob')], { impersonate: { groups: ['g'] } }).impersonate, { user: 'bob', uid: '', groups: ['g'], extra: {} });
    assert.equal(loadKubeconfigs([kubeconfig('token: t')], { impersonate: { user: 'bob', groups: ['g'], uid: '1' } }).server.port, String(port));
  });

  it('an empty as-groups, as-user-extra or as is no impersonation, as Go reads it (len 0): the kubeconfig is used', async () => {
    for (const fields of ['token: t, as-groups: []', 'token: t, as-user-extra: {}', 'token: t, as: ""', 'token: t, as-groups: [], as-user-extra: {}, as-uid: ""']) {
      seen.length = 0;
      const r = await runPlatAsync(['auth', 'can-i', 'get', 'pods', '--kubeconfig', kubeconfig(fields)], NO_ENV);
      assert.deepEqual([r.code, r.stdout], [0, 'yes\n'], `${fields}: ${r.stderr}`);
      assert.equal(seen.find((s) => s.url === SSAR)?.headers['impersonate-group'], undefined, fields);
    }
  });
});
