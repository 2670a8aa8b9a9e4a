// --runtime-config: group versions and resources left out are not routed, not in discovery (legacy
// and aggregated), not in OpenAPI, and kubectl sees them as unknown types; the refusals are
// kube-apiserver 1.32's words. Real `plat all` in process, real kubectl.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { completeRuntimeConfig, mergeRuntimeConfig } from '../../core/registry/runtime-config.js';
import { bootRefusal } from '../helpers/boot-refusal.js';
import { Kubectl } from '../helpers/kubectl.js';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';

const AGG_V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';

/** Every group/version/resource discovery shows, legacy and aggregated, after checking they agree. */
async function discovered(plat: RunningPlat): Promise<string[]> {
  const legacy: string[] = [];
  const api = await plat.admin.get('/api');
  for (const v of api.json.versions as string[]) {
    for (const r of (await plat.admin.get(`/api/${v}`)).json.resources) if (!r.name.includes('/')) legacy.push(`/${v}/${r.name}`);
  }
  for (const g of (await plat.admin.get('/apis')).json.groups) {
    for (const v of g.versions) {
      for (const r of (await plat.admin.get(`/apis/${v.groupVersion}`)).json.resources) if (!r.name.includes('/')) legacy.push(`${v.groupVersion}/${r.name}`);
    }
  }
  const aggregated: string[] = [];
  for (const root of ['/api', '/apis']) {
    for (const item of (await plat.admin.get(root, { accept: AGG_V2 })).json.items) {
      const group = item.metadata.name ?? '';
      for (const v of item.versions) for (const r of v.resources) aggregated.push(`${group}/${v.version}/${r.resource}`);
    }
  }
  assert.deepEqual(aggregated.sort(), [...legacy].sort());
  return legacy.sort();
}

async function openApiPaths(plat: RunningPlat): Promise<string[]> {
  return Object.keys((await plat.admin.get('/openapi/v3')).json.paths).sort();
}

