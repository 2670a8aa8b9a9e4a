// `plat controller-manager` processes serve /metrics as kube-controller-manager does: the
// Prometheus text format behind the endpoint's delegated authentication and authorization (a
// non-resource `get` on /metrics, not an always-allowed path), with the work queues, leader
// election, REST client, running controllers and process figures; the metrics flags hide
// families, map label values outside an allow-list (flag or manifest) to `unexpected`, and bad
// values stop start-up with exit 2 naming the flag. (The API server's /metrics, and its flags:
// test/apiserver/metrics.test.ts.)
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { baseCsr, fixtures } from '../certificates/fixtures.js';
import { Client, freePort, tempDir, type RunningPlat } from '../helpers/plat.js';
import { bootRefusal } from '../helpers/boot-refusal.js';
import { runPlatAsync, startPlat, type Background } from '../helpers/run-plat.js';
import { startTableAuthorizedPlat, until, writeKubeconfig } from './support.js';

const TOKENS = ['alice-token,alice,1', 'bob-token,bob,2'];
// Frequent Lease requests (what the metrics count) and a lease no load on the machine takes from
// the first leader: later tests count on it still leading.
const ELECTION = ['--leader-elect-lease-duration=15s', '--leader-elect-renew-deadline=10s', '--leader-elect-retry-period=500ms'];
const LEASE_NAME = 'plat-controller-manager';

