// /configz on the controller manager's endpoint, as kube-controller-manager's: the running
// configuration (--config under the command line, defaulted) under
// "platcontrollermanager.config.platform" with the internal type's Go field names and no
// kind/apiVersion, behind the delegated authentication and authorization (a non-resource request
// for /configz, not always allowed), served whatever the method; a value encoding/json refuses is
// its plain-text 500.
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DelegatingAuthenticator } from '../../core/authn/delegating-authenticator.js';
import { silentLogger } from '../../core/log.js';
import { MetricsRegistry } from '../../core/metrics/registry.js';
import { Configz } from '../../core/server/configz.js';
import { HealthChecks } from '../../core/server/health.js';
import { createEndpointApp } from '../../plugins/controller-manager-serving/app.js';
import { DelegatedAuthorizer, type SubjectAccessReviewer } from '../../plugins/controller-manager-serving/delegated-authorization.js';
import { freePort, tempDir, type RunningPlat } from '../helpers/plat.js';
import { startControllerManager, startTableAuthorizedPlat, writeKubeconfig, type RunningControllerManager } from './support.js';

const TOKENS = ['alice-token,alice,1', 'bob-token,bob,2'];

describe('controller manager /configz', () => {
  const dir = tempDir();
  let plat: RunningPlat;
  let admin: string;
  let cm: RunningControllerManager;
  let port: number;

  before(async () => {
    plat = await startTableAuthorizedPlat(dir, TOKENS, [
      { group: 'system:masters', decision: 'allow' },
      { user: 'alice', path: '/configz', decision: 'allow' },
      { user: 'bob', path: '/configz', decision: 'deny', reason: 'bob may not' },
    ]);
    admin = writeKubeconfig(plat, path.join(dir, 'admin.conf'), 'admin');
    const config = path.join(dir, 'cm.yaml');
    writeFileSync(config, [
      'apiVersion: platcontrollermanager.config.platform/v1alpha1',
      'kind: PlatControllerManagerConfiguration',
      'Generic:',
      '  ClientConnection: {qps: 0.1, burst: 7}',
      '  LeaderElection: {leaderElect: true, leaseDuration: 30s, renewDeadline: 20s}',
      '  Controllers: ["csrsigning", "-csrcleaner", "*"]',
      '  MinResyncPeriod: 90m',
      '',
    ].join('\n'));
    port = await freePort();
    cm = await startControllerManager(['--config', config, '--platconfig', admin, '--leader-elect=false', '--leader-elect-lease-duration=45s',
      '--plat-api-burst=9', '--bind-address', '127.0.0.1', '--secure-port', String(port),
      '--authentication-kubeconfig', admin, '--authorization-kubeconfig', admin]);
  });
  after(async () => {
    await cm?.stop();
    await plat?.stop();
  });

  it('shows the running configuration, the command line over the file, as encoding/json writes the internal type', async () => {
    const r = await cm.anonymous.with({ token: 'alice-token' }).get('/configz');
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-type'], 'application/json');
    assert.equal(r.headers['x-content-type-options'], 'nosniff');
    const signer = '{"CertFile":"","KeyFile":""}';
    assert.equal(r.text, '{"platcontrollermanager.config.platform":{'
      + `"Generic":{"Port":${port},"Address":"127.0.0.1","MinResyncPeriod":"1h30m0s",`
      + `"ClientConnection":{"Kubeconfig":${JSON.stringify(admin)},"ContentType":"application/vnd.platform.protobuf","QPS":0.1,"Burst":9},"ControllerStartInterval":"0s",`
      + '"LeaderElection":{"LeaderElect":false,"LeaseDuration":"45s","RenewDeadline":"20s","RetryPeriod":"2s","ResourceLock":"leases",'
      + '"ResourceName":"plat-controller-manager","ResourceNamespace":"plat-system"},'
      + '"Controllers":["certificatesigningrequest-signing-controller","-certificatesigningrequest-cleaner-controller","*"],'
      + '"Debugging":{"EnableProfiling":true,"EnableContentionProfiling":false}},'
      + '"KubeCloudShared":{"UseServiceAccountCredentials":false,"NodeMonitorPeriod":"5s"},'
      + '"CSRSigningController":{"ClusterSigningCertFile":"","ClusterSigningKeyFile":"",'
      + `"NodeAgentServingSignerConfiguration":${signer},"NodeAgentClientSignerConfiguration":${signer},`
      + `"PlatAPIServerClientSignerConfiguration":${signer},"LegacyUnknownSignerConfiguration":${signer},`
      + '"ClusterSigningDuration":"8760h0m0s"},'
      + '"GarbageCollectorController":{"EnableGarbageCollector":true,"ConcurrentGCSyncs":20},'
      + '"LegacySATokenCleaner":{"CleanUpPeriod":"8760h0m0s"},'
      + '"NamespaceController":{"NamespaceSyncPeriod":"5m0s","ConcurrentNamespaceSyncs":10},'
      + '"NodeLifecycleController":{"NodeEvictionRate":0.1,"SecondaryNodeEvictionRate":0.01,"NodeStartupGracePeriod":"1m0s",'
      + '"NodeMonitorGracePeriod":"50s","LargeClusterSizeThreshold":50,"UnhealthyZoneThreshold":0.55},'
      + '"SAController":{"ServiceAccountKeyFile":"","ConcurrentSATokenSyncs":5,"RootCAFile":""}}}');
  });

  it('is decided by the authorizer: a denied caller gets the endpoint\'s 403', async () => {
    const table = [
      { name: 'bob, denied by the review', token: 'bob-token', method: 'GET', status: 403, message: 'forbidden: User "bob" cannot get path "/configz": bob may not' },
      { name: 'anonymous, no rule', token: undefined, method: 'GET', status: 403, message: 'forbidden: User "system:anonymous" cannot get path "/configz": Everything is forbidden.' },
    ];
    for (const c of table) {
      const client = c.token ? cm.anonymous.with({ token: c.token }) : cm.anonymous;
      const r = await client.request(c.method, '/configz');
      assert.equal(r.status, c.status, c.name);
      assert.equal(r.json?.message, c.message, c.name);
      assert.equal(r.json?.reason, 'Forbidden', c.name);
    }
  });

  it('answers any method the authorizer allows with the same body, and only the exact path', async () => {
    const alice = cm.anonymous.with({ token: 'alice-token' });
    const get = await alice.get('/configz');
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const r = await alice.request(method, '/configz');
      assert.equal(r.status, 200, method);
      assert.equal(r.text, get.text, method);
    }
    assert.equal((await alice.get('/configz?x=1')).text, get.text);
    const sub = await alice.get('/configz/');
    assert.equal(sub.status, 403, 'a subpath is another path to the authorizer');
  });
});

describe('controller manager /configz, a value encoding/json refuses', () => {
  let server: Server;
  let base: string;
  before(async () => {
    const configz = new Configz();
    configz.set('platcontrollermanager.config.platform', { Generic: { ClientConnection: { QPS: Number.NaN } } });
    const allowAll = { decide: async () => ({ decision: 'allow', reason: '' }) } as unknown as SubjectAccessReviewer;
    const app = createEndpointApp({
      authenticator: new DelegatingAuthenticator({ anonymous: true }), authorizer: new DelegatedAuthorizer([], allowAll),
      health: new HealthChecks(), metrics: new MetricsRegistry('1.32'), configz, logger: silentLogger,
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  it("is http.Error's 500 with configz's chained error text", async () => {
    const r = await fetch(`${base}/configz`);
    assert.equal(r.status, 500);
    assert.equal(r.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(await r.text(), 'error marshaling json: json: error calling MarshalJSON for type *configz.Config: json: unsupported value: NaN\n');
  });
});
