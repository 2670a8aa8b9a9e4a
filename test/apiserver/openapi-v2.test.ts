// /openapi/v2 as kube-apiserver 1.32 serves it (kube-openapi pkg/handler inside gziphandler): the
// swagger 2.0 document of every served resource, as JSON or as gnostic's openapi_v2.Document
// protobuf. The protobuf is read back here with @bufbuild/protobuf's reader against the field
// numbers of gnostic-models' OpenAPIv2.proto (and with `protoc --decode_raw` where protoc is
// installed), not with plat's encoder.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { BinaryReader, WireType } from '@bufbuild/protobuf/wire';
import { withClientCert } from '../authz/support.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';

const PROTO = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
const PROTO_DEPRECATED = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';
const CSR_PATH = '/apis/certificates.platform/v1/certificatesigningrequests/{name}';
const CSR_DEF = 'platform.certificates.v1.CertificateSigningRequest';
const sha512 = (b: Buffer) => createHash('sha512').update(b).digest('hex').toUpperCase();

/** One message's fields by number: bytes for length-delimited ones, numbers for varints and doubles. */
type Fields = Map<number, (Uint8Array | bigint | number)[]>;
function read(buf: Uint8Array): Fields {
  const r = new BinaryReader(buf);
  const out: Fields = new Map();
  while (r.pos < r.len) {
    const [no, wire] = r.tag();
    const v = wire === WireType.LengthDelimited ? r.bytes() : wire === WireType.Varint ? r.uint64() as bigint : wire === WireType.Bit64 ? r.double() : assert.fail(`wire type ${wire}`);
    out.set(no, [...(out.get(no) ?? []), v]);
  }
  return out;
}
const text = (b: unknown) => new TextDecoder().decode(b as Uint8Array);
const one = (f: Fields, no: number): Fields => read((f.get(no)?.[0] as Uint8Array | undefined) ?? new Uint8Array());
const str = (f: Fields, no: number) => text(f.get(no)?.[0] ?? new Uint8Array());
const all = (f: Fields, no: number): Fields[] => (f.get(no) ?? []).map((b) => read(b as Uint8Array));
/** Named* pairs (name = 1, value = 2) as a map of the value messages. */
const named = (pairs: Fields[]) => new Map(pairs.map((p) => [str(p, 1), one(p, 2)]));
/** NamedAny vendor extensions: name -> the Any's yaml (field 2). */
const extensions = (pairs: Fields[]) => new Map(pairs.map((p) => [str(p, 1), str(one(p, 2), 2)]));

