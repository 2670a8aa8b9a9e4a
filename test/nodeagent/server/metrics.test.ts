// The node agent's /metrics as the kubelet's: on the secure port behind authentication and a
// SubjectAccessReview about `nodes/metrics` of this node (Webhook authorization against a real
// `plat all`), upstream's 403 text for a caller refused it, on the read-only port without either;
// the Prometheus text format (read whole by a strict parser), gzipped when asked, with
// nodeagent_node_name, the process figures, the REST client's families and the meta counters; and
// /metrics/slis counting each /healthz evaluation on whichever port it came.
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { request as httpsRequest } from 'node:https';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeCa, makeClientCert } from '../../helpers/certs.js';
import { freePort, startInProcess, tempDir, type RunningPlat } from '../../helpers/plat.js';
import { tableAuthorizer } from '../../helpers/table-authorizer.js';
import { parseExposition, sampleValue } from '../../helpers/exposition-parser.js';
import { restClientMetrics } from '../../../core/metrics/rest-client.js';
import { RestClient } from '../../../core/client/rest-client.js';
import { loadKubeconfig } from '../../../core/client/kubeconfig.js';
import { request, selfSignedPair, serverConfig, startServer, type RunningServer } from './support.js';

describe('node agent /metrics', () => {
  const dir = tempDir('plat-nasrv-metrics-');
  const clientCa = makeCa({ commonName: 'node-agent-clients' });
  const alice = makeClientCert(clientCa, 'alice');
  const bob = makeClientCert(clientCa, 'bob');
  const pair = selfSignedPair();
  let plat: RunningPlat;
  let agent: RunningServer;
  const as = (who: typeof alice) => ({ ca: pair.cert, cert: who.certificatePem, key: who.privateKeyPem });

  before(async () => {
    const caFile = path.join(dir, 'client-ca.crt');
    writeFileSync(caFile, clientCa.certificatePem);
    plat = await startInProcess({
      args: ['--authorization-mode', 'AlwaysDeny'],
      plugins: [tableAuthorizer([
        { group: 'system:masters', decision: 'allow' },
        { user: 'alice', resource: 'nodes', subresource: 'metrics', name: 'node-1', decision: 'allow' },
        { user: 'alice', resource: 'nodes', subresource: 'healthz', name: 'node-1', decision: 'allow' },
      ])],
    });
    agent = await startServer({
      standalone: false,
      config: await serverConfig({
        readOnlyPort: await freePort(),
        authentication: { x509: { clientCAFile: caFile }, webhook: { enabled: false, cacheTTL: '2m0s' }, anonymous: { enabled: false } },
        authorization: { mode: 'Webhook', webhook: { cacheAuthorizedTTL: '5m0s', cacheUnauthorizedTTL: '30s' } },
      }),
      // The agent's API client records into its registry, as the identity subsystem makes it.
      setup: (ctx) => ctx.api.set(new RestClient(loadKubeconfig(plat.kubeconfig), { metrics: restClientMetrics(ctx.metrics) })),
      pair,
    });
  });
  after(async () => {
    await agent?.stop();
    agent?.ctx.api.get()?.close();
    await plat?.stop();
  });

  it('serves the registry to a caller allowed nodes/metrics, in the text format a strict parser reads', async () => {
    const res = await request(agent.port, '/metrics', as(alice));
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
    const families = parseExposition(res.text);
    assert.equal(sampleValue(families, 'nodeagent_node_name', { node: 'node-1' }), 1);
    assert.equal(families.get('nodeagent_node_name')!.help, '[ALPHA] The node\'s name. The count is always 1.');
    assert.equal(families.get('nodeagent_node_name')!.type, 'gauge');
    for (const f of ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'process_start_time_seconds', 'process_open_fds', 'registered_metrics_total']) {
      assert.ok(families.has(f), `${f} is served`);
    }
    // The SubjectAccessReview that let this scrape in went through the agent's API client.
    const host = new URL(plat.url).host;
    assert.ok(sampleValue(families, 'rest_client_requests_total', { code: '201', host, method: 'POST' })! >= 1, res.text);
    assert.equal(families.get('rest_client_request_duration_seconds')?.type, 'histogram');
    // No certificate manager in this agent (no identity subsystem): none of its families.
    assert.ok(![...families.keys()].some((f) => f.includes('certificate_manager')), 'no certificate families without their managers');
  });

  it('gzips the answer for a client that accepts it', async () => {
    const raw = await new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
      const req = httpsRequest({
        host: '127.0.0.1', port: agent.port, path: '/metrics', agent: false, ca: pair.cert, servername: 'localhost',
        cert: alice.certificatePem, key: alice.privateKeyPem, headers: { 'accept-encoding': 'gzip' },
      }, (r) => { const chunks: Buffer[] = []; r.on('data', (c: Buffer) => chunks.push(c)); r.on('end', () => resolve({ headers: r.headers, body: Buffer.concat(chunks) })); });
      req.on('error', reject);
      req.end();
    });
    assert.equal(raw.headers['content-encoding'], 'gzip');
    assert.ok(parseExposition(gunzipSync(raw.body).toString('utf8')).has('nodeagent_node_name'));
  });

  it('refuses a caller the authorizer does not allow nodes/metrics, with the kubelet\'s 403 text', async () => {
    const res = await request(agent.port, '/metrics', as(bob));
    assert.equal(res.status, 403);
    assert.equal(res.text, 'Forbidden (user=bob, verb=get, resource=nodes, subresource(s)=[metrics])\n');
    const slis = await request(agent.port, '/metrics/slis', as(bob));
    assert.equal(slis.status, 403);
    assert.equal(slis.text, 'Forbidden (user=bob, verb=get, resource=nodes, subresource(s)=[metrics])\n');
    const anonymous = await request(agent.port, '/metrics', { ca: pair.cert });
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.text, 'Unauthorized');
  });

  it('serves /metrics on the read-only port without authentication, as upstream', async () => {
    const res = await request(agent.readOnlyPort, '/metrics');
    assert.equal(res.status, 200);
    assert.equal(sampleValue(parseExposition(res.text), 'nodeagent_node_name', { node: 'node-1' }), 1);
    for (const p of ['/metrics/', '/metrics/cadvisor', '/metrics/probes', '/metrics/resource']) {
      assert.equal((await request(agent.readOnlyPort, p)).status, 404, p);
    }
  });

  it('counts /healthz evaluations of every port in /metrics/slis, and a DELETE empties it', async () => {
    assert.equal((await request(agent.readOnlyPort, '/healthz')).status, 200);
    assert.equal((await request(agent.port, '/healthz', as(alice))).status, 200);
    const res = await request(agent.port, '/metrics/slis', as(alice));
    assert.equal(res.status, 200);
    const slis = parseExposition(res.text);
    assert.equal(sampleValue(slis, 'kubernetes_healthcheck', { name: 'ping', type: 'healthz' }), 1);
    assert.equal(sampleValue(slis, 'kubernetes_healthchecks_total', { name: 'ping', status: 'success', type: 'healthz' }), 2);
    const reset = await request(agent.readOnlyPort, '/metrics/slis', { method: 'DELETE' });
    assert.equal(reset.text, 'metrics reset\n');
    assert.equal((await request(agent.readOnlyPort, '/metrics/slis')).text, '');
  });
});