describe('--runtime-config certificates.platform/v1=false', () => {
  let plat: RunningPlat;
  let kubectl: Kubectl;
  before(async () => {
    plat = await startInProcess({ args: ['--runtime-config', 'certificates.platform/v1=false'] });
    kubectl = new Kubectl(plat.kubeconfig);
  });
  after(async () => { await plat?.stop(); });

  it('answers 404 under the group, as for a path nothing serves', async () => {
    const unknown = await plat.admin.get('/apis/nothing.platform/v1/things');
    assert.equal(unknown.status, 404);
    for (const p of [CSRS, `${CSRS}/x`, `${CSRS}/x/approval`, '/apis/certificates.platform/v1', '/apis/certificates.platform']) {
      const r = await plat.admin.get(p);
      assert.equal(r.status, 404, p);
      assert.deepEqual(r.json, unknown.json, p);
    }
    const create = await plat.admin.post(CSRS, { apiVersion: 'certificates.platform/v1', kind: 'CertificateSigningRequest', metadata: { name: 'x' } });
    assert.equal(create.status, 404);
    // The rest is served.
    assert.equal((await plat.admin.get('/apis/coordination.platform/v1/leases')).status, 200);
  });

  it('leaves the group out of discovery and OpenAPI (v3 and v2)', async () => {
    const seen = await discovered(plat);
    assert.ok(!seen.some((r) => r.startsWith('certificates.platform/')), seen.join(' '));
    assert.ok(seen.includes('coordination.platform/v1/leases'));
    const paths = await openApiPaths(plat);
    assert.ok(!paths.includes('apis/certificates.platform/v1'), paths.join(' '));
    assert.ok(paths.includes('apis/coordination.platform/v1'));
    // As for any group version the index does not list: upstream's handler writes nothing.
    const gv = await plat.admin.get('/openapi/v3/apis/certificates.platform/v1');
    assert.deepEqual([gv.status, gv.raw.length], [200, 0]);
    const v2 = (await plat.admin.get('/openapi/v2')).json;
    assert.ok(!Object.keys(v2.paths).some((p) => p.startsWith('/apis/certificates.platform/')), Object.keys(v2.paths).join(' '));
    assert.ok(!v2.definitions['platform.certificates.v1.CertificateSigningRequest']);
    assert.ok(v2.definitions['platform.coordination.v1.Lease']);
  });

  it('kubectl: not in api-resources, and get fails as for an unknown resource type', async () => {
    const resources = await kubectl.run(['api-resources', '-o', 'name']);
    assert.equal(resources.code, 0, resources.stderr);
    assert.ok(!/certificatesigningrequests/.test(resources.stdout), resources.stdout);
    assert.match(resources.stdout, /^leases\.coordination\.platform$/m);
    const get = await kubectl.run(['get', 'csr']);
    assert.equal(get.code, 1);
    assert.match(get.stderr, /error: the server doesn't have a resource type "csr"/);
  });

  it('the controllers that need the group fail to list it, the process goes on serving', async () => {
    assert.equal((await plat.admin.get('/readyz')).status, 200);
    assert.equal((await plat.admin.get('/api/v1/namespaces')).status, 200);
  });
});

describe('--runtime-config api/all=false with some group versions and resources back on', () => {
  let plat: RunningPlat;
  let kubectl: Kubectl;
  before(async () => {
    const tokens = path.join(tempDir(), 'tokens.csv');
    writeFileSync(tokens, 'alice-token,alice,1001\n');
    // Flag order does not matter: api/all applies first, group versions next, resources last.
    plat = await startInProcess({
      args: ['--runtime-config', 'rbac.authorization.platform/v1/roles=false,rbac.authorization.platform/v1=true,api/all=false',
        '--runtime-config', 'coordination.platform/v1, /v1/namespaces', '--authorization-mode=RBAC', '--token-auth-file', tokens],
    });
    kubectl = new Kubectl(plat.kubeconfig);
  });
  after(async () => { await plat?.stop(); });

  it('serves only what the keys enable', async () => {
    assert.deepEqual(await discovered(plat), [
      '/v1/namespaces', 'coordination.platform/v1/leases',
      'rbac.authorization.platform/v1/clusterrolebindings', 'rbac.authorization.platform/v1/clusterroles', 'rbac.authorization.platform/v1/rolebindings',
    ]);
    assert.deepEqual(await openApiPaths(plat), ['api/v1', 'apis/coordination.platform/v1', 'apis/rbac.authorization.platform/v1']);
    assert.equal((await plat.admin.get('/api/v1/namespaces')).status, 200);
    assert.equal((await plat.admin.get('/api/v1/secrets')).status, 404);
    assert.equal((await plat.admin.get('/apis/rbac.authorization.platform/v1/roles')).status, 404);
    assert.equal((await plat.admin.get('/apis/rbac.authorization.platform/v1/clusterroles')).status, 200);
    assert.equal((await plat.admin.get(CSRS)).status, 404);
    assert.equal((await plat.admin.get('/apis/authorization.platform')).status, 404);
  });

  it('the upstream group a resource renames follows the resource', async () => {
    assert.equal((await plat.admin.get('/apis/rbac.authorization.k8s.io/v1/clusterroles')).status, 200);
    assert.equal((await plat.admin.get('/apis/rbac.authorization.k8s.io/v1/roles')).status, 404);
    assert.equal((await plat.admin.post('/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
      apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { nonResourceAttributes: { path: '/', verb: 'get' } },
    })).status, 404);
  });

  it('RBAC authorizes with the kinds still served (no Roles: none apply)', async () => {
    const alice = plat.admin.with({ token: 'alice-token' });
    assert.equal((await alice.get('/api/v1/namespaces')).status, 403);
    const rbac = '/apis/rbac.authorization.platform/v1';
    assert.equal((await plat.admin.post(`${rbac}/clusterroles`, {
      apiVersion: 'rbac.authorization.platform/v1', kind: 'ClusterRole', metadata: { name: 'ns-reader' },
      rules: [{ apiGroups: [''], resources: ['namespaces'], verbs: ['list'] }],
    })).status, 201);
    assert.equal((await plat.admin.post(`${rbac}/clusterrolebindings`, {
      apiVersion: 'rbac.authorization.platform/v1', kind: 'ClusterRoleBinding', metadata: { name: 'alice-ns-reader' },
      roleRef: { apiGroup: 'rbac.authorization.platform', kind: 'ClusterRole', name: 'ns-reader' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.platform', name: 'alice' }],
    })).status, 201);
    assert.equal((await alice.get('/api/v1/namespaces')).status, 200);
  });

  it('kubectl sees the same', async () => {
    const resources = await kubectl.run(['api-resources', '-o', 'name']);
    assert.equal(resources.code, 0, resources.stderr);
    assert.deepEqual(resources.stdout.trim().split('\n').sort(), [
      'clusterrolebindings.rbac.authorization.platform', 'clusterroles.rbac.authorization.platform', 'leases.coordination.platform',
      'namespaces', 'rolebindings.rbac.authorization.platform',
    ]);
    const roles = await kubectl.run(['get', 'roles.rbac.authorization.platform', '-A']);
    assert.equal(roles.code, 1);
    assert.match(roles.stderr, /error: the server doesn't have a resource type "roles"/);
    const ns = await kubectl.run(['get', 'namespaces', '-o', 'name']);
    assert.equal(ns.code, 0, ns.stderr);
  });
});

describe('--runtime-config v1=false', () => {
  let plat: RunningPlat;
  let kubectl: Kubectl;
  before(async () => {
    plat = await startInProcess({ args: ['--runtime-config', 'v1=false'] });
    kubectl = new Kubectl(plat.kubeconfig);
  });
  after(async () => { await plat?.stop(); });

  it('/api is not served at all, as upstream installs it with the core group only', async () => {
    const unknown = await plat.admin.get('/apis/nothing.platform');
    for (const accept of ['application/json', AGG_V2]) {
      const r = await plat.admin.get('/api', { accept });
      assert.equal(r.status, 404, accept);
      assert.deepEqual(r.json, unknown.json);
    }
    assert.equal((await plat.admin.get('/api/v1/namespaces')).status, 404);
    const root: string[] = (await plat.admin.get('/')).json.paths;
    assert.ok(!root.some((p) => p === '/api' || p.startsWith('/api/')), root.join(' '));
    assert.ok(root.includes('/apis/certificates.platform/v1'));
    assert.ok(!(await openApiPaths(plat)).includes('api/v1'));
  });

  it('kubectl lists the groups still served and knows no namespaces', async () => {
    const resources = await kubectl.run(['api-resources', '-o', 'name']);
    assert.equal(resources.code, 0, resources.stderr);
    assert.match(resources.stdout, /^certificatesigningrequests\.certificates\.platform$/m);
    assert.ok(!/^namespaces$/m.test(resources.stdout), resources.stdout);
    const get = await kubectl.run(['get', 'namespaces']);
    assert.equal(get.code, 1);
    assert.match(get.stderr, /error: the server doesn't have a resource type "namespaces"/);
  });
});

describe('--runtime-config semantics (MergeAPIResourceConfigs)', () => {
  const registry = (gvs: Record<string, string[]>) => ({ groups: () => Object.keys(gvs), versions: (g: string) => gvs[g] ?? [] });
  const gvs = registry({ '': ['v1'], 'a.platform': ['v1', 'v1beta1', 'v2alpha1'] });
  const merged = (raw: Record<string, string>) => mergeRuntimeConfig(completeRuntimeConfig(raw), gvs);

  it('GA versions are on by default, beta and alpha off; api/beta and api/alpha turn them on', () => {
    const none = merged({});
    assert.deepEqual(['v1', 'v1beta1', 'v2alpha1'].map((v) => none.resourceEnabled('a.platform', v, 'xs')), [true, false, false]);
    const all = merged({ 'api/beta': 'true', 'api/alpha': 'true' });
    assert.deepEqual(['v1', 'v1beta1', 'v2alpha1'].map((v) => all.resourceEnabled('a.platform', v, 'xs')), [true, true, true]);
    assert.equal(merged({ 'api/ga': 'false' }).resourceEnabled('', 'v1', 'pods'), false);
    assert.equal(merged({ 'api/ga': 'false' }).resourceEnabled('a.platform', 'v1beta1', 'xs'), false);
  });

  it('a resource key beats its version key, whatever their order; a bare key is true', () => {
    const c = merged({ 'a.platform/v1/xs': 'false', 'a.platform/v1': '', 'a.platform/v1beta1/ys': 'True' });
    assert.equal(c.resourceEnabled('a.platform', 'v1', 'xs'), false);
    assert.equal(c.resourceEnabled('a.platform', 'v1', 'zs'), true);
    // A resource is served alone from a version that is off.
    assert.equal(c.resourceEnabled('a.platform', 'v1beta1', 'ys'), true);
    assert.equal(c.resourceEnabled('a.platform', 'v1beta1', 'zs'), false);
  });

  it('v1, api/v1 and (as upstream) v1/<resource> and api/v1/<resource> address the whole core group; /v1/<resource> one resource', () => {
    for (const key of ['v1', 'api/v1', 'v1/pods', 'api/v1/pods']) {
      const c = merged({ [key]: 'false' });
      assert.deepEqual([c.resourceEnabled('', 'v1', 'pods'), c.resourceEnabled('', 'v1', 'secrets')], [false, false], key);
    }
    const one = merged({ '/v1/pods': 'false' });
    assert.deepEqual([one.resourceEnabled('', 'v1', 'pods'), one.resourceEnabled('', 'v1', 'secrets')], [false, true]);
    assert.equal(merged({ 'api/legacy': 'false' }).resourceEnabled('', 'v1', 'pods'), true);
  });
});

describe('--runtime-config refusals (upstream texts, exit 2 from the command line)', () => {
  const cases: Array<[string, string]> = [
    ['api/all=false', 'invalid key with only api/all=false'],
    ['api/all', 'invalid value api/all='],
    ['api/beta=yes', 'invalid value api/beta=yes'],
    ['apiall=false', 'runtime-config invalid key apiall'],
    ['a/b/c/d', 'runtime-config invalid key a/b/c/d'],
    ['apps/v1=false,api/v2=false', 'unknown api groups apps,api'],
    ['certificates.platform/v1beta1=true', 'group version certificates.platform/v1beta1 that has not been registered'],
    ['v2=true', 'runtime-config invalid key v2'],
    ['/v2=true', 'group version v2 that has not been registered'],
    ['certificates.platform/v1=maybe', 'invalid value of certificates.platform/v1: maybe, err: strconv.ParseBool: parsing "maybe": invalid syntax'],
    ['certificates.platform/v1/CertificateSigningRequests=false',
      'invalid key certificates.platform/v1/CertificateSigningRequests: group/version/resource and resource is always lowercase plural, not "CertificateSigningRequests"'],
  ];
  for (const [value, message] of cases) {
    it(value, async () => {
      const r = await bootRefusal('apiserver', ['--secure-port=0', '--data-dir=/nonexistent', `--runtime-config=${value}`]);
      assert.equal(r.code, 2);
      assert.equal(r.stderr.trim().split('\n').at(-1), `plat apiserver: ${message}`);
    });
  }

  it('from the config file: exit 1, the file and field named; a map there is read as the flag\'s pairs', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'plat.config.json');
    writeFileSync(file, JSON.stringify({ flags: { 'runtime-config': { 'certificates.platform/v1': 'maybe' } } }));
    const r = await bootRefusal('apiserver', ['--data-dir', dir, '--secure-port=0'], { cwd: dir, configFile: file });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /plat\.config\.json.*runtime-config.*: invalid value of certificates\.platform\/v1: maybe, err: strconv\.ParseBool: parsing "maybe": invalid syntax\n$/);
  });

  it('is gathered with the other options problems', async () => {
    const r = await bootRefusal('all', ['--secure-port=0', '--data-dir=/nonexistent', '--request-timeout=-1s', '--runtime-config=foo/v1']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /plat all: \[.*, unknown api groups foo\]\n$/);
  });
});
