// The API server serves /metrics on its secure port as kube-apiserver does: through the normal
// filter chain (a non-resource `get` on /metrics; RBAC's bootstrap system:monitoring role grants it
// to the group of that name, a user without it gets 403), with upstream's request, authentication,
// authorization and storage families, exact labels and values; the metrics flags apply (a
// disabled family is gone, a bad value stops start-up with upstream's message); kubectl reads it.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startInProcess, tempDir, type Client, type RunningPlat } from '../helpers/plat.js';
import { bootRefusal } from '../helpers/boot-refusal.js';
import { Kubectl } from '../helpers/kubectl.js';

const ROLES = '/apis/rbac.authorization.platform/v1/namespaces/metrics-test/roles';
const RBAC_LABELS = 'group="rbac.authorization.platform",resource="roles"';

function tokens(dir: string): string {
  const file = path.join(dir, 'tokens.csv');
  writeFileSync(file, 'scraper-token,scraper,1,"system:monitoring"\nbob-token,bob,2\n');
  return file;
}

describe('plat apiserver /metrics', () => {
  let plat: RunningPlat;
  let scraper: Client;

  before(async () => {
    const dir = tempDir();
    // The garbage collector's informers list every resource, roles too: it would add to the counts here.
    plat = await startInProcess({ args: ['--token-auth-file', tokens(dir), '--authorization-mode=RBAC', '--disabled-metrics=authentication_duration_seconds', '--controllers=*,-garbagecollector'] });
    scraper = plat.admin.with({ token: 'scraper-token' });
  });
  after(async () => { await plat?.stop(); });

  it('counts the requests that reached a handler, with upstream labels, and reads the store when scraped', async () => {
    const admin = plat.admin;
    const lists = [await admin.get(ROLES), await admin.get(`${ROLES}?limit=1`)];
    assert.deepEqual(lists.map((l) => l.status), [200, 200]);
    assert.equal((await admin.get(`${ROLES}/nope`)).status, 404);
    const role = { apiVersion: 'rbac.authorization.platform/v1', kind: 'Role', metadata: { name: 'r1' }, rules: [] };
    const dry = await admin.post(`${ROLES}?dryRun=All`, role);
    const bad = await admin.post(`${ROLES}?dryRun=Some`, role);
    assert.equal((await admin.get('/healthz')).status, 200);
    // No route (go-restful's 404 before any handler): not counted, so a caller cannot make a
    // series per subresource name it invents.
    assert.equal((await admin.get(`${ROLES}/r1/invented-sub`)).status, 404);
    assert.equal((await admin.get(`${ROLES}/r1/status/deeper`)).status, 404);
    // Refused before any handler: counted by authorization only.
    assert.equal((await admin.with({ token: 'bob-token' }).get('/metrics')).status, 403);
    const clusterRoles = (await admin.get('/apis/rbac.authorization.platform/v1/clusterroles')).json.items.length as number;
    const roles = (await admin.get('/apis/rbac.authorization.platform/v1/roles')).json.items.length as number;

    const r = await scraper.get('/metrics');
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
    const lines = new Set(r.text.split('\n'));
    const expect = (line: string) => assert.ok(lines.has(line), `missing: ${line}\n${r.text.split('\n').filter((l) => l.startsWith(line.split('{')[0]!)).join('\n')}`);
    expect('# HELP apiserver_request_total [STABLE] Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.');
    expect('# TYPE apiserver_request_total counter');
    expect(`apiserver_request_total{code="200",component="apiserver",dry_run="",${RBAC_LABELS},scope="namespace",subresource="",verb="LIST",version="v1"} 2`);
    expect(`apiserver_request_total{code="200",component="apiserver",dry_run="",${RBAC_LABELS},scope="cluster",subresource="",verb="LIST",version="v1"} 1`);
    expect(`apiserver_request_total{code="404",component="apiserver",dry_run="",${RBAC_LABELS},scope="resource",subresource="",verb="GET",version="v1"} 1`);
    expect(`apiserver_request_total{code="${dry.status}",component="apiserver",dry_run="All",${RBAC_LABELS},scope="resource",subresource="",verb="POST",version="v1"} 1`);
    expect(`apiserver_request_total{code="${bad.status}",component="apiserver",dry_run="invalid",${RBAC_LABELS},scope="resource",subresource="",verb="POST",version="v1"} 1`);
    // Start-up probes /healthz too: at least the one here.
    assert.ok([...lines].some((l) => /^apiserver_request_total\{code="200",component="",dry_run="",group="",resource="",scope="",subresource="\/healthz",verb="GET",version=""\} [1-9]\d*$/.test(l)), 'healthz counted');
    assert.ok(![...lines].some((l) => l.startsWith('apiserver_request_total{code="403"')), 'no 403 counted');
    assert.ok(![...lines].some((l) => l.includes('subresource="invented-sub"') || l.includes('subresource="status"')), 'no series for a path without a route');

    expect('# HELP apiserver_request_duration_seconds [STABLE] Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.');
    expect('# TYPE apiserver_request_duration_seconds histogram');
    expect(`apiserver_request_duration_seconds_count{component="apiserver",dry_run="",${RBAC_LABELS},scope="namespace",subresource="",verb="LIST",version="v1"} 2`);
    expect(`apiserver_request_duration_seconds_bucket{component="apiserver",dry_run="",${RBAC_LABELS},scope="namespace",subresource="",verb="LIST",version="v1",le="+Inf"} 2`);
    const les = r.text.split('\n').filter((l) => l.startsWith(`apiserver_request_duration_seconds_bucket{component="apiserver",dry_run="",${RBAC_LABELS},scope="namespace",subresource="",verb="LIST"`))
      .map((l) => /le="([^"]+)"/.exec(l)![1]);
    assert.deepEqual(les, ['0.005', '0.025', '0.05', '0.1', '0.2', '0.4', '0.6', '0.8', '1', '1.25', '1.5', '2', '3', '4', '5', '6', '8', '10', '15', '20', '30', '45', '60', '+Inf']);

    expect('# HELP apiserver_response_sizes [STABLE] Response size distribution in bytes for each group, version, verb, resource, subresource, scope and component.');
    expect(`apiserver_response_sizes_count{component="apiserver",${RBAC_LABELS},scope="namespace",subresource="",verb="LIST",version="v1"} 2`);
    expect(`apiserver_response_sizes_bucket{component="apiserver",${RBAC_LABELS},scope="namespace",subresource="",verb="LIST",version="v1",le="1000"} 2`);
    // The bytes of the two answers' bodies, as sent (a size of 0 would fall in every bucket too).
    expect(`apiserver_response_sizes_sum{component="apiserver",${RBAC_LABELS},scope="namespace",subresource="",verb="LIST",version="v1"} ${lists[0]!.raw.length + lists[1]!.raw.length}`);
    assert.ok(![...lines].some((l) => l.startsWith('apiserver_response_sizes_count') && l.includes('verb="POST"')), 'no size for a write');

    expect('# HELP apiserver_storage_objects [STABLE] Number of stored objects at the time of last check split by kind. In case of a fetching error, the value will be -1.');
    expect(`apiserver_storage_objects{resource="clusterroles.rbac.authorization.platform"} ${clusterRoles}`);
    expect(`apiserver_storage_objects{resource="roles.rbac.authorization.platform"} ${roles}`);

    expect('# HELP authorization_attempts_total [ALPHA] Counter of authorization attempts broken down by result. It can be either \'allowed\', \'denied\', \'no-opinion\' or \'error\'.');
    expect('authorization_attempts_total{result="no-opinion"} 1');
    expect('# HELP authentication_attempts [ALPHA] Counter of authenticated attempts.');
    assert.ok([...lines].some((l) => /^authentication_attempts\{result="success"\} \d+$/.test(l)));
    assert.ok([...lines].some((l) => /^authenticated_user_requests\{username="other"\} \d+$/.test(l)));
    // --disabled-metrics.
    assert.ok(!r.text.includes('authentication_duration_seconds'), 'a disabled family is not exposed');
    expect('disabled_metrics_total 1');
    expect('# TYPE process_start_time_seconds gauge');
  });

  it('counts a user whose request was refused by no authorizer as no-opinion, 403 naming /metrics', async () => {
    const r = await plat.admin.with({ token: 'bob-token' }).get('/metrics');
    assert.equal(r.status, 403);
    assert.equal(r.json.message, 'forbidden: User "bob" cannot get path "/metrics"');
  });

  it('answers kubectl get --raw /metrics', async () => {
    const k = new Kubectl(plat.kubeconfig);
    const r = await k.run(['get', '--raw', '/metrics']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^# HELP apiserver_request_total \[STABLE\]/m);
  });
});

describe('plat apiserver metrics flags', () => {
  it('refuses a bad --show-hidden-metrics-for-version with upstream message', async () => {
    for (const command of ['all', 'apiserver']) {
      const r = await bootRefusal(command, ['--data-dir', tempDir(), '--show-hidden-metrics-for-version=1.20'], { cwd: tempDir() });
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /--show-hidden-metrics-for-version must be omitted or have the value '1\.\d+'\. Only the previous minor version is allowed/);
    }
  });
});
