// /metrics/slis on the API server's secure port, as kube-apiserver installs it beside /metrics
// (ComponentSLIs): the health checks' SLIs, one registry of their own, recorded by each check a
// root /healthz, /livez or /readyz evaluates (not one left out by ?exclude); a non-resource `get`
// that RBAC's system:monitoring grants; a DELETE empties it with --profiling (SLIMetricsWithReset)
// and is read as any other method without it (SLIMetrics).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startInProcess, tempDir, type Client, type RunningPlat } from '../helpers/plat.js';

function tokens(): string {
  const file = path.join(tempDir(), 'tokens.csv');
  writeFileSync(file, 'scraper-token,scraper,1,"system:monitoring"\nbob-token,bob,2\n');
  return file;
}

describe('plat apiserver /metrics/slis', () => {
  let plat: RunningPlat;
  let scraper: Client;

  before(async () => {
    plat = await startInProcess({ args: ['--token-auth-file', tokens(), '--authorization-mode=RBAC'] });
    scraper = plat.admin.with({ token: 'scraper-token' });
  });
  after(async () => { await plat?.stop(); });

  it("records each check a health endpoint evaluates, and empties them on DELETE (--profiling's default)", async () => {
    const reset = await plat.admin.delete('/metrics/slis');
    assert.equal(reset.status, 200);
    assert.equal(reset.text, 'metrics reset\n');
    assert.equal(reset.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal((await plat.admin.get('/livez')).status, 200);
    for (let i = 0; i < 2; i++) assert.equal((await plat.admin.get('/readyz')).status, 200);
    assert.equal((await plat.admin.get('/healthz?exclude=ping')).status, 200);
    // A single check's path is not a root evaluation: not recorded, as upstream's.
    assert.equal((await plat.admin.get('/livez/log')).status, 200);

    const r = await scraper.get('/metrics/slis');
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
    const lines = r.text.split('\n');
    const has = (line: string) => assert.ok(lines.includes(line), `missing: ${line}\n${r.text}`);
    has('# HELP kubernetes_healthcheck [STABLE] This metric records the result of a single healthcheck.');
    has('# TYPE kubernetes_healthcheck gauge');
    has('# HELP kubernetes_healthchecks_total [STABLE] This metric records the results of all healthcheck.');
    has('# TYPE kubernetes_healthchecks_total counter');
    for (const check of ['ping', 'log', 'store']) {
      has(`kubernetes_healthcheck{name="${check}",type="livez"} 1`);
      has(`kubernetes_healthchecks_total{name="${check}",status="success",type="livez"} 1`);
      has(`kubernetes_healthchecks_total{name="${check}",status="success",type="readyz"} 2`);
    }
    has('kubernetes_healthchecks_total{name="shutdown",status="success",type="readyz"} 2');
    has('kubernetes_healthchecks_total{name="log",status="success",type="healthz"} 1');
    assert.ok(!r.text.includes('name="ping",status="success",type="healthz"'), 'an excluded check is not evaluated');
    assert.ok(!lines.some((l) => l.startsWith('apiserver_') || l.startsWith('process_')), 'a registry of its own');
  });

  it('is a non-resource get that system:monitoring grants', async () => {
    const r = await plat.admin.with({ token: 'bob-token' }).get('/metrics/slis');
    assert.equal(r.status, 403);
    assert.equal(r.json.message, 'forbidden: User "bob" cannot get path "/metrics/slis"');
    assert.equal((await scraper.delete('/metrics/slis')).status, 403, 'system:monitoring grants get only');
    const root = await plat.admin.get('/');
    assert.ok((root.json.paths as string[]).includes('/metrics/slis'), 'listed at /');
  });
});

describe('plat apiserver /metrics/slis --profiling=false', () => {
  it('answers a DELETE with the metrics, as upstream without the reset handler', async () => {
    const plat = await startInProcess({ args: ['--profiling=false'] });
    try {
      assert.equal((await plat.admin.get('/livez')).status, 200);
      const r = await plat.admin.delete('/metrics/slis');
      assert.equal(r.status, 200);
      assert.match(r.text, /^kubernetes_healthchecks_total\{name="ping",status="success",type="livez"\} [1-9]\d*$/m);
      assert.match((await plat.admin.get('/metrics/slis')).text, /^kubernetes_healthchecks_total\{name="ping",status="success",type="livez"\} [1-9]\d*$/m);
    } finally {
      await plat.stop();
    }
  });
});
