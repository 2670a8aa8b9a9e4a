// The node agent's secure port against a real `plat all`: client certificates of the client CA,
// bearer tokens reviewed by the API server (TokenReview), decisions by SubjectAccessReview about
// nodes/<subresource> of this node (the fine-grained ones only with the KubeletFineGrainedAuthz
// gate on), upstream's 401/403/500 bodies, and both caches (a token that
// stops being valid is accepted until its cached answer expires; a denial is asked again after the
// unauthorized TTL), with the caches' clock moved by the test.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Attributes } from '../../../core/authz/attributes.js';
import { RestClient } from '../../../core/client/rest-client.js';
import type { Plugin } from '../../../core/plugin.js';
import { createBootstrapToken } from '../../helpers/bootstrap-token.js';
import { makeCa, makeClientCert } from '../../helpers/certs.js';
import { freePort, startInProcess, tempDir, type RunningPlat } from '../../helpers/plat.js';
import { tableAuthorizer } from '../../helpers/table-authorizer.js';
import { createLogger } from '../../../core/log.js';
import { adminApi, request, selfSignedPair, serverConfig, startServer, type RequestOptions, type RunningServer } from './support.js';

/** Counts the API server's authorization questions that match, without an opinion of its own. */
function counting(match: (a: Attributes) => boolean): { plugin: Plugin; count: () => number } {
  let n = 0;
  const name = `Counting${Math.random().toString(36).slice(2)}`;
  return {
    count: () => n,
    plugin: { name, apply(host) { host.hooks.authorize.tap({ name, stage: -Infinity }, (a) => { if (match(a)) n++; return undefined; }); } },
  };
}

