// Cache headers and validators of the API server's answers, as kube-apiserver 1.32 writes them:
// WithCacheControl's default, aggregated discovery's ETag (aggregated/etag.go) with its negotiation
// (aggregated/wrapper.go), kube-openapi handler3's /openapi/v3 through http.ServeContent, the
// methods mux paths answer, and which resources discovery gives a storage version hash.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { withClientCert } from '../authz/support.js';
import { Client, startInProcess, type Response, type RunningPlat } from '../helpers/plat.js';

const AGG = (v: string, type = 'application/json') => `${type};g=apidiscovery.k8s.io;v=${v};as=APIGroupDiscoveryList`;
const sha512 = (b: Buffer | string) => createHash('sha512').update(b).digest('hex').toUpperCase();
const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';
const NO_ROUTE = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server does not allow this method on the requested resource', reason: 'MethodNotAllowed', details: {}, code: 405 };

describe('discovery and OpenAPI caching', () => {
  let plat: RunningPlat;
  // RBAC, so that a user with no bindings meets a 403.
  before(async () => { plat = await startInProcess({ args: ['--authorization-mode=Node,RBAC'] }); });
  after(async () => { await plat?.stop(); });

  describe('Cache-Control: no-cache, private unless the handler sets one (WithCacheControl)', () => {
    const cases: [string, (p: RunningPlat) => Client, string, number][] = [
      ['/version', (p) => p.admin, '/version', 200],
      ['legacy /apis', (p) => p.admin, '/apis', 200],
      ['a group version', (p) => p.admin, '/apis/certificates.platform/v1', 200],
      ['a list', (p) => p.admin, CSRS, 200],
      ['/healthz', (p) => p.admin, '/healthz', 200],
      ['a 404', (p) => p.admin, '/nope', 404],
      ['a 401', (p) => new Client(p.url, { ca: p.admin.creds.ca }), CSRS, 401],
      ['a 403', (p) => withClientCert(p, 'nobody', []), CSRS, 403],
    ];
    for (const [name, client, path, status] of cases) {
      it(name, async () => {
        const r = await client(plat).get(path);
        assert.equal(r.status, status, r.text);
        assert.equal(r.headers['cache-control'], 'no-cache, private');
      });
    }
  });

  it('aggregated discovery: ETag of the v2 list, Vary, Cache-Control: public, 304 on If-None-Match', async () => {
    for (const path of ['/api', '/apis']) {
      const v2 = await plat.admin.get(path, { accept: AGG('v2') });
      assert.equal(v2.status, 200);
      const { kind: _k, apiVersion: _a, ...bare } = v2.json;
      assert.equal(v2.headers['etag'], `"${sha512(JSON.stringify(bare))}"`, path);
      assert.equal(v2.headers['vary'], 'Accept');
      assert.equal(v2.headers['cache-control'], 'public');
      const beta = await plat.admin.get(path, { accept: AGG('v2beta1') });
      assert.equal(beta.headers['etag'], v2.headers['etag'], 'one hash for both versions');
      const cached = await plat.admin.get(path, { accept: AGG('v2'), 'if-none-match': String(v2.headers['etag']) });
      assert.equal(cached.status, 304);
      assert.equal(cached.text, '');
      assert.equal(cached.headers['etag'], v2.headers['etag']);
      assert.equal(cached.headers['cache-control'], 'public');
      const stale = await plat.admin.get(path, { accept: AGG('v2'), 'if-none-match': '"0"' });
      assert.equal(stale.status, 200);
    }
  });

  it('aggregated discovery JSON: empty names and subresources left out, fields in the Go types\' order', async () => {
    const api = (await plat.admin.get('/api', { accept: AGG('v2') })).json;
    assert.deepEqual(api.items[0].metadata, { creationTimestamp: null });
    const apis = await plat.admin.get('/apis', { accept: AGG('v2') });
    assert.doesNotMatch(apis.text, /"subresources":\[\]/);
    const coordination = apis.json.items.find((i: any) => i.metadata.name === 'coordination.platform');
    assert.deepEqual(Object.keys(coordination.versions[0]), ['version', 'resources', 'freshness']);
    assert.deepEqual(Object.keys(coordination.versions[0].resources[0]), ['resource', 'responseKind', 'scope', 'singularResource', 'verbs']);
  });

  describe('aggregated discovery negotiation: goautoneg order, clauses the restrictions refuse skipped', () => {
    const cases: [string, string | undefined][] = [
      [`application/json,${AGG('v2')}`, 'v2'],
      [`${AGG('v2')};q=0.5,${AGG('v2beta1')}`, 'v2beta1'],
      [`${AGG('v2beta1')};q=0.9,${AGG('v2')}`, 'v2'],
      [`*/*;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList`, 'v2'],
      [`${AGG('v2')};sv=v1`, undefined],
      [`${AGG('v2')};stream=watch`, 'v2'],
      [`${AGG('v2', 'application/yaml')};stream=watch`, undefined],
      [`${AGG('v3')}`, undefined],
      ['application/json, */*', undefined],
    ];
    for (const [accept, version] of cases) {
      it(accept, async () => {
        const r = await plat.admin.get('/apis', { accept });
        assert.equal(r.status, 200);
        assert.equal(r.json.kind, version ? 'APIGroupDiscoveryList' : 'APIGroupList');
        if (version) assert.equal(r.json.apiVersion, `apidiscovery.k8s.io/${version}`);
      });
    }
  });

  describe('storageVersionHash only for what a store keeps', () => {
    const cases: [string, string, boolean][] = [
      ['certificates.platform/v1', 'certificatesigningrequests', true],
      ['coordination.platform/v1', 'leases', true],
      ['v1', 'secrets', true],
      ['authentication.platform/v1', 'tokenreviews', false],
      ['authentication.platform/v1', 'selfsubjectreviews', false],
      ['authorization.platform/v1', 'subjectaccessreviews', false],
      ['authorization.platform/v1', 'selfsubjectaccessreviews', false],
      ['authorization.platform/v1', 'localsubjectaccessreviews', false],
    ];
    for (const [gv, resource, stored] of cases) {
      it(`${gv} ${resource}`, async () => {
        const list = (await plat.admin.get(gv === 'v1' ? '/api/v1' : `/apis/${gv}`)).json;
        const r = list.resources.find((x: any) => x.name === resource);
        assert.ok(r, resource);
        assert.equal('storageVersionHash' in r, stored);
      });
    }
  });

  describe('/openapi/v3 as handler3 serves it', () => {
    let index: Response;
    let url: string;
    before(async () => {
      index = await plat.admin.get('/openapi/v3');
      url = index.json.paths['apis/certificates.platform/v1'].serverRelativeURL;
    });

    it('the index: Etag of its bytes, Last-Modified, the default Cache-Control, 304 on a validator', async () => {
      assert.equal(index.status, 200);
      assert.equal(index.headers['content-type'], 'application/json');
      assert.equal(index.headers['etag'], `"${sha512(index.raw)}"`);
      assert.equal(index.headers['cache-control'], 'no-cache, private');
      assert.equal(index.headers['accept-ranges'], 'bytes');
      const modified = String(index.headers['last-modified']);
      assert.match(modified, /^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
      const byTag = await plat.admin.get('/openapi/v3', { 'if-none-match': String(index.headers['etag']) });
      assert.equal(byTag.status, 304);
      assert.equal(byTag.headers['last-modified'], undefined, 'an Etag makes Last-Modified redundant');
      assert.equal((await plat.admin.get('/openapi/v3', { 'if-modified-since': modified })).status, 304);
    });

    it('a document without ?hash: Vary, Etag, not cacheable', async () => {
      const r = await plat.admin.get(url.replace(/\?.*/, ''));
      assert.equal(r.status, 200);
      assert.equal(r.headers['vary'], 'Accept');
      assert.equal(r.headers['etag'], `"${sha512(r.raw)}"`);
      assert.equal(r.headers['cache-control'], 'no-cache, private');
      assert.equal(r.headers['expires'], undefined);
      assert.equal(`/openapi/v3/apis/certificates.platform/v1?hash=${sha512(r.raw)}`, url);
    });

    it('the current ?hash: public, immutable, expiring a year on', async () => {
      const r = await plat.admin.get(url);
      assert.equal(r.status, 200);
      assert.equal(r.headers['cache-control'], 'public, immutable');
      assert.equal(r.headers['vary'], 'Accept');
      const expires = String(r.headers['expires']);
      assert.match(expires, /^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} UTC$/);
      assert.ok(Date.parse(expires.replace(/UTC$/, 'GMT')) - Date.now() > 364 * 24 * 3600 * 1000, expires);
      assert.equal((await plat.admin.get(url, { 'if-none-match': String(r.headers['etag']) })).status, 304);
    });

    it('a stale ?hash: 301 to the current one', async () => {
      const r = await plat.admin.get('/openapi/v3/apis/certificates.platform/v1?hash=0123');
      assert.equal(r.status, 301);
      assert.equal(r.headers['location'], url);
      assert.equal(r.text, '');
    });

    const accepts: [string, number][] = [
      ['text/html', 406],
      ['application/yaml', 406],
      ['text/html, application/*;q=0.5', 200],
      ['application/com.github.proto-openapi.spec.v3.v1.0+protobuf, application/json', 200],
    ];
    for (const [accept, status] of accepts) {
      it(`Accept: ${accept} → ${status}`, async () => {
        const r = await plat.admin.get(url, { accept });
        assert.equal(r.status, status);
        assert.equal(r.headers['vary'], 'Accept');
        if (status === 406) assert.equal(r.text, '');
      });
    }

    it('byte ranges and preconditions (http.ServeContent)', async () => {
      const full = await plat.admin.get(url);
      const part = await plat.admin.get(url, { range: 'bytes=0-9' });
      assert.equal(part.status, 206);
      assert.equal(part.headers['content-range'], `bytes 0-9/${full.raw.length}`);
      assert.deepEqual(part.raw, full.raw.subarray(0, 10));
      const outside = await plat.admin.get(url, { range: `bytes=${full.raw.length}-` });
      assert.equal(outside.status, 416);
      assert.equal(outside.text, 'invalid range: failed to overlap\n');
      assert.equal(outside.headers['content-range'], `bytes */${full.raw.length}`);
      assert.equal((await plat.admin.get(url, { 'if-match': '"other"' })).status, 412);
    });
  });

  describe('methods on non-resource paths: mux handlers answer any, go-restful routes GET only', () => {
    const cases: [string, string, number, (r: Response) => void][] = [
      ['POST', '/healthz', 200, (r) => assert.equal(r.text, 'ok')],
      ['DELETE', '/livez', 200, (r) => assert.equal(r.text, 'ok')],
      ['POST', '/apis', 200, (r) => assert.equal(r.json.kind, 'APIGroupList')],
      ['PUT', '/apis/certificates.platform', 200, (r) => assert.equal(r.json.kind, 'APIGroup')],
      ['POST', '/', 200, (r) => assert.ok(Array.isArray(r.json.paths))],
      ['POST', '/openapi/v3', 200, (r) => assert.ok(r.json.paths)],
      ['POST', '/openapi/v3/api/v1', 200, (r) => assert.equal(r.json.openapi, '3.0.0')],
      ['POST', '/version', 405, (r) => assert.deepEqual(r.json, NO_ROUTE)],
      ['POST', '/api', 405, (r) => assert.deepEqual(r.json, NO_ROUTE)],
      ['DELETE', '/api/v1', 405, (r) => assert.deepEqual(r.json, NO_ROUTE)],
      ['POST', '/apis/certificates.platform/v1', 405, (r) => assert.deepEqual(r.json, NO_ROUTE)],
      ['POST', '/nope', 404, (r) => assert.equal(r.json.reason, 'NotFound')],
    ];
    for (const [method, path, status, check] of cases) {
      it(`${method} ${path}`, async () => {
        const r = await plat.admin.request(method, path, method === 'DELETE' ? undefined : {});
        assert.equal(r.status, status, r.text);
        check(r);
      });
    }
  });
});
