// A kubeconfig user that impersonates (`as`, `as-uid`, `as-groups`, `as-user-extra`) has every
// request of plat's clients carry client-go's impersonation headers: one Impersonate-Group line per
// group, one Impersonate-Extra-<key> line per value with the key %-escaped as headerKeyEscape
// does, and a request that names its own Impersonate-User left alone (impersonatingRoundTripper).
import assert from 'node:assert/strict';
import http from 'node:http';
import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadKubeconfig } from '../../core/client/kubeconfig.js';
import { headerKeyEscape } from '../../core/client/impersonation-headers.js';
import { RestClient } from '../../core/client/rest-client.js';
import { WebhookClient } from '../../core/client/webhook-client.js';
import { tempDir } from '../helpers/plat.js';

/** The impersonation header lines of a request, in order, as [name, value] (names lower-cased). */
const impersonationLines = (raw: readonly string[]): [string, string][] => {
  const out: [string, string][] = [];
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase().startsWith('impersonate-')) out.push([raw[i]!.toLowerCase(), raw[i + 1]!]);
  return out;
};

describe('impersonation headers of a kubeconfig that impersonates', () => {
  let server: http.Server;
  let conf: string;
  const seen: string[][] = [];

  before(async () => {
    server = http.createServer((req, res) => {
      seen.push(req.rawHeaders);
      // A watch ends at once, with no events.
      req.resume().on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(req.url?.includes('watch=true') ? '' : '{}'));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const { port } = server.address() as AddressInfo;
    conf = path.join(tempDir(), 'imp.conf');
    writeFileSync(conf, `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "http://127.0.0.1:${port}"}}]
users:
- name: u
  user:
    token: t
    as: alice
    as-uid: uid-1
    as-groups: [team-a, team-b]
    as-user-extra:
      example.com/scopes: [view, edit]
      "100%": [x]
      "ü key": [zed]
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x
`);
  });
  after(() => { server.closeAllConnections(); server.close(); });

  const expected: [string, string][] = [
    ['impersonate-user', 'alice'], ['impersonate-uid', 'uid-1'], ['impersonate-group', 'team-a'], ['impersonate-group', 'team-b'],
    ['impersonate-extra-example.com%2fscopes', 'view'], ['impersonate-extra-example.com%2fscopes', 'edit'],
    ['impersonate-extra-100%25', 'x'], ['impersonate-extra-%c3%bc%20key', 'zed'],
  ];

  it('headerKeyEscape: every byte that is no header token byte, and %, as %XX of its UTF-8', () => {
    assert.equal(headerKeyEscape('example.com/scopes'), 'example.com%2Fscopes');
    assert.equal(headerKeyEscape('100%'), '100%25');
    assert.equal(headerKeyEscape('ü key'), '%C3%BC%20key');
    assert.equal(headerKeyEscape("a-Z_0.9!#$&'*+^`|~"), "a-Z_0.9!#$&'*+^`|~");
    assert.equal(headerKeyEscape('a:b"c(d)'), 'a%3Ab%22c%28d%29');
  });

  it('the REST client sends them with every request, a watch too', async () => {
    const client = new RestClient(loadKubeconfig(conf));
    try {
      seen.length = 0;
      await client.request('GET', '/api/v1/namespaces');
      const watch = client.watch({ group: '', version: 'v1', plural: 'namespaces' });
      for await (const _ of watch) break;
      assert.equal(seen.length, 2);
      for (const raw of seen) assert.deepEqual(impersonationLines(raw), expected);
    } finally {
      client.close();
    }
  });

  it('a request that names its own Impersonate-User is sent as it is, none of the kubeconfig\'s added', async () => {
    const client = new RestClient(loadKubeconfig(conf));
    try {
      seen.length = 0;
      await client.request('GET', '/api/v1/namespaces', { headers: { 'Impersonate-User': 'bob' } });
      assert.deepEqual(impersonationLines(seen[0]!), [['impersonate-user', 'bob']]);
    } finally {
      client.close();
    }
  });

  it('a webhook client (the kubeconfig of a token or authorization webhook) sends them too', async () => {
    const client = new WebhookClient({ connection: loadKubeconfig(conf) });
    try {
      seen.length = 0;
      await client.post('{}');
      assert.deepEqual(impersonationLines(seen[0]!), expected);
    } finally {
      client.close();
    }
  });

  it('a user that does not impersonate sends none', async () => {
    const plain = path.join(tempDir(), 'plain.conf');
    writeFileSync(plain, `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "http://127.0.0.1:${(server.address() as AddressInfo).port}"}}]
users: [{name: u, user: {token: t, as-groups: []}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x
`);
    const client = new RestClient(loadKubeconfig(plain));
    try {
      seen.length = 0;
      await client.request('GET', '/api/v1/namespaces');
      assert.deepEqual(impersonationLines(seen[0]!), []);
    } finally {
      client.close();
    }
  });
});