describe('node agent secure port: authentication and authorization against plat all', () => {
  const dir = tempDir('plat-nasrv-auth-');
  const clientCa = makeCa({ commonName: 'node-agent-clients' });
  const strangerCa = makeCa({ commonName: 'elsewhere' });
  const questions = counting((a) => a.resource === 'nodes' && a.name === 'node-1');
  const tokenReviews = counting((a) => a.resource === 'tokenreviews');
  const pair = selfSignedPair();
  let clock = 1_000_000;
  let plat: RunningPlat;
  let agent: RunningServer;
  let coarse: RunningServer;
  const as = (o: RequestOptions = {}) => ({ ca: pair.cert, ...o });
  const agentLines: string[] = [];

  before(async () => {
    const tokens = path.join(dir, 'tokens.csv');
    writeFileSync(tokens, ['alice-token,alice,1', 'bob-token,bob,2', 'carol-token,carol,3', 'dave-token,dave,4'].join('\n') + '\n');
    const caFile = path.join(dir, 'client-ca.crt');
    writeFileSync(caFile, clientCa.certificatePem);
    plat = await startInProcess({
      args: ['--token-auth-file', tokens, '--enable-bootstrap-token-auth', '--authorization-mode', 'AlwaysDeny'],
      plugins: [questions.plugin, tokenReviews.plugin, tableAuthorizer([
        { group: 'system:masters', decision: 'allow' },
        { user: 'alice', resource: 'nodes', subresource: 'proxy', name: 'node-1', decision: 'allow' },
        { user: 'bob', resource: 'nodes', subresource: 'pods', name: 'node-1', decision: 'allow' },
        { user: 'carol', resource: 'nodes', decision: 'deny', reason: 'carol may not' },
        { group: 'system:bootstrappers', resource: 'nodes', decision: 'allow' },
      ])],
    });
    const webhookServer = async (over: Parameters<typeof serverConfig>[0] = {}) => startServer({
      standalone: false, logger: createLogger({ write: (l) => agentLines.push(l) }),
      config: await serverConfig({
        authentication: { x509: { clientCAFile: caFile }, webhook: { enabled: true, cacheTTL: '2m0s' }, anonymous: { enabled: false } },
        authorization: { mode: 'Webhook', webhook: { cacheAuthorizedTTL: '5m0s', cacheUnauthorizedTTL: '30s' } },
        ...over,
      }),
      options: { now: () => clock },
      setup: (ctx) => ctx.api.set(adminApi(plat)),
      pair,
    });
    agent = await webhookServer();
    coarse = await webhookServer({ featureGates: { KubeletFineGrainedAuthz: false } });
  });
  after(async () => {
    for (const a of [agent, coarse]) {
      await a?.stop();
      a?.ctx.api.get()?.close();
    }
    await plat?.stop();
  });

  it('answers each caller as upstream does', async () => {
    const alice = makeClientCert(clientCa, 'alice', ['team-a']);
    const strangerAlice = makeClientCert(strangerCa, 'alice');
    const cases: { name: string; path: string; o: RequestOptions; status: number; body?: string | RegExp }[] = [
      { name: 'no credentials, anonymous off', path: '/pods', o: {}, status: 401, body: 'Unauthorized' },
      { name: 'alice by token: proxy covers /configz', path: '/configz', o: { token: 'alice-token' }, status: 200, body: /"nodeagentconfig":\{/ },
      { name: 'alice by client certificate', path: '/pods', o: { cert: alice.certificatePem, key: alice.privateKeyPem }, status: 200, body: /"kind":"PodList"/ },
      { name: 'bob: nodes/pods allows /pods', path: '/pods', o: { token: 'bob-token' }, status: 200 },
      { name: 'bob: not /configz', path: '/configz', o: { token: 'bob-token' }, status: 403, body: 'Forbidden (user=bob, verb=get, resource=nodes, subresource(s)=[configz proxy])\n' },
      { name: 'bob: logs are nodes/log only', path: '/logs/', o: { token: 'bob-token' }, status: 403, body: 'Forbidden (user=bob, verb=get, resource=nodes, subresource(s)=[log])\n' },
      { name: 'carol: denied', path: '/healthz', o: { token: 'carol-token' }, status: 403, body: 'Forbidden (user=carol, verb=get, resource=nodes, subresource(s)=[healthz proxy])\n' },
      { name: 'a PUT asks for update', path: '/debug/flags/v', o: { token: 'dave-token', method: 'PUT', body: '1' }, status: 403, body: 'Forbidden (user=dave, verb=update, resource=nodes, subresource(s)=[proxy])\n' },
      { name: 'an unknown token', path: '/pods', o: { token: 'nobody-token' }, status: 401, body: 'Unauthorized' },
      { name: 'a certificate of another CA', path: '/pods', o: { cert: strangerAlice.certificatePem, key: strangerAlice.privateKeyPem }, status: 401, body: 'Unauthorized' },
      { name: 'a certificate of another CA with a good token: the token authenticates', path: '/configz', o: { cert: strangerAlice.certificatePem, key: strangerAlice.privateKeyPem, token: 'alice-token' }, status: 200 },
      { name: 'unknown paths are authorized as proxy, then 404', path: '/nope', o: { token: 'alice-token' }, status: 404, body: '404: Page Not Found' },
      { name: 'unknown paths are refused before routing', path: '/nope', o: {}, status: 401 },
      { name: 'POST /pods: authorized as create, then only GET is served', path: '/pods', o: { token: 'bob-token', method: 'POST', body: '{}' }, status: 405, body: '405: Method Not Allowed' },
    ];
    for (const c of cases) {
      const r = await request(agent.port, c.path, as(c.o));
      assert.equal(r.status, c.status, `${c.name}: ${r.text}`);
      if (typeof c.body === 'string') assert.equal(r.text, c.body, c.name);
      else if (c.body) assert.match(r.text, c.body, c.name);
    }
  });

  it('logs a refused token or certificate as the kubelet\'s filter logs its union\'s error; no credential at all, not', async () => {
    const strangerAlice = makeClientCert(strangerCa, 'alice');
    const refusedLines = () => agentLines.filter((l) => /^E/.test(l) && l.includes('] Unable to authenticate the request due to an error err='));
    agentLines.length = 0;
    assert.equal((await request(agent.port, '/pods', as({ token: 'nobody-token' }))).status, 401);
    assert.equal(refusedLines().length, 1, agentLines.join('\n'));
    assert.match(refusedLines()[0]!, /err="[^"]*invalid bearer token[^"]*"$/);
    assert.ok(!agentLines.some((l) => l.includes('nobody-token')), 'the token is never logged');
    agentLines.length = 0;
    assert.equal((await request(agent.port, '/pods', as({ cert: strangerAlice.certificatePem, key: strangerAlice.privateKeyPem }))).status, 401);
    // A leaf made as Go makes one has no SKI: an empty SKID, as upstream's message then shows.
    assert.match(refusedLines()[0] ?? agentLines.join('\n'), /err="verifying certificate SN=\d+, SKID=, AKID=[0-9A-F:]+ failed: x509: certificate signed by unknown authority"$/);
    agentLines.length = 0;
    assert.equal((await request(agent.port, '/pods', as({}))).status, 401);
    assert.deepEqual(refusedLines(), []);
  });

  it('asks the API server about the node with the caller\'s identity (SubjectAccessReview), and caches the answers', async () => {
    const before = questions.count();
    assert.equal((await request(agent.port, '/x', as({ token: 'alice-token', method: 'PATCH', body: '{}' }))).status, 404);
    assert.equal(questions.count() - before, 1, 'one question: patch nodes/proxy');
    assert.equal((await request(agent.port, '/x', as({ token: 'alice-token', method: 'PATCH', body: '{}' }))).status, 404);
    assert.equal(questions.count() - before, 1, 'the allowed answer is cached');

    const dave = questions.count();
    assert.equal((await request(agent.port, '/runningpods/', as({ token: 'dave-token' }))).status, 403);
    assert.equal(questions.count() - dave, 2, 'runningpods asks about nodes/pods, then nodes/proxy');

    const carolBefore = questions.count();
    assert.equal((await request(agent.port, '/pods', as({ token: 'carol-token', method: 'DELETE' }))).status, 403);
    assert.equal((await request(agent.port, '/pods', as({ token: 'carol-token', method: 'DELETE' }))).status, 403);
    assert.equal(questions.count() - carolBefore, 2, 'pods and proxy asked once each within the unauthorized TTL');
    clock += 31_000;
    assert.equal((await request(agent.port, '/pods', as({ token: 'carol-token', method: 'DELETE' }))).status, 403);
    assert.equal(questions.count() - carolBefore, 4, 'asked again once cacheUnauthorizedTTL (30s) has passed');
  });

  it('keeps a token\'s answer for cacheTTL, keyed by a digest (a revoked token works until then)', async () => {
    const token = await createBootstrapToken(plat.admin);
    const reviews = tokenReviews.count();
    assert.equal((await request(agent.port, '/pods', as({ token }))).status, 200);
    assert.equal(tokenReviews.count() - reviews, 1);
    const id = token.split('.')[0]!;
    assert.equal((await plat.admin.delete(`/api/v1/namespaces/plat-system/secrets/bootstrap-token-${id}`)).status, 200);
    assert.equal((await request(agent.port, '/pods', as({ token }))).status, 200, 'still cached');
    assert.equal(tokenReviews.count() - reviews, 1, 'no second review within the TTL');
    clock += 121_000;
    const r = await request(agent.port, '/pods', as({ token }));
    assert.equal(r.status, 401, 'reviewed again after cacheTTL (2m): the token is gone');
    assert.equal(tokenReviews.count() - reviews, 2);
  });

  it('answers 500 "Authorization error" when the API server cannot be asked, 401 to a token; logged in client-go\'s words', async () => {
    const alice = makeClientCert(clientCa, 'alice');
    const good = agent.ctx.api.get()!;
    const port = await freePort();
    const dead = new RestClient({ server: new URL(`https://127.0.0.1:${port}`), ca: good.connection.ca ?? '' });
    agent.ctx.api.set(dead);
    try {
      agentLines.length = 0;
      const r = await request(agent.port, '/pods', as({ cert: alice.certificatePem, key: alice.privateKeyPem, method: 'DELETE' }));
      assert.equal(r.status, 500, r.text);
      assert.equal(r.text, 'Authorization error (user=alice, verb=delete, resource=nodes, subresource=pods)');
      const refused = (path: string) => `Post \\"https://127.0.0.1:${port}/apis/${path}\\": dial tcp 127.0.0.1:${port}: connect: connection refused`;
      const authz = `Authorization error err="${refused('authorization.platform/v1/subjectaccessreviews')}" user="alice" verb="delete" resource="nodes" subresource="pods"`;
      assert.ok(agentLines.some((l) => /^E/.test(l) && l.endsWith(`] ${authz}`)), agentLines.join('\n'));
      const t = await request(agent.port, '/pods', as({ token: 'never-reviewed-token' }));
      assert.equal(t.status, 401, t.text);
      const authn = `Unable to authenticate the request due to an error err="${refused('authentication.platform/v1/tokenreviews')}"`;
      assert.ok(agentLines.some((l) => /^E/.test(l) && l.endsWith(`] ${authn}`)), agentLines.join('\n'));
    } finally {
      agent.ctx.api.set(good);
      dead.close();
    }
  });

  it('asks for the fine-grained subresources only with KubeletFineGrainedAuthz on', async () => {
    const forbidden = (verb: string, subresources: string) => `Forbidden (user=dave, verb=${verb}, resource=nodes, subresource(s)=[${subresources}])\n`;
    // path, gate on, gate off: what a caller with no grant is refused.
    const table: [string, string, string][] = [
      ['/pods', 'pods proxy', 'proxy'],
      ['/pods/x', 'pods proxy', 'proxy'],
      ['/runningpods/', 'pods proxy', 'proxy'],
      ['/healthz', 'healthz proxy', 'proxy'],
      ['/healthz/ping', 'healthz proxy', 'proxy'],
      ['/configz', 'configz proxy', 'proxy'],
      ['/statusz', 'statusz proxy', 'proxy'],
      ['/stats/summary', 'stats', 'stats'],
      ['/metrics/cadvisor', 'metrics', 'metrics'],
      ['/logs/syslog', 'log', 'log'],
      ['/checkpoint/ns/pod/c', 'checkpoint', 'checkpoint'],
      ['/podsx', 'proxy', 'proxy'],
    ];
    for (const [p, on, off] of table) {
      for (const [server, expected, gate] of [[agent, on, 'on'], [coarse, off, 'off']] as const) {
        const r = await request(server.port, p, as({ token: 'dave-token' }));
        assert.deepEqual([r.status, r.text], [403, forbidden('get', expected)], `${p}, gate ${gate}`);
      }
    }
    // Turning the gate off takes nodes/pods back: bob may read /pods only while it is on.
    assert.equal((await request(agent.port, '/pods', as({ token: 'bob-token' }))).status, 200);
    const bob = await request(coarse.port, '/pods', as({ token: 'bob-token' }));
    assert.deepEqual([bob.status, bob.text], [403, 'Forbidden (user=bob, verb=get, resource=nodes, subresource(s)=[proxy])\n']);
    assert.equal((await request(coarse.port, '/pods', as({ token: 'alice-token' }))).status, 200, 'nodes/proxy still admits');
  });
});
