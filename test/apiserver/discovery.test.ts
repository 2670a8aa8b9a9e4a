// Non-resource endpoints over real HTTPS (in-process `plat all`): /version, legacy and aggregated
// discovery, OpenAPI v3, health checks, 404s for unknown paths and 401 without valid credentials —
// kubectl-wire.md §1–§4, k8s-behaviour.md §8.1.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeCa, makeClientCert } from '../helpers/certs.js';
import { Client, startInProcess, type RunningPlat } from '../helpers/plat.js';

const GVK = { group: 'certificates.platform', version: 'v1', kind: 'CertificateSigningRequest' };
const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const SUB_VERBS = ['get', 'patch', 'update'];
const AGG_V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const AGG_V2BETA1 = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';
/** What kubectl 1.32 sends on /api and /apis. */
const KUBECTL_DISCOVERY_ACCEPT = `${AGG_V2},${AGG_V2BETA1},application/json`;

describe('discovery, OpenAPI, health and authentication', () => {
  let plat: RunningPlat;
  before(async () => { plat = await startInProcess(); });
  after(async () => { await plat?.stop(); });

  it('/version reports 1.32 (the kubectl dispatcher picks its client by minor)', async () => {
    const r = await plat.admin.get('/version?timeout=5s', { accept: 'application/json, */*' });
    assert.equal(r.status, 200);
    assert.match(String(r.headers['content-type']), /^application\/json/);
    assert.equal(r.json.major, '1');
    assert.equal(r.json.minor, '32');
    for (const k of ['gitVersion', 'gitCommit', 'gitTreeState', 'buildDate', 'goVersion', 'compiler', 'platform']) {
      assert.equal(typeof r.json[k], 'string', k);
    }
    // A non-API object: written as upstream's WriteRawJSON writes it, indented, no newline after.
    assert.equal(r.text, JSON.stringify(r.json, null, 2));
  });

  it('/ lists the paths served, each health check\'s too, indented', async () => {
    const r = await plat.admin.get('/');
    assert.equal(r.status, 200);
    assert.equal(r.text, JSON.stringify(r.json, null, 2));
    const paths: string[] = r.json.paths;
    assert.deepEqual(paths, [...paths].sort());
    for (const p of ['/api', '/api/v1', '/apis', '/apis/certificates.platform/v1', '/version', '/openapi/v3', '/healthz', '/livez', '/readyz', '/healthz/ping', '/livez/ping', '/readyz/ping']) {
      assert.ok(paths.includes(p), p);
    }
    // Every listed health path answers.
    for (const p of paths.filter((x) => /^\/(healthz|livez|readyz)\//.test(x))) assert.equal((await plat.admin.get(p)).status, 200, p);
  });

  it('legacy discovery: /api, /apis, /apis/<group>, /apis/<group>/<version>', async () => {
    const api = await plat.admin.get('/api');
    assert.equal(api.status, 200);
    assert.match(String(api.headers['content-type']), /^application\/json(;|$)/);
    assert.equal(api.json.kind, 'APIVersions');
    // core/v1 (Namespaces, Secrets) is served, so /api advertises v1.
    assert.deepEqual(api.json.versions, ['v1']);
    assert.equal(api.json.serverAddressByClientCIDRs[0].clientCIDR, '0.0.0.0/0');
    assert.match(api.json.serverAddressByClientCIDRs[0].serverAddress, /^[^:]+:\d+$/);

    const apis = await plat.admin.get('/apis');
    assert.equal(apis.status, 200);
    assert.equal(apis.json.kind, 'APIGroupList');
    assert.equal(apis.json.apiVersion, 'v1');
    const gv = { groupVersion: 'certificates.platform/v1', version: 'v1' };
    // As kube-aggregator's /apis: the items are bare APIGroups, without kind and apiVersion.
    assert.equal(JSON.stringify(apis.json.groups.find((g: any) => g.name === 'certificates.platform')),
      JSON.stringify({ name: 'certificates.platform', versions: [gv], preferredVersion: gv }));
    // Every group the profile serves, in registration order, certificates first; each appears once.
    const groups = apis.json.groups.map((g: any) => g.name);
    assert.deepEqual(groups.slice(0, 2), ['certificates.platform', 'authentication.platform']);
    assert.deepEqual(groups, [...new Set(groups)]);
    for (const g of ['authorization.platform', 'coordination.platform', 'admissionregistration.platform', 'rbac.authorization.platform']) assert.ok(groups.includes(g), g);

    const group = await plat.admin.get('/apis/certificates.platform');
    assert.equal(group.status, 200);
    assert.deepEqual(Object.keys(group.json), ['kind', 'apiVersion', 'name', 'versions', 'preferredVersion']);
    assert.equal(group.json.kind, 'APIGroup');
    assert.equal(group.json.name, 'certificates.platform');
    assert.deepEqual(group.json.versions, [gv]);
    assert.deepEqual(group.json.preferredVersion, gv);

    const list = await plat.admin.get('/apis/certificates.platform/v1?timeout=32s', { accept: 'application/json, */*' });
    assert.equal(list.status, 200);
    assert.equal(list.json.kind, 'APIResourceList');
    assert.equal(list.json.apiVersion, 'v1');
    assert.equal(list.json.groupVersion, 'certificates.platform/v1');
    const byName = new Map<string, any>(list.json.resources.map((r: any) => [r.name, r]));
    // In upstream's installer order: the group version's paths sorted.
    assert.deepEqual([...byName.keys()], ['certificatesigningrequests', 'certificatesigningrequests/approval', 'certificatesigningrequests/status']);
    const main = byName.get('certificatesigningrequests');
    assert.equal(main.singularName, 'certificatesigningrequest');
    assert.equal(main.namespaced, false);
    assert.equal(main.kind, 'CertificateSigningRequest');
    assert.deepEqual([...main.verbs].sort(), ALL_VERBS);
    assert.equal(typeof main.storageVersionHash, 'string');
    for (const sub of ['approval', 'status']) {
      const r = byName.get(`certificatesigningrequests/${sub}`);
      assert.equal(r.namespaced, false);
      assert.equal(r.kind, 'CertificateSigningRequest');
      assert.deepEqual([...r.verbs].sort(), SUB_VERBS);
    }

    const core = await plat.admin.get('/api/v1');
    assert.equal(core.status, 200);
    assert.equal(core.json.groupVersion, 'v1');
    assert.deepEqual(core.json.resources.filter((r: any) => !r.name.includes('/')).map((r: any) => [r.name, r.namespaced]), [['events', true], ['namespaces', false], ['nodes', false], ['pods', true], ['secrets', true], ['serviceaccounts', true]]);
    const names = core.json.resources.map((r: any) => r.name);
    assert.deepEqual(names, [...names].sort());

    for (const p of ['/apis/nope', '/apis/nope/v1', '/apis/certificates.platform/v2', '/api/v2']) {
      const r = await plat.admin.get(p);
      assert.equal(r.status, 404, p);
      assert.equal(r.json.kind, 'Status', p);
    }
  });

  it('aggregated discovery (v2 and v2beta1) only when Accept asks for it, labelled with its exact Content-Type', async () => {
    const apis = await plat.admin.get('/apis?timeout=32s', { accept: KUBECTL_DISCOVERY_ACCEPT });
    assert.equal(apis.status, 200);
    assert.equal(apis.headers['content-type'], AGG_V2);
    assert.equal(apis.json.kind, 'APIGroupDiscoveryList');
    assert.equal(apis.json.apiVersion, 'apidiscovery.k8s.io/v2');
    assert.deepEqual(apis.json.metadata, {});
    const groups = (await plat.admin.get('/apis')).json.groups.map((g: any) => g.name);
    assert.deepEqual(apis.json.items.map((i: any) => i.metadata.name), groups);
    const item = apis.json.items[0];
    assert.deepEqual(item.metadata, { name: 'certificates.platform', creationTimestamp: null });
    assert.equal(item.versions.length, 1);
    assert.equal(item.versions[0].version, 'v1');
    assert.equal(item.versions[0].freshness, 'Current');
    const [res] = item.versions[0].resources;
    assert.equal(item.versions[0].resources.length, 1);
    assert.equal(res.resource, 'certificatesigningrequests');
    assert.deepEqual(res.responseKind, GVK);
    assert.equal(res.scope, 'Cluster');
    assert.equal(res.singularResource, 'certificatesigningrequest');
    assert.deepEqual([...res.verbs].sort(), ALL_VERBS);
    assert.deepEqual(res.subresources.map((s: any) => s.subresource), ['approval', 'status']);
    for (const s of res.subresources) {
      assert.deepEqual(s.responseKind, GVK);
      assert.deepEqual([...s.verbs].sort(), SUB_VERBS);
    }

    const api = await plat.admin.get('/api?timeout=32s', { accept: KUBECTL_DISCOVERY_ACCEPT });
    assert.equal(api.status, 200);
    assert.equal(api.headers['content-type'], AGG_V2);
    assert.equal(api.json.kind, 'APIGroupDiscoveryList');
    // The core group's name is empty, which ObjectMeta's omitempty leaves out.
    assert.deepEqual(api.json.items.map((i: any) => [i.metadata, i.versions.map((v: any) => v.version)]), [[{ creationTimestamp: null }, ['v1']]]);
    assert.deepEqual(api.json.items[0].versions[0].resources.map((r: any) => [r.resource, r.scope]), [['events', 'Namespaced'], ['namespaces', 'Cluster'], ['nodes', 'Cluster'], ['pods', 'Namespaced'], ['secrets', 'Namespaced'], ['serviceaccounts', 'Namespaced']]);

    // kubectl 1.29 asks for v2beta1 only.
    const beta = await plat.admin.get('/apis', { accept: `${AGG_V2BETA1},application/json` });
    assert.equal(beta.status, 200);
    assert.equal(beta.headers['content-type'], AGG_V2BETA1);
    assert.equal(beta.json.kind, 'APIGroupDiscoveryList');
    assert.equal(beta.json.apiVersion, 'apidiscovery.k8s.io/v2beta1');
    assert.deepEqual(beta.json.items, apis.json.items);

    // An Accept with no aggregated clause gets the legacy documents.
    for (const accept of ['application/json', 'application/json, */*', '*/*']) {
      const plain = await plat.admin.get('/apis', { accept });
      assert.equal(plain.status, 200, accept);
      assert.equal(plain.headers['content-type'], 'application/json', accept);
      assert.equal(plain.json.kind, 'APIGroupList', accept);
    }
  });

  it('/openapi/v3: root without leading slashes, GV document kubectl can use for fieldValidation and explain', async () => {
    const root = await plat.admin.get('/openapi/v3?timeout=32s', { accept: 'application/json, */*' });
    assert.equal(root.status, 200);
    assert.match(String(root.headers['content-type']), /^application\/json/);
    const listed = (await plat.admin.get('/apis')).json.groups.map((g: any) => `apis/${g.preferredVersion.groupVersion}`);
    // Go's json.Marshal of the index's map: keys sorted.
    assert.deepEqual(Object.keys(root.json.paths), ['api/v1', ...listed.sort()]);
    const url = root.json.paths['apis/certificates.platform/v1'].serverRelativeURL as string;
    assert.match(url, /^\/openapi\/v3\/apis\/certificates\.platform\/v1(\?hash=[0-9A-F]+)?$/);

    const r = await plat.admin.get(`${url}${url.includes('?') ? '&' : '?'}timeout=32s`);
    assert.equal(r.status, 200, r.text);
    assert.match(String(r.headers['content-type']), /^application\/json/);
    const doc = r.json;
    assert.match(doc.openapi, /^3\./);

    // Every PATCH operation carries the GVK object and an operation-level fieldValidation parameter.
    let patches = 0;
    for (const [p, item] of Object.entries<any>(doc.paths)) {
      if (!item.patch) continue;
      patches++;
      assert.deepEqual(item.patch['x-kubernetes-group-version-kind'], GVK, p);
      assert.ok(item.patch.parameters.some((x: any) => x.name === 'fieldValidation' && x.in === 'query'), `${p}: fieldValidation`);
      assert.ok(!(item.parameters ?? []).some((x: any) => x.name === 'fieldValidation'), `${p}: fieldValidation must not be path-level`);
      for (const t of ['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml']) {
        assert.ok(item.patch.requestBody.content[t], `${p}: ${t}`);
      }
    }
    const base = '/apis/certificates.platform/v1/certificatesigningrequests';
    assert.equal(patches, 3);
    for (const p of [`${base}/{name}`, `${base}/{name}/approval`, `${base}/{name}/status`]) assert.ok(doc.paths[p]?.patch, p);
    // explain: the collection path's first operation carries the GVK.
    assert.deepEqual(doc.paths[base].get['x-kubernetes-group-version-kind'], GVK);
    assert.equal(doc.paths[base].get['x-kubernetes-action'], 'list');

    // explain: a components.schemas entry whose GVK is an array containing the GVK.
    const entries = Object.entries<any>(doc.components.schemas).filter(([, s]) =>
      Array.isArray(s['x-kubernetes-group-version-kind']) && s['x-kubernetes-group-version-kind'].some((g: any) =>
        g.group === GVK.group && g.version === GVK.version && g.kind === GVK.kind));
    assert.equal(entries.length, 1);
    const [, csr] = entries[0]!;
    assert.equal(csr.type, 'object');
    assert.equal(typeof csr.description, 'string');
    assert.equal(csr.properties.spec.properties.request.type, 'string');
    assert.equal(csr.properties.spec.properties.request.format, 'byte');
    assert.equal(csr.properties.status.properties.certificate.format, 'byte');
    const conditions = csr.properties.status.properties.conditions;
    assert.equal(conditions['x-kubernetes-list-type'], 'map');
    assert.deepEqual(conditions['x-kubernetes-list-map-keys'], ['type']);
    // metadata refers to ObjectMeta, which the document defines.
    const metaRef = JSON.stringify(csr.properties.metadata);
    const m = /#\/components\/schemas\/([^"]+)/.exec(metaRef);
    assert.ok(m && doc.components.schemas[m[1]!], 'metadata $ref resolves');

    // The hash in the root makes the document cacheable.
    if (url.includes('?hash=')) assert.match(String(r.headers['cache-control']), /immutable/);
    // handler3 writes nothing for a group version it does not have: Go's empty 200.
    const missing = await plat.admin.get('/openapi/v3/apis/nope/v1');
    assert.equal(missing.status, 200);
    assert.equal(missing.text, '');
  });

  it('unknown paths are 404 Status JSON', async () => {
    for (const p of ['/nope', '/apis/certificates.platform/v1/nothing', '/apis/other.group/v1/things', '/openapi/v2x']) {
      const r = await plat.admin.get(p);
      assert.equal(r.status, 404, p);
      assert.match(String(r.headers['content-type']), /^application\/json/, p);
      assert.equal(r.json.kind, 'Status', p);
      assert.equal(r.json.apiVersion, 'v1', p);
      assert.equal(r.json.status, 'Failure', p);
      assert.equal(r.json.reason, 'NotFound', p);
      assert.equal(r.json.code, 404, p);
    }
  });

  it('/healthz, /livez, /readyz: ok, ?verbose, per-check paths', async () => {
    for (const ep of ['healthz', 'livez', 'readyz']) {
      const r = await plat.admin.get(`/${ep}`);
      assert.equal(r.status, 200, ep);
      assert.equal(r.text, 'ok', ep);
      assert.deepEqual([r.headers['content-type'], r.headers['x-content-type-options']], ['text/plain; charset=utf-8', 'nosniff'], ep);
      const v = await plat.admin.get(`/${ep}?verbose`);
      assert.equal(v.status, 200, ep);
      assert.ok(v.text.startsWith('[+]ping ok\n'), v.text);
      assert.ok(v.text.endsWith(`${ep} check passed\n`), v.text);
      for (const line of v.text.trimEnd().split('\n').slice(0, -1)) assert.match(line, /^\[\+\][\w-]+ ok$/, line);
    }
    const ping = await plat.admin.get('/readyz/ping');
    assert.equal(ping.status, 200);
    assert.equal(ping.text, 'ok');
    // adaptCheckToHandler's bare fmt.Fprint: the type Go sniffs, no nosniff.
    assert.deepEqual([ping.headers['content-type'], ping.headers['x-content-type-options']], ['text/plain; charset=utf-8', undefined]);
    const nope = await plat.admin.get('/readyz/nope');
    assert.equal(nope.status, 404);
    const excluded = await plat.admin.get('/readyz?verbose&exclude=ping');
    assert.equal(excluded.status, 200);
    assert.ok(excluded.text.includes('[+]ping excluded: ok'), excluded.text);
  });

  it('401 Unauthorized without a client certificate (anonymous auth is off) and with one from a foreign CA', async () => {
    const anon = new Client(plat.url, { ca: plat.admin.creds.ca });
    for (const p of ['/apis/certificates.platform/v1/certificatesigningrequests', '/apis', '/healthz', '/version']) {
      const r = await anon.get(p);
      assert.equal(r.status, 401, p);
      assert.deepEqual(r.json, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 }, p);
    }
    const foreignCa = makeCa({ commonName: 'someone-else' });
    const cert = makeClientCert(foreignCa, 'plat-admin', ['system:masters']);
    const foreign = new Client(plat.url, { ca: plat.admin.creds.ca, cert: cert.certificatePem, key: cert.privateKeyPem });
    const r = await foreign.get('/apis/certificates.platform/v1/certificatesigningrequests');
    assert.equal(r.status, 401);
    assert.equal(r.json.reason, 'Unauthorized');
    assert.equal(r.json.message, 'Unauthorized');
    // The admin's own certificate still works.
    assert.equal((await plat.admin.get('/apis/certificates.platform/v1/certificatesigningrequests')).status, 200);
  });
});

describe('health paths are exact, as upstream\'s mux registers them', () => {
  let plat: RunningPlat;
  before(async () => { plat = await startInProcess(); });
  after(async () => { await plat?.stop(); });

  it('a trailing slash or an unknown check is the JSON 404 of any unknown path', async () => {
    for (const path of ['/healthz/', '/readyz/', '/livez/?verbose', '/healthz/nope', '/readyz/nope', '/healthz/ping/']) {
      const r = await plat.admin.get(path);
      assert.equal(r.status, 404, path);
      assert.equal(r.json?.message, 'the server could not find the requested resource', path);
    }
    for (const path of ['/healthz', '/healthz/ping', '/readyz?verbose', '/livez/ping']) assert.equal((await plat.admin.get(path)).status, 200, path);
  });
});

describe('JSON answers say exactly application/json, as upstream\'s writers set it (no charset)', () => {
  let plat: RunningPlat;
  before(async () => { plat = await startInProcess(); });
  after(async () => { await plat?.stop(); });

  it('documents, lists, objects and Status errors', async () => {
    const csrs = '/apis/certificates.platform/v1/certificatesigningrequests';
    for (const path of ['/api', '/apis', '/apis/certificates.platform/v1', '/version', '/openapi/v3', '/openapi/v3/apis/certificates.platform/v1', '/', csrs, '/api/v1/namespaces/default', `${csrs}/missing`, `${csrs}?labelSelector=!!`]) {
      const r = await plat.admin.get(path);
      assert.equal(r.headers['content-type'], 'application/json', `${path} (${r.status})`);
    }
  });
});

// Upstream's ExternalAddress: --external-hostname wins over --advertise-address, an IPv6 address is
// bracketed (net.JoinHostPort), and a host that names its own port keeps it.
describe('discovery serverAddress', () => {
  const cases: [string, string[], (port: string) => string][] = [
    ['advertise only', ['--advertise-address=10.1.2.3'], (p) => `10.1.2.3:${p}`],
    ['external over advertise', ['--advertise-address=10.1.2.3', '--external-hostname=api.example.com'], (p) => `api.example.com:${p}`],
    ['IPv6 advertise', ['--advertise-address=fd00::1'], (p) => `[fd00::1]:${p}`],
    ['external with its own port', ['--external-hostname=api.example.com:443'], () => 'api.example.com:443'],
  ];
  for (const [name, args, expected] of cases) {
    it(name, async () => {
      const plat = await startInProcess({ args });
      try {
        const api = await plat.admin.get('/api');
        assert.equal(api.json.serverAddressByClientCIDRs[0].serverAddress, expected(new URL(plat.url).port));
      } finally { await plat.stop(); }
    });
  }
});
