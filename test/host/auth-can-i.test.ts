// `plat auth can-i` against a fake API server answering as each case needs: an error is said in
// kubectl's words (StandardErrorMessage) and exits 1, as kubectl's cmdutil.CheckErr (cani.go runs
// every error through it); -q answers by the exit code alone; the namespace asked about is -n's,
// else the kubeconfig context's, else default; kubectl's warnings and Validate refusals.
import assert from 'node:assert/strict';
import http from 'node:http';
import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runPlatAsync } from '../helpers/run-plat.js';
import { writeLoopbackKubeconfig } from '../helpers/loopback-kubeconfig.js';
import { freePort, tempDir } from '../helpers/plat.js';

const SSAR = '/apis/authorization.platform/v1/selfsubjectaccessreviews';
const status = (code: number, reason: string, message: string) =>
  JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason, message, code });

/** What the fake server answers to the review (whose body it is given); discovery of `pods` always works. */
let review: (res: http.ServerResponse, body: string) => void;

describe('plat auth can-i', () => {
  let server: http.Server;
  let kubeconfig: string;
  const canI = (...args: string[]) =>
    runPlatAsync(['auth', 'can-i', ...args, '--kubeconfig', kubeconfig], { env: { PLATCONFIG: '', KUBECONFIG: '' } });

  before(async () => {
    server = http.createServer((req, res) => {
      const json = (code: number, body: string) => res.writeHead(code, { 'content-type': 'application/json' }).end(body);
      if (req.url === '/api/v1') return json(200, JSON.stringify({ kind: 'APIResourceList', groupVersion: 'v1', resources: [{ name: 'pods', kind: 'Pod', namespaced: true }, { name: 'nodes', kind: 'Node', namespaced: false }] }));
      if (req.url === '/apis') return json(200, JSON.stringify({ kind: 'APIGroupList', groups: [] }));
      if (req.url === SSAR && req.method === 'POST') {
        let body = '';
        req.on('data', (c: Buffer) => { body += c.toString(); }).on('end', () => review(res, body));
        return;
      }
      json(404, status(404, 'NotFound', 'the server could not find the requested resource'));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    kubeconfig = writeLoopbackKubeconfig((server.address() as AddressInfo).port);
  });
  after(() => { server.close(); });

  it('a refused review: kubectl\'s words, exit 1 (not 3)', async () => {
    review = (res) => res.writeHead(401, { 'content-type': 'application/json' }).end(status(401, 'Unauthorized', 'Unauthorized'));
    for (const target of ['pods', '/healthz']) {
      const r = await canI('get', target);
      assert.deepEqual([r.code, r.stdout, r.stderr], [1, '', 'plat auth can-i: You must be logged in to the server (Unauthorized)\n'], target);
    }
    review = (res) => res.writeHead(403, { 'content-type': 'application/json' })
      .end(status(403, 'Forbidden', 'selfsubjectaccessreviews.authorization.platform is forbidden: User "u" cannot create resource "selfsubjectaccessreviews"'));
    const forbidden = await canI('get', 'pods');
    assert.deepEqual([forbidden.code, forbidden.stderr], [1,
      'plat auth can-i: Error from server (Forbidden): selfsubjectaccessreviews.authorization.platform is forbidden: User "u" cannot create resource "selfsubjectaccessreviews"\n']);
    // The API server's plain-text 500 (impersonating a group without a user): client-go's generic response.
    review = (res) => res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error: "/x": requested [{Group  devs    }] without impersonating a user');
    const text = await canI('get', 'pods');
    assert.deepEqual([text.code, text.stderr], [1,
      'plat auth can-i: Error from server (InternalError): an error on the server ("Internal Server Error: \\"/x\\": requested [{Group  devs    }] without impersonating a user") has prevented the request from succeeding (post selfsubjectaccessreviews.authorization.platform)\n']);
  });

  it('nobody listening: kubectl\'s sentence, exit 1', async () => {
    const port = await freePort();
    const r = await runPlatAsync(['auth', 'can-i', 'get', '/healthz', '--kubeconfig', writeLoopbackKubeconfig(port)], { env: { PLATCONFIG: '', KUBECONFIG: '' } });
    assert.deepEqual([r.code, r.stderr], [1, `plat auth can-i: The connection to the server 127.0.0.1:${port} was refused - did you specify the right host or port?\n`]);
  });

  it('-q, --quiet: nothing on stdout, the answer in the exit code; a mistake on the command line stays exit 2', async () => {
    const answer = (allowed: boolean) => (res: http.ServerResponse) => res.writeHead(201, { 'content-type': 'application/json' })
      .end(JSON.stringify({ kind: 'SelfSubjectAccessReview', apiVersion: 'authorization.platform/v1', status: { allowed, reason: 'because' } }));
    review = answer(true);
    assert.deepEqual(Object.values(await canI('get', 'pods', '-q')), [0, '', '']);
    review = answer(false);
    assert.deepEqual(Object.values(await canI('get', 'pods', '--quiet')), [1, '', '']);
    assert.deepEqual(Object.values(await canI('get', 'pods')), [1, 'no - because\n', '']);
    const usage = await canI('get');
    assert.equal(usage.code, 2, usage.stderr);
  });

  it('the namespace: -n, else the kubeconfig context\'s (as kubectl\'s), else default, for a cluster-wide type too; none with -A', async () => {
    const asked: unknown[] = [];
    review = (res, body) => {
      asked.push((JSON.parse(body) as { spec: { resourceAttributes?: { namespace?: string } } }).spec.resourceAttributes?.namespace);
      res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ kind: 'SelfSubjectAccessReview', status: { allowed: true } }));
    };
    const withNamespace = path.join(tempDir(), 'ns.conf');
    writeFileSync(withNamespace, `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "http://127.0.0.1:${(server.address() as AddressInfo).port}"}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: x, context: {cluster: c, user: u, namespace: team-a}}]
current-context: x
`);
    const run = (conf: string, ...args: string[]) => runPlatAsync(['auth', 'can-i', 'get', ...args, '--kubeconfig', conf], { env: { PLATCONFIG: '', KUBECONFIG: '' } });
    for (const r of [await run(withNamespace, 'pods'), await run(withNamespace, 'pods', '-n', 'team-b'), await run(kubeconfig, 'pods'), await run(withNamespace, 'pods', '-A'),
      // cani.go's RunAccessCheck sends o.Namespace for a cluster-wide type as well (hence its warning); an empty -n sets nothing.
      await run(withNamespace, 'nodes'), await run(kubeconfig, 'nodes'), await run(withNamespace, 'pods', '-n', '')]) {
      assert.equal(r.code, 0, r.stderr);
    }
    assert.deepEqual(asked, ['team-a', 'team-b', 'default', undefined, 'team-a', 'default', 'team-a']);
  });

  it('kubectl\'s warnings (a cluster-wide type, an unknown verb) and its refusals for a non-resource URL', async () => {
    review = (res) => res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ kind: 'SelfSubjectAccessReview', status: { allowed: true } }));
    const cases: [string[], string][] = [
      [['get', 'nodes'], "Warning: resource 'nodes' is not namespace scoped\n\n"],
      [['get', 'nodes', '-A'], ''],
      [['frob', 'pods'], "Warning: verb 'frob' is not a known verb\n\n"],
      [['frob', 'nodes'], "Warning: resource 'nodes' is not namespace scoped\n\nWarning: verb 'frob' is not a known verb\n\n"],
      [['approve', 'pods'], ''],
      [['frob', '/healthz'], "Warning: verb 'frob' is not a known verb\n\n"],
      [['post', '/healthz'], ''],
    ];
    for (const [args, stderr] of cases) {
      const r = await canI(...args);
      assert.deepEqual([r.code, r.stdout, r.stderr], [0, 'yes\n', stderr], args.join(' '));
    }
    // Validate prints them before the review is sent: they are said when it then fails too.
    review = (res) => res.writeHead(401, { 'content-type': 'application/json' }).end(status(401, 'Unauthorized', 'Unauthorized'));
    const refusedAfterWarning = await canI('frob', 'nodes');
    assert.deepEqual([refusedAfterWarning.code, refusedAfterWarning.stderr], [1,
      "Warning: resource 'nodes' is not namespace scoped\n\nWarning: verb 'frob' is not a known verb\n\nplat auth can-i: You must be logged in to the server (Unauthorized)\n"]);
    const sub = await canI('get', '/healthz', '--subresource', 'x');
    assert.deepEqual([sub.code, sub.stderr], [2, 'plat auth can-i: --subresource can not be used with NonResourceURL\n']);
    // kubectl 1.32 takes two arguments only: a name goes after a slash.
    const twoOnly = 'plat auth can-i: you must specify two arguments: verb resource or verb resource/resourceName.\nSee \'plat auth can-i -h\' for help and examples.\n';
    for (const args of [['get', '/healthz', 'x'], ['get', 'csr', 'a1'], ['get']]) {
      const r = await canI(...args);
      assert.deepEqual([r.code, r.stdout, r.stderr], [2, '', twoOnly], args.join(' '));
    }
  });
});