describe('/openapi/v2', () => {
  let plat: RunningPlat;
  let json: { raw: Buffer; headers: Record<string, unknown>; json: any };
  before(async () => {
    plat = await startInProcess({ args: ['--authorization-mode=Node,RBAC'] });
    json = await plat.admin.get('/openapi/v2', { accept: 'application/json' });
  });
  after(async () => { await plat?.stop(); });

  it('JSON: a swagger 2.0 document of every served kind, $refs into definitions, operations as upstream writes them', async () => {
    assert.equal(json.headers['content-type'], 'application/json');
    const doc = json.json;
    assert.equal(doc.swagger, '2.0');
    assert.equal(doc.info.title, 'Kubernetes');
    assert.deepEqual(doc.security, [{ BearerToken: [] }]);
    const csr = doc.definitions[CSR_DEF];
    assert.deepEqual(csr['x-kubernetes-group-version-kind'], [{ group: 'certificates.platform', version: 'v1', kind: 'CertificateSigningRequest' }]);
    assert.deepEqual(csr.properties.metadata, { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', description: 'Standard object\'s metadata.' });
    // Every $ref resolves inside the document; nothing v3-only is left (gnostic refuses `nullable`).
    const text = json.raw.toString();
    for (const [, target] of text.matchAll(/"\$ref":"([^"]+)"/g)) assert.ok(doc.definitions[target!.replace('#/definitions/', '')], target);
    assert.doesNotMatch(text, /#\/components\/|"nullable"|"requestBody"/);
    // The kinds kubectl validates on the client: the create-only reviews, one per served group.
    for (const kind of ['platform.authorization.v1.SubjectAccessReview', 'platform.authentication.v1.TokenReview', 'platform.core.v1.Pod']) assert.ok(doc.definitions[kind], kind);
    const patch = doc.paths[CSR_PATH].patch;
    assert.equal(patch['x-kubernetes-action'], 'patch');
    assert.deepEqual(patch['x-kubernetes-group-version-kind'], { group: 'certificates.platform', version: 'v1', kind: 'CertificateSigningRequest' });
    assert.ok(patch.consumes.includes('application/apply-patch+yaml'));
    assert.deepEqual(patch.parameters[0], { in: 'body', name: 'body', required: true, schema: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Patch' } });
    for (const name of ['dryRun', 'fieldManager', 'fieldValidation']) {
      const p = patch.parameters.find((x: { name: string }) => x.name === name);
      assert.equal(p.in, 'query', name);
      assert.equal(p.type, 'string', name);
    }
    assert.deepEqual(patch.responses['200'], { description: 'OK', schema: { $ref: `#/definitions/${CSR_DEF}` } });
    assert.deepEqual(doc.paths[CSR_PATH].parameters[0], { name: 'name', in: 'path', description: 'name of the CertificateSigningRequest', required: true, type: 'string', uniqueItems: true });
    const sar = doc.paths['/apis/authorization.platform/v1/subjectaccessreviews'];
    assert.deepEqual(Object.keys(sar), ['post']);
    assert.equal(sar.post['x-kubernetes-action'], 'post');
    assert.deepEqual(sar.post.consumes, ['*/*']);
  });

  it('protobuf under both spellings: gnostic\'s Document, read back by an independent decoder', async () => {
    for (const accept of [PROTO, PROTO_DEPRECATED]) {
      const r = await plat.admin.get('/openapi/v2', { accept });
      assert.equal(r.status, 200);
      assert.equal(r.headers['content-type'], PROTO, accept);
      // One ETag for both encodings: the JSON's (the Vary header keeps them apart).
      assert.equal(r.headers['etag'], `"${sha512(json.raw)}"`);
      const d = read(r.raw);
      assert.equal(str(d, 1), '2.0');
      assert.equal(str(one(d, 2), 1), 'Kubernetes');
      const paths = named(all(one(d, 8), 2));
      assert.deepEqual([...paths.keys()], Object.keys(json.json.paths));
      // PathItem.patch (8) -> Operation: operation_id (5), consumes (7), parameters (8), vendor_extension (13).
      const patch = one(paths.get(CSR_PATH)!, 8);
      assert.equal(str(patch, 5), 'patchCertificatesPlatformV1CertificateSigningRequest');
      assert.ok((patch.get(7) ?? []).map(text).includes('application/merge-patch+json'));
      // ParametersItem.parameter (1) -> Parameter.non_body_parameter (2) -> query_parameter_sub_schema (3): name (4), in (2), type (6).
      const query = all(patch, 8).map((p) => one(one(one(p, 1), 2), 3)).filter((q) => q.size);
      const fv = query.find((q) => str(q, 4) === 'fieldValidation')!;
      assert.equal(str(fv, 2), 'query');
      assert.equal(str(fv, 6), 'string');
      assert.equal(fv.get(20)?.[0], 1n, 'unique_items');
      // ... and the body parameter: Parameter.body_parameter (1): name (2), in (3), required (4), schema (5) with _ref (1).
      const body = one(one(all(patch, 8)[0]!, 1), 1);
      assert.deepEqual([str(body, 2), str(body, 3), body.get(4)?.[0], str(one(body, 5), 1)], ['body', 'body', 1n, '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Patch']);
      const ext = extensions(all(patch, 13));
      assert.equal(ext.get('x-kubernetes-action'), 'patch\n');
      assert.equal(ext.get('x-kubernetes-group-version-kind'), 'group: certificates.platform\nversion: v1\nkind: CertificateSigningRequest\n');
      // PathItem.parameters (9): the path parameter (path_parameter_sub_schema, 4): required (1), name (4), type (5).
      const nameParam = one(one(one(all(paths.get(CSR_PATH)!, 9)[0]!, 1), 2), 4);
      assert.deepEqual([nameParam.get(1)?.[0], str(nameParam, 4), str(nameParam, 5)], [1n, 'name', 'string']);
      // Definitions (9): NamedSchema; Schema: description (4), required (19), type (22), properties (25), vendor_extension (31).
      const defs = named(all(one(d, 9), 1));
      assert.deepEqual([...defs.keys()], Object.keys(json.json.definitions));
      const csr = defs.get(CSR_DEF)!;
      assert.equal(str(csr, 4), json.json.definitions[CSR_DEF].description);
      assert.deepEqual((csr.get(19) ?? []).map(text), ['spec']);
      assert.deepEqual((one(csr, 22).get(1) ?? []).map(text), ['object']);
      assert.equal(extensions(all(csr, 31)).get('x-kubernetes-group-version-kind'), '- group: certificates.platform\n  version: v1\n  kind: CertificateSigningRequest\n');
      const props = named(all(one(csr, 25), 1));
      assert.equal(str(props.get('metadata')!, 1), '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta');
      // usages: an array (type 22) with items (23: ItemsItem.schema 1) of strings.
      const spec = named(all(one(props.get('spec')!, 25), 1));
      const usages = spec.get('usages')!;
      assert.deepEqual((one(usages, 22).get(1) ?? []).map(text), ['array']);
      assert.deepEqual((one(one(one(usages, 23), 1), 22).get(1) ?? []).map(text), ['string']);
      // securityDefinitions (13): BearerToken as an api_key_security (2): type (1), name (2), in (3).
      const apiKey = one(named(all(one(d, 13), 1)).get('BearerToken')!, 2);
      assert.deepEqual([str(apiKey, 1), str(apiKey, 2), str(apiKey, 3)], ['apiKey', 'authorization', 'header']);
    }
  });

  it('protoc --decode_raw reads the protobuf (where protoc is installed)', async (t) => {
    if (spawnSync('protoc', ['--version']).status !== 0) { t.skip('protoc is not installed (apt-get install protobuf-compiler)'); return; }
    const r = await plat.admin.get('/openapi/v2', { accept: PROTO });
    const out = execFileSync('protoc', ['--decode_raw'], { input: r.raw, maxBuffer: 64 << 20 }).toString();
    assert.match(out, /^1: "2\.0"\n2 \{\n {2}1: "Kubernetes"\n/);
    assert.ok(out.includes(`1: "${CSR_DEF}"`));
    assert.ok(out.includes('4: "fieldValidation"'));
  });

  it('the document is built once: the same bytes and validators on every request', async () => {
    const a = await plat.admin.get('/openapi/v2', { accept: PROTO });
    const b = await plat.admin.get('/openapi/v2', { accept: PROTO });
    assert.ok(a.raw.equals(b.raw));
    assert.equal(a.headers['last-modified'], b.headers['last-modified']);
    assert.equal(a.headers['last-modified'], json.headers['last-modified']);
  });

  it('negotiation: JSON for */* or no Accept, the first clause goautoneg sorts first, an empty 406 for what neither matches', async () => {
    const cases: [string | undefined, number, string | undefined][] = [
      [undefined, 200, 'application/json'],
      ['*/*', 200, 'application/json'],
      ['application/*', 200, 'application/json'],
      [`application/json;q=0.5, ${PROTO}`, 200, PROTO],
      [`text/plain, ${PROTO_DEPRECATED};q=0.9`, 200, PROTO],
      ['application/com.github.proto-openapi.spec.v3.v1.0+protobuf', 406, undefined],
      ['text/html', 406, undefined],
    ];
    for (const [accept, status, type] of cases) {
      const r = await plat.admin.get('/openapi/v2', accept === undefined ? { accept: '' } : { accept });
      assert.equal(r.status, status, String(accept));
      assert.equal(r.headers['content-type'], type, String(accept));
      assert.deepEqual(r.headers['vary'], 'Accept-Encoding, Accept', String(accept));
      if (status === 406) assert.equal(r.raw.length, 0);
    }
    // A mux handler: any method is served.
    assert.equal((await plat.admin.request('POST', '/openapi/v2', undefined, { accept: PROTO })).status, 200);
    assert.equal((await plat.admin.get('/openapi/v2/')).status, 404);
  });

  it('ETag and Last-Modified through http.ServeContent: 304 on a match', async () => {
    const etag = String(json.headers['etag']);
    const byTag = await plat.admin.get('/openapi/v2', { accept: PROTO, 'if-none-match': etag });
    assert.equal(byTag.status, 304);
    assert.equal(byTag.raw.length, 0);
    assert.equal(byTag.headers['etag'], etag);
    assert.equal((await plat.admin.get('/openapi/v2', { 'if-modified-since': String(json.headers['last-modified']) })).status, 304);
    assert.equal((await plat.admin.get('/openapi/v2', { 'if-none-match': '"0"' })).status, 200);
    const range = await plat.admin.get('/openapi/v2', { range: 'bytes=0-9' });
    assert.equal(range.status, 206);
    assert.equal(range.text, json.raw.subarray(0, 10).toString());
  });

  it('gzip when Accept-Encoding gives gzip a q above 0, as gziphandler', async () => {
    for (const accept of ['application/json', PROTO]) {
      const plain = await plat.admin.get('/openapi/v2', { accept });
      for (const [enc, zipped] of [['gzip', true], ['deflate, GZIP;q=0.5', true], ['gzip;q=0', false], ['br', false], ['*', false]] as const) {
        const r = await plat.admin.get('/openapi/v2', { accept, 'accept-encoding': enc });
        assert.equal(r.headers['content-encoding'], zipped ? 'gzip' : undefined, enc);
        assert.equal(r.headers['etag'], plain.headers['etag']);
        assert.ok((zipped ? gunzipSync(r.raw) : r.raw).equals(plain.raw), enc);
      }
    }
    // A body under gziphandler's 1400 bytes goes out as it is.
    const small = await plat.admin.get('/openapi/v2', { 'accept-encoding': 'gzip', range: 'bytes=0-99' });
    assert.equal(small.status, 206);
    assert.equal(small.headers['content-encoding'], undefined);
  });

  it('authorized as /openapi/v3 is: a non-resource URL system:discovery grants', async () => {
    const nobody = withClientCert(plat, 'nobody', []);
    for (const path of ['/openapi/v2', '/openapi/v3']) {
      assert.equal((await nobody.get(path)).status, 200, path);
      assert.equal((await plat.admin.with({ anonymous: true }).get(path)).status, 401, path);
    }
    assert.ok((await plat.admin.get('/')).json.paths.includes('/openapi/v2'));
  });
});
