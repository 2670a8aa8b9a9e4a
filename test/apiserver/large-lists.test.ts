// Lists too large to read and write in one go: read in pages at one revision and encoded a chunk
// at a time (the event loop serves other requests in between), and, as upstream's
// APIResponseCompression, answered gzipped past 128 KiB when the client asks for gzip.
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { READ_PAGE } from '../../core/registry/list.js';
import { LIST_ENCODE_CHUNK } from '../../core/server/respond.js';
import { b64, fixtures } from '../certificates/fixtures.js';
import { goJsonText } from '../helpers/go-json-text.js';
import { Kubectl } from '../helpers/kubectl.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { getApiServer } from '../../plugins/apiserver/index.js';
import { storeKey } from '../../core/server/app.js';
import { admin } from './direct-watch.js';

const P = '/apis/certificates.platform/v1/certificatesigningrequests';
const COUNT = Math.max(READ_PAGE, LIST_ENCODE_CHUNK) * 2 + 37;
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';
/** In the last chunk the list is encoded in, so that its escapes are seen there. */
const ESCAPED = `big-${String(COUNT - 1).padStart(5, '0')}`;

describe('large lists', () => {
  let plat: RunningPlat;
  let request: string;
  const csr = (name: string) => ({
    apiVersion: 'certificates.platform/v1', kind: 'CertificateSigningRequest',
    metadata: { name, ...(name === ESCAPED ? { annotations: { note: 'a<b>&c' } } : {}) },
    spec: { request, signerName: 'example.com/test', usages: ['digital signature', 'client auth'] },
  });
  /** Creates `names` 16 at a time; each create's resourceVersion. */
  async function create(names: string[]): Promise<Map<string, number>> {
    const rvs = new Map<string, number>();
    let next = 0;
    await Promise.all(Array.from({ length: 16 }, async () => {
      while (next < names.length) {
        const name = names[next++]!;
        const r = await plat.admin.post(P, csr(name));
        assert.equal(r.status, 201, r.text);
        rvs.set(name, Number(r.json.metadata.resourceVersion));
      }
    }));
    return rvs;
  }

  before(async () => {
    plat = await startInProcess();
    request = b64(fixtures().ecCsrPem);
    // The list is what is tested, not how its objects came: they go to the API server's own store
    // (strategy, validation and admission as for a request), not through 1,000 HTTPS requests.
    const store = getApiServer(plat.host!)!.stores.get(storeKey('certificates.platform', 'v1', 'certificatesigningrequests'))!;
    const names = Array.from({ length: COUNT }, (_, i) => `big-${String(i).padStart(5, '0')}`);
    await Promise.all(names.map((name) => store.create({ ...admin, warnings: [] }, csr(name))));
  });
  after(async () => { await plat?.stop(); });

  it('reads every item in key order, encoded as json.Encoder would encode the list', async () => {
    const r = await plat.admin.get(P);
    assert.equal(r.status, 200);
    assert.match(String(r.headers['content-type']), /^application\/json(;|$)/);
    assert.equal(r.text, goJsonText(r.json));
    assert.ok(r.text.includes('"note":"a\\u003cb\\u003e\\u0026c"'));
    assert.deepEqual(Object.keys(r.json), ['kind', 'apiVersion', 'metadata', 'items']);
    const names = r.json.items.map((i: { metadata: { name: string } }) => i.metadata.name);
    assert.equal(names.length, COUNT);
    assert.deepEqual(names, [...names].sort());
    assert.equal(r.json.items[0].kind, 'CertificateSigningRequest');
    const pretty = await plat.admin.get(`${P}?pretty=true`);
    assert.deepEqual(pretty.json, r.json);
    assert.equal(pretty.text, goJsonText(pretty.json, true));
  });

  // Pages are read at the first page's revision: creates landing between them are neither half in
  // the list nor covered by its resourceVersion without being in it.
  it('is one snapshot while objects are created during it', async () => {
    const listing = plat.admin.get(P);
    const during = create(Array.from({ length: 40 }, (_, i) => `mid-${String(i).padStart(3, '0')}`));
    const [list, created] = await Promise.all([listing, during]);
    const rv = Number(list.json.metadata.resourceVersion);
    const listed = new Set(list.json.items.map((i: { metadata: { name: string } }) => i.metadata.name));
    for (const item of list.json.items) assert.ok(Number(item.metadata.resourceVersion) <= rv, item.metadata.name);
    for (const [name, at] of created) assert.equal(listed.has(name), at <= rv, `${name} created at ${at}, list at ${rv}`);
    assert.equal(listed.size, COUNT + [...created.values()].filter((at) => at <= rv).length);
  });

  // deferredResponseWriter: gzip (level 1) when an API object's encoding passes 128 KiB and
  // negotiateContentEncoding finds a `gzip` token.
  const cases: Array<[string, string, Record<string, string>, boolean]> = [
    ['a large list, gzip asked', P, { 'accept-encoding': 'gzip' }, true],
    ['among other encodings', P, { 'accept-encoding': 'deflate, gzip , br' }, true],
    ['not asked', P, {}, false],
    ['only other encodings', P, { 'accept-encoding': 'br, deflate' }, false],
    ['a gzip token with parameters (upstream compares whole tokens)', P, { 'accept-encoding': 'gzip;q=1.0' }, false],
    ['a large list as YAML', P, { 'accept-encoding': 'gzip', accept: 'application/yaml' }, true],
    ['a large Table', P, { 'accept-encoding': 'gzip', accept: TABLE }, true],
    ['a small list', `${P}?limit=2`, { 'accept-encoding': 'gzip' }, false],
    ['one object', `${P}/big-00000`, { 'accept-encoding': 'gzip' }, false],
    ['a raw JSON document', '/version', { 'accept-encoding': 'gzip' }, false],
  ];
  for (const [what, path, headers, gzipped] of cases) {
    it(`compression: ${what} → ${gzipped ? 'gzip' : 'identity'}`, async () => {
      const plain = await plat.admin.get(path, { ...headers, 'accept-encoding': 'identity' });
      const r = await plat.admin.get(path, headers);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.headers['content-type'], plain.headers['content-type']);
      if (!gzipped) {
        assert.equal(r.headers['content-encoding'], undefined);
        assert.equal(r.text, plain.text);
        return;
      }
      assert.equal(r.headers['content-encoding'], 'gzip');
      assert.equal(r.headers['vary'], 'Accept-Encoding');
      assert.ok(plain.raw.length > 128 * 1024);
      const body = gunzipSync(r.raw).toString('utf8');
      // A Table's rows carry their age: compare what does not move.
      if (headers['accept'] === TABLE) assert.equal(JSON.parse(body).rows.length, JSON.parse(plain.text).rows.length);
      else assert.equal(body, plain.text);
    });
  }

  it('compression: never a watch stream', async () => {
    const r = await plat.admin.get(`${P}?watch=1&timeoutSeconds=1`, { 'accept-encoding': 'gzip' });
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-encoding'], undefined);
    assert.ok(r.raw.length > 128 * 1024);
    assert.match(r.text, /^\{"type":"ADDED"/);
  });

  // Go's transport asks for gzip by itself and inflates the answer (its log never shows either).
  it('kubectl reads the whole list, gzipped', async () => {
    const kubectl = new Kubectl(plat.kubeconfig);
    const r = await kubectl.run(['get', 'certificatesigningrequests.v1.certificates.platform', '--chunk-size=0', '-o', 'name']);
    assert.equal(r.code, 0, r.stderr);
    const names = r.stdout.split('\n').filter((l) => l.startsWith('certificatesigningrequest.certificates.platform/big-'));
    assert.equal(names.length, COUNT);
  });
});