/** The value of one sample line (`name{labels}`), undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('plat controller-manager /metrics', () => {
  const dir = tempDir();
  let plat: RunningPlat;
  let admin: string;
  const procs: Background[] = [];

  /** A controller manager process with its endpoint on a free port, and a client trusting it. */
  const cm = async (args: string[], ready: RegExp) => {
    const port = await freePort();
    const certDir = tempDir();
    const p = await startPlat(['controller-manager', '--platconfig', admin, '--authentication-kubeconfig', admin, '--authorization-kubeconfig', admin,
      '--bind-address=127.0.0.1', `--secure-port=${port}`, `--cert-dir=${certDir}`, ...ELECTION, ...args], ready, { cwd: tempDir() });
    procs.push(p);
    const endpoint = new Client(`https://127.0.0.1:${port}`, { ca: readFileSync(path.join(certDir, 'plat-controller-manager.crt'), 'utf8') });
    return { p, endpoint, scrape: async () => (await endpoint.with({ token: 'alice-token' }).get('/metrics')).text };
  };

  before(async () => {
    plat = await startTableAuthorizedPlat(dir, TOKENS, [
      { group: 'system:masters', decision: 'allow' },
      { user: 'alice', path: '/metrics', verb: 'get', decision: 'allow' },
      { user: 'bob', path: '/metrics', decision: 'deny', reason: 'bob may not' },
      { user: 'alice', path: '/metrics/slis', decision: 'allow' },
    ]);
    admin = writeKubeconfig(plat, path.join(dir, 'admin.conf'), 'admin');
  });
  after(async () => {
    for (const p of procs) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    await plat?.stop();
  });

  it('serves the leader\'s metrics to an authorized user, in the Prometheus text format', async () => {
    const leader = await cm(['--allow-metric-labels=rest_client_request_duration_seconds,verb=GET'], /successfully acquired lease/);
    const host = new URL(plat.url).host;
    const res = await leader.endpoint.with({ token: 'alice-token' }).get('/metrics');
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
    const families = [...res.text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => m[1]!);
    assert.deepEqual(families, [...families].sort(), 'families sorted by name');
    // leader_election_slowpath_total has a series only once a renewal took the slow path, as upstream's.
    for (const f of ['leader_election_master_status', 'process_cpu_seconds_total', 'process_max_fds', 'process_open_fds',
      'process_resident_memory_bytes', 'process_start_time_seconds', 'process_virtual_memory_bytes', 'process_virtual_memory_max_bytes', 'rest_client_request_duration_seconds',
      'rest_client_requests_total', 'running_managed_controllers', 'workqueue_adds_total', 'workqueue_depth', 'workqueue_longest_running_processor_seconds',
      'workqueue_queue_duration_seconds', 'workqueue_retries_total', 'workqueue_unfinished_work_seconds', 'workqueue_work_duration_seconds']) {
      assert.ok(families.includes(f), `${f} is served`);
    }
    assert.match(res.text, /^# HELP workqueue_adds_total \[ALPHA\] Total number of adds handled by workqueue$/m);
    assert.match(res.text, /^# HELP process_cpu_seconds_total Total user and system CPU time spent in seconds\.$/m);
    assert.equal(sample(res.text, `leader_election_master_status{name="${LEASE_NAME}"}`), 1);
    assert.equal(sample(res.text, 'running_managed_controllers{manager="plat-controller-manager",name="certificatesigningrequest-approving-controller"}'), 1);
    assert.ok(sample(res.text, `rest_client_requests_total{code="200",host="${host}",method="GET"}`)! > 0, 'the informers\' lists answered 200');
    assert.ok((sample(res.text, 'process_start_time_seconds') ?? 0) > 1.6e9);

    // The leader renews with PUT: its latency, outside the allow-list, is recorded under `unexpected`.
    const renewed = await until(async () => sample(await leader.scrape(), `rest_client_request_duration_seconds_count{host="${host}",verb="unexpected"}`), 'a renewal');
    assert.ok(renewed > 0);

    const adds = (text: string) => sample(text, 'workqueue_adds_total{name="certificate"}') ?? 0;
    const before = adds(await leader.scrape());
    const created = await plat.admin.post('/apis/certificates.platform/v1/certificatesigningrequests', baseCsr(fixtures(), 'metrics-csr'));
    assert.equal(created.status, 201, created.text);
    await until(async () => adds(await leader.scrape()) > before, 'the CSR queue counts the new CSR');
    // 1.32's buckets: ExponentialBuckets(10e-9, 10, 10), 1e-08 up to 10.
    const buckets = [...(await leader.scrape()).matchAll(/^workqueue_queue_duration_seconds_bucket\{name="certificate",le="([^"]+)"\}/gm)].map((m) => m[1]);
    assert.deepEqual(buckets, ['1e-08', '1e-07', '1e-06', '9.999999999999999e-06', '9.999999999999999e-05', '0.001', '0.01', '0.1', '1', '10', '+Inf']);
  });

  it("serves the health checks' SLIs at /metrics/slis, recorded by each /healthz, and empties them on DELETE, as kube-controller-manager's", async () => {
    // A Lease of its own: the first test's leader still holds the default one.
    const leader = await cm(['--leader-elect-resource-name=slis'], /successfully acquired lease/);
    const alice = leader.endpoint.with({ token: 'alice-token' });
    assert.equal((await leader.endpoint.with({ token: 'bob-token' }).get('/metrics/slis')).status, 403, 'a path the authorizer decides, as /metrics');
    await until(async () => (await alice.get('/healthz?verbose')).text.includes('[+]certificatesigningrequest-cleaner-controller ok'), 'the controllers\' checks');
    const counted = async (check: string) => sample((await alice.get('/metrics/slis')).text, `kubernetes_healthchecks_total{name="${check}",status="success",type="healthz"}`)!;
    const before = { approving: await counted('certificatesigningrequest-approving-controller'), cleaner: await counted('certificatesigningrequest-cleaner-controller') };
    assert.equal((await alice.get('/healthz?exclude=certificatesigningrequest-cleaner-controller')).status, 200);
    const res = await alice.get('/metrics/slis');
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
    assert.match(res.text, /^# HELP kubernetes_healthcheck \[STABLE\] This metric records the result of a single healthcheck\.\n# TYPE kubernetes_healthcheck gauge$/m);
    assert.match(res.text, /^# HELP kubernetes_healthchecks_total \[STABLE\] This metric records the results of all healthcheck\.\n# TYPE kubernetes_healthchecks_total counter$/m);
    assert.equal(sample(res.text, 'kubernetes_healthcheck{name="leaderElection",type="healthz"}'), 1);
    assert.equal(await counted('certificatesigningrequest-approving-controller'), before.approving + 1);
    assert.equal(await counted('certificatesigningrequest-cleaner-controller'), before.cleaner, 'an excluded check is not evaluated, so not counted');
    assert.doesNotMatch(res.text, /^(registered_metrics_total|workqueue_|process_)/m, 'a registry of its own, apart from /metrics');
    const emptied = await alice.delete('/metrics/slis');
    assert.equal(emptied.status, 200);
    // HandlerWithReset's answer, not the (emptied) metrics.
    assert.equal(emptied.text, 'metrics reset\n');
    assert.equal(emptied.headers['content-type'], 'text/plain; charset=utf-8');
    assert.doesNotMatch((await alice.get('/metrics/slis')).text, /kubernetes_healthchecks_total\{name="certificatesigningrequest-approving-controller"/, 'emptied');
    await alice.get('/healthz');
    assert.equal(sample((await alice.get('/metrics/slis')).text, 'kubernetes_healthchecks_total{name="leaderElection",status="success",type="healthz"}'), 1, 'counted afresh');
    // /readyz has the /healthz checks, leader election's included; /livez only ping: a process
    // that leads or follows is alive. Each endpoint's checks are counted under its own type.
    const ready = await alice.get('/readyz?verbose');
    assert.equal(ready.status, 200);
    assert.match(ready.text, /^\[\+\]leaderElection ok\n(\[\+\](certificatesigningrequest|clusterrole|garbage-collector|namespace|node|serviceaccount|legacy-serviceaccount)-[a-z-]*controller ok\n)+readyz check passed\n$/);
    assert.deepEqual(await alice.get('/livez?verbose').then((r) => [r.status, r.text]), [200, '[+]ping ok\nlivez check passed\n']);
    const slis = (await alice.get('/metrics/slis')).text;
    assert.equal(sample(slis, 'kubernetes_healthchecks_total{name="leaderElection",status="success",type="readyz"}'), 1);
    assert.equal(sample(slis, 'kubernetes_healthchecks_total{name="ping",status="success",type="livez"}'), 1);
    assert.equal(sample(slis, 'kubernetes_healthchecks_total{name="leaderElection",status="success",type="livez"}'), undefined);
    leader.p.child.kill('SIGTERM');
  });

  it('answers callers without the right as the endpoint always does', async () => {
    const c = await cm(['--leader-elect=false'], /Serving securely/);
    const bob = await c.endpoint.with({ token: 'bob-token' }).get('/metrics');
    assert.equal(bob.status, 403);
    assert.equal(bob.json.kind, 'Status');
    assert.equal(bob.json.reason, 'Forbidden');
    assert.equal(bob.json.message, 'forbidden: User "bob" cannot get path "/metrics": bob may not');
    const anonymous = await c.endpoint.get('/metrics');
    assert.equal(anonymous.status, 403);
    assert.match(anonymous.json.message, /^forbidden: User "system:anonymous" cannot get path "\/metrics"/);
    const stranger = await c.endpoint.with({ token: 'no-such-token' }).get('/metrics');
    assert.equal(stranger.status, 401);
    // As client-go's process-wide metrics: the endpoint's own token and access reviews count.
    const text = await c.scrape();
    assert.ok((sample(text, `rest_client_requests_total{code="201",host="${new URL(plat.url).host}",method="POST"}`) ?? 0) >= 3, text);
    c.p.child.kill('SIGTERM');
  });

  it('a standby reports 0; the flags disable families and constrain labels from a manifest; hidden metrics of 1.31 may be asked for', async () => {
    const manifest = path.join(dir, 'allow.yaml');
    writeFileSync(manifest, 'rest_client_requests_total,method: PUT\n');
    // A name given twice counts twice in disabled_metrics_total, as 1.32's SetDisabledMetric.
    const standby = await cm(['--disabled-metrics=rest_client_request_duration_seconds,workqueue_depth,workqueue_depth', `--allow-metric-labels-manifest=${manifest}`,
      '--show-hidden-metrics-for-version=1.31'], /attempting to acquire leader lease/);
    const host = new URL(plat.url).host;
    const text = await until(async () => {
      const t = await standby.scrape();
      return sample(t, `rest_client_requests_total{code="200",host="${host}",method="unexpected"}`) ? t : undefined;
    }, 'the standby\'s Lease reads, counted under `unexpected`');
    assert.equal(sample(text, `leader_election_master_status{name="${LEASE_NAME}"}`), 0);
    assert.doesNotMatch(text, /rest_client_request_duration_seconds/);
    assert.doesNotMatch(text, /rest_client_requests_total\{[^}]*method="GET"/);
    assert.equal(sample(text, 'disabled_metrics_total'), 3);
    assert.ok(sample(text, 'cardinality_enforcement_unexpected_categorizations_total')! > 0);
    // Every family is registered from the start, so a standby lists what the leader does, and the
    // meta counter counts itself: the same figures whoever leads.
    assert.equal(sample(text, 'registered_metrics_total{deprecated_version="",stability_level="BETA"}'), 3);
    const registeredAlpha = sample(text, 'registered_metrics_total{deprecated_version="",stability_level="ALPHA"}');
    const leading = await cm(['--leader-elect=false'], /Serving securely/);
    assert.equal(sample(await leading.scrape(), 'registered_metrics_total{deprecated_version="",stability_level="ALPHA"}'), registeredAlpha);
    leading.p.child.kill('SIGTERM');
  });

  it('a manifest that cannot be read is logged and left out, as 1.32\'s; names to disable are not checked', async () => {
    const missing = path.join(dir, 'missing.yaml');
    const c = await cm(['--leader-elect=false', `--allow-metric-labels-manifest=${missing}`, '--disabled-metrics=not-a-metric-name'], /Serving securely/);
    assert.match(c.p.output(), /Failed to read allow list manifest: open .*missing\.yaml: no such file or directory\n/);
    assert.equal(sample(await c.scrape(), 'disabled_metrics_total'), 1);
    c.p.child.kill('SIGTERM');
  });

  it('refuses bad values at start-up with exit 2, naming the flag', async () => {
    const noComma = path.join(dir, 'no-comma.yaml');
    writeFileSync(noComma, 'workqueue_depth: certificate\n');
    const cases: [string, RegExp][] = [
      ['--show-hidden-metrics-for-version=1.30', /--show-hidden-metrics-for-version must be omitted or have the value '1\.31'\. Only the previous minor version is allowed/],
      ['--allow-metric-labels=no_label=v1', /--allow-metric-labels must have a list of kv pair with format `metricName:labelName=labelValue, labelValue,\.\.\.`/],
      [`--allow-metric-labels-manifest=${noComma}`, /--allow-metric-labels-manifest=\S+: the key "workqueue_depth" is not "<MetricName>,<LabelName>"/],
    ];
    // Booted in this process (boot refuses before anything starts), the first as the real process too.
    for (const [arg, message] of cases) {
      const r = await bootRefusal('controller-manager', ['--platconfig', admin, '--secure-port=0', arg], { cwd: tempDir() });
      assert.equal(r.code, 2, `${arg}: ${r.stderr}`);
      assert.match(r.stderr, message, arg);
    }
    const [arg, message] = cases[0]!;
    const r = await runPlatAsync(['controller-manager', '--platconfig', admin, '--secure-port=0', arg], { cwd: tempDir() });
    assert.equal(r.code, 2, `${arg}: ${r.stderr}`);
    assert.match(r.stderr, message, arg);
  });
});
