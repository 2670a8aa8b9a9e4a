// The generic API machinery over real HTTPS (in-process `plat all`): Status bodies, optimistic
// concurrency, dry run, generateName, field validation, paging, selectors, Tables, limits.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { b64, fixtures, type Fixtures } from '../certificates/fixtures.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';

const P = '/apis/certificates.platform/v1/certificatesigningrequests';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

describe('REST machinery', () => {
  let plat: RunningPlat;
  let fx: Fixtures;
  const csr = (name: string, extra: Record<string, unknown> = {}) => ({
    apiVersion: 'certificates.platform/v1', kind: 'CertificateSigningRequest',
    metadata: { name, labels: { app: name.slice(0, 1) || 'x' } },
    spec: { request: b64(fx.ecCsrPem), signerName: 'example.com/test', usages: ['digital signature', 'client auth'], ...extra },
  });
  before(async () => { plat = await startInProcess(); fx = fixtures(); });
  after(async () => { await plat?.stop(); });

  it('creates (201), reads, and 404s with a Status body', async () => {
    const r = await plat.admin.post(P, csr('a1'));
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.metadata.name, 'a1');
    assert.match(r.json.metadata.uid, /^[0-9a-f-]{36}$/);
    assert.match(r.json.metadata.resourceVersion, /^\d+$/);
    assert.match(r.json.metadata.creationTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal(r.json.spec.username, 'plat-admin');
    assert.deepEqual(r.json.spec.groups, ['system:masters', 'system:authenticated']);
    assert.deepEqual(r.json.status, {});
    const g = await plat.admin.get(`${P}/a1`);
    assert.equal(g.status, 200);
    assert.deepEqual(g.json, r.json);
    for (const sub of ['status', 'approval']) assert.equal((await plat.admin.get(`${P}/a1/${sub}`)).json.metadata.name, 'a1');
    const nf = await plat.admin.get(`${P}/nope`);
    assert.equal(nf.status, 404);
    assert.deepEqual(nf.json, {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'NotFound', code: 404,
      message: 'certificatesigningrequests.certificates.platform "nope" not found',
      details: { name: 'nope', group: 'certificates.platform', kind: 'certificatesigningrequests' },
    });
    // The bytes as Go writes metav1.Status: its fields in declaration order.
    assert.deepEqual(Object.keys(JSON.parse(nf.text)), ['kind', 'apiVersion', 'metadata', 'status', 'message', 'reason', 'details', 'code']);
  });

  it('409 AlreadyExists, 409 Conflict on a stale resourceVersion, no-op update keeps the RV', async () => {
    const dup = await plat.admin.post(P, csr('a1'));
    assert.equal(dup.status, 409);
    assert.equal(dup.json.reason, 'AlreadyExists');
    const cur = (await plat.admin.get(`${P}/a1`)).json;
    const same = await plat.admin.put(`${P}/a1`, cur);
    assert.equal(same.status, 200);
    assert.equal(same.json.metadata.resourceVersion, cur.metadata.resourceVersion);
    const changed = await plat.admin.put(`${P}/a1`, { ...cur, metadata: { ...cur.metadata, labels: { app: 'a', x: '1' } } });
    assert.equal(changed.status, 200);
    assert.notEqual(changed.json.metadata.resourceVersion, cur.metadata.resourceVersion);
    const stale = await plat.admin.put(`${P}/a1`, { ...cur, metadata: { ...cur.metadata, labels: { y: '2' } } });
    assert.equal(stale.status, 409);
    assert.equal(stale.json.reason, 'Conflict');
    assert.equal(stale.json.message, 'Operation cannot be fulfilled on certificatesigningrequests.certificates.platform "a1": the object has been modified; please apply your changes to the latest version and try again');
    const unconditional = await plat.admin.put(`${P}/a1`, { ...cur, metadata: { name: 'a1', labels: { app: 'a', z: '3' } } });
    assert.equal(unconditional.status, 200, unconditional.text);
    assert.equal(unconditional.json.metadata.labels.z, '3');
    const missing = await plat.admin.put(`${P}/ghost`, csr('ghost'));
    assert.equal(missing.status, 404);
  });

  it('dryRun=All validates and answers without persisting', async () => {
    const r = await plat.admin.post(`${P}?dryRun=All`, csr('dry'));
    assert.equal(r.status, 201);
    assert.equal(r.json.metadata.resourceVersion, undefined);
    assert.equal((await plat.admin.get(`${P}/dry`)).status, 404);
    const bad = await plat.admin.post(`${P}?dryRun=Some`, csr('dry'));
    assert.equal(bad.status, 422);
    assert.match(bad.json.message, /dryRun: Unsupported value: \["Some"\]: supported values: "All"/);
    const del = await plat.admin.request('DELETE', `${P}/a1`, { dryRun: ['All'] });
    assert.equal(del.status, 200);
    assert.equal((await plat.admin.get(`${P}/a1`)).status, 200);
  });

  it('a resourceVersion on create is refused by storage alone: after validation, and not in a dry run', async () => {
    const cases: { name: string; query?: string; rv: string; labels?: Record<string, string>; code: number; message?: string; answered?: string }[] = [
      { name: 'an invalid object: 422 first', rv: '5', labels: { 'bad key': 'x' }, code: 422 },
      { name: 'a version ParseUint takes', rv: '5', code: 500, message: 'resourceVersion should not be set on objects to be created' },
      { name: 'a dry run answers with it', query: '?dryRun=All', rv: '5', code: 201, answered: '5' },
      { name: 'version 0 is none', rv: '0', code: 201 },
      { name: 'one ParseUint refuses is dropped', rv: 'abc', code: 201 },
    ];
    for (const [i, c] of cases.entries()) {
      const body = csr(`rv-${i}`);
      const r = await plat.admin.post(`${P}${c.query ?? ''}`, { ...body, metadata: { ...body.metadata, resourceVersion: c.rv, ...(c.labels ? { labels: c.labels } : {}) } });
      assert.equal(r.status, c.code, `${c.name}: ${r.text}`);
      if (c.message) assert.deepEqual([r.json.reason, r.json.message], [undefined, c.message], c.name);
      if (c.code !== 201) continue;
      if (c.answered) assert.equal(r.json.metadata.resourceVersion, c.answered, c.name);
      else assert.equal(r.json.metadata.resourceVersion, (await plat.admin.get(`${P}/rv-${i}`)).json.metadata.resourceVersion, c.name);
    }
    assert.equal((await plat.admin.get(`${P}/rv-1`)).status, 404, 'nothing stored');
    assert.equal((await plat.admin.get(`${P}/rv-2`)).status, 404, 'nothing stored by the dry run');
  });

  it('generateName makes a name from the prefix', async () => {
    const r = await plat.admin.post(P, { ...csr(''), metadata: { generateName: 'csr-' } });
    assert.equal(r.status, 201, r.text);
    assert.match(r.json.metadata.name, /^csr-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });

  it('fieldValidation: Strict 400, Warn adds a Warning header, Ignore drops', async () => {
    const body = { ...csr('fv'), spec: { ...csr('fv').spec, bogus: 1 }, extra: true };
    const strict = await plat.admin.post(`${P}?fieldValidation=Strict`, body);
    assert.equal(strict.status, 400);
    // Upstream's create and update handlers pass a strict decoding error through transformDecodeError,
    // as any other decode error (a patch's is an Invalid "patch" cause instead: body-errors.test.ts).
    const prefix = 'CertificateSigningRequest in version "v1" cannot be handled as a CertificateSigningRequest: ';
    assert.equal(strict.json.message, `${prefix}strict decoding error: unknown field "spec.bogus", unknown field "extra"`);
    const warn = await plat.admin.post(`${P}?fieldValidation=Warn`, body);
    assert.equal(warn.status, 201);
    assert.deepEqual(warn.headers['warning'], '299 - "unknown field \\"spec.bogus\\"", 299 - "unknown field \\"extra\\""');
    assert.equal(warn.json.spec.bogus, undefined);
    const dupJson = `{"apiVersion":"certificates.platform/v1","kind":"CertificateSigningRequest","metadata":{"name":"fv2","name":"fv2"},"spec":${JSON.stringify(csr('fv2').spec)}}`;
    const dup = await plat.admin.post(`${P}?fieldValidation=Strict`, dupJson);
    assert.equal(dup.status, 400);
    assert.match(dup.json.message, /duplicate field "metadata.name"/);
    const stored = (await plat.admin.get(`${P}/fv`)).json;
    const put = await plat.admin.request('PUT', `${P}/fv?fieldValidation=Strict`, JSON.stringify({ ...stored, spec: { ...stored.spec, bogus: 2 } }));
    assert.equal(put.status, 400, put.text);
    assert.equal(put.json.message, `${prefix}strict decoding error: unknown field "spec.bogus"`);
    const badValue = await plat.admin.post(`${P}?fieldValidation=Loose`, body);
    assert.equal(badValue.status, 422);
  });

  it('a []byte field decodes as Go decodes it: line breaks skipped, stored and served as Go writes it back', async () => {
    const oneLine = b64(fx.ecCsrPem);
    const lines = oneLine.replace(/.{1,76}/g, '$&\n');
    const json = await plat.admin.post(P, { ...csr('w64-json'), spec: { ...csr('').spec, request: lines } });
    assert.equal(json.status, 201, json.text);
    assert.equal(json.json.spec.request, oneLine);
    // A YAML block, as `base64` without -w0 pasted into a manifest gives it.
    const yaml = `apiVersion: certificates.platform/v1\nkind: CertificateSigningRequest\nmetadata: {name: w64-yaml}\nspec:\n  signerName: example.com/test\n  usages: [client auth]\n  request: |\n${lines.replace(/^/gm, '    ').trimEnd()}\n`;
    const fromYaml = await plat.admin.request('POST', P, yaml, { 'content-type': 'application/yaml' });
    assert.equal(fromYaml.status, 201, fromYaml.text);
    for (const name of ['w64-json', 'w64-yaml']) assert.equal((await plat.admin.get(`${P}/${name}`)).json.spec.request, oneLine, name);
    const what = 'CertificateSigningRequest in version "v1" cannot be handled as a CertificateSigningRequest';
    for (const [request, at] of [['YWJjZA=', 7], ['YWJjZA==YQ==', 8], ['YWJjZA=\n', 8], ['YW\nJj ZA==', 5]] as const) {
      const r = await plat.admin.post(P, { ...csr('w64-bad'), spec: { ...csr('').spec, request } });
      assert.equal(r.status, 400, r.text);
      assert.equal(r.json.message, `${what}: illegal base64 data at input byte ${at}`, JSON.stringify(request));
    }
  });

  it('decoding errors are 400 Status bodies, oversized bodies 413, strategic merge and wrong media types handled', async () => {
    const malformed = await plat.admin.request('POST', P, '{"metadata": ');
    assert.equal(malformed.status, 400);
    assert.equal(malformed.json.kind, 'Status');
    const wrongType = await plat.admin.post(P, { ...csr('t'), spec: { ...csr('t').spec, signerName: 5 } });
    assert.equal(wrongType.status, 400);
    assert.match(wrongType.json.message, /: json: cannot unmarshal number into Go struct field CertificateSigningRequestSpec\.spec\.signerName of type string$/);
    const badB64 = await plat.admin.post(P, { ...csr('t'), spec: { ...csr('t').spec, request: 'not*base64' } });
    assert.equal(badB64.status, 400);
    assert.match(badB64.json.message, /illegal base64 data at input byte 3/);
    const wrongGv = await plat.admin.post(P, { ...csr('t'), apiVersion: 'certificates.platform/v2' });
    assert.equal(wrongGv.status, 400);
    const huge = await plat.admin.request('POST', P, 'x'.repeat(3 * 1024 * 1024 + 1));
    assert.equal(huge.status, 413);
    assert.equal(huge.json.reason, 'RequestEntityTooLarge');
    assert.equal(huge.json.message, 'Request entity too large: limit is 3145728');
    const smp = await plat.admin.patch(`${P}/a1`, { metadata: { labels: { smp: 'yes' } } }, 'application/strategic-merge-patch+json');
    assert.equal(smp.status, 200, smp.text);
    assert.equal(smp.json.metadata.labels.smp, 'yes');
    const xml = await plat.admin.patch(`${P}/a1`, '<x/>', 'application/xml');
    assert.equal(xml.status, 415);
  });

  it('validates metadata generically: label keys and values, name path segments', async () => {
    const labels = await plat.admin.post(P, { ...csr('lbl'), metadata: { name: 'lbl', labels: { 'bad key!': 'v', ok: 'bad value!' } } });
    assert.equal(labels.status, 422);
    assert.deepEqual(labels.json.details.causes.map((c: any) => c.field), ['metadata.labels', 'metadata.labels']);
    assert.match(labels.json.details.causes[0].message, /^Invalid value: "bad key!": name part must consist of alphanumeric characters/);
    assert.match(labels.json.details.causes[1].message, /^Invalid value: "bad value!": a valid label must be an empty string/);
    const slash = await plat.admin.post(P, { ...csr('a%b'), metadata: { name: 'a%b' } });
    assert.equal(slash.status, 422);
    assert.equal(slash.json.details.causes[0].message, 'Invalid value: "a%b": may not contain \'%\'');
    const noName = await plat.admin.post(P, { ...csr(''), metadata: {} });
    assert.equal(noName.status, 422);
    assert.equal(noName.json.message, 'CertificateSigningRequest.certificates.platform "" is invalid: metadata.name: Required value: name or generateName is required');
  });

  it('lists with limit/continue, label and field selectors', async () => {
    for (const n of ['b1', 'b2', 'b3']) assert.equal((await plat.admin.post(P, { ...csr(n), spec: { ...csr(n).spec, signerName: 'example.com/other' } })).status, 201);
    const all = await plat.admin.get(P);
    assert.equal(all.json.kind, 'CertificateSigningRequestList');
    const names = all.json.items.map((i: any) => i.metadata.name);
    const page1 = await plat.admin.get(`${P}?limit=2`);
    assert.equal(page1.json.items.length, 2);
    assert.ok(page1.json.metadata.continue);
    assert.equal(page1.json.metadata.remainingItemCount, names.length - 2);
    const rest: string[] = [];
    let token = page1.json.metadata.continue;
    while (token) {
      const page = await plat.admin.get(`${P}?limit=2&continue=${encodeURIComponent(token)}`);
      assert.equal(page.status, 200, page.text);
      rest.push(...page.json.items.map((i: any) => i.metadata.name));
      token = page.json.metadata.continue;
    }
    assert.deepEqual([...page1.json.items.map((i: any) => i.metadata.name), ...rest], names);
    const bySigner = await plat.admin.get(`${P}?fieldSelector=${encodeURIComponent('spec.signerName=example.com/other')}`);
    assert.deepEqual(bySigner.json.items.map((i: any) => i.metadata.name), ['b1', 'b2', 'b3']);
    const byLabel = await plat.admin.get(`${P}?labelSelector=app%3Db`);
    assert.deepEqual(byLabel.json.items.map((i: any) => i.metadata.name), ['b1', 'b2', 'b3']);
    const byName = await plat.admin.get(`${P}?fieldSelector=metadata.name%3Db2`);
    assert.deepEqual(byName.json.items.map((i: any) => i.metadata.name), ['b2']);
    const badField = await plat.admin.get(`${P}?fieldSelector=spec.username%3Dx`);
    assert.equal(badField.status, 400);
    assert.equal(badField.json.message, 'field label not supported: spec.username');
  });

  it('resourceVersion rules: exact reads of the past, 410 after compaction-free bounds, match validation', async () => {
    const before = (await plat.admin.get(P)).json.metadata.resourceVersion;
    assert.equal((await plat.admin.post(P, csr('c1'))).status, 201);
    const exact = await plat.admin.get(`${P}?resourceVersion=${before}&resourceVersionMatch=Exact`);
    assert.equal(exact.status, 200, exact.text);
    assert.equal(exact.json.metadata.resourceVersion, before);
    assert.ok(!exact.json.items.some((i: any) => i.metadata.name === 'c1'));
    const badMatch = await plat.admin.get(`${P}?resourceVersionMatch=Exact`);
    assert.equal(badMatch.status, 422);
    assert.match(badMatch.json.message, /resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided/);
    const sendInitialOnList = await plat.admin.get(`${P}?sendInitialEvents=true`);
    assert.equal(sendInitialOnList.status, 422);
  });

  it('serves Tables with the CSR columns and includeObject', async () => {
    const t = await plat.admin.get(P, { accept: TABLE });
    assert.equal(t.json.kind, 'Table');
    assert.deepEqual(t.json.columnDefinitions.map((c: any) => c.name), ['Name', 'Age', 'SignerName', 'Requestor', 'RequestedDuration', 'Condition']);
    const row = t.json.rows.find((r: any) => r.cells[0] === 'a1');
    assert.deepEqual(row.cells.slice(2), ['example.com/test', 'plat-admin', '<none>', 'Pending']);
    assert.equal(row.object.kind, 'PartialObjectMetadata');
    const full = await plat.admin.get(`${P}?includeObject=Object`, { accept: TABLE });
    assert.equal(full.json.rows[0].object.kind, 'CertificateSigningRequest');
    // optionsForTransform's ValidateTableOptions: empty is the default; anything else a 400.
    assert.equal((await plat.admin.get(`${P}?includeObject=`, { accept: TABLE })).json.rows[0].object.kind, 'PartialObjectMetadata');
    const bad = await plat.admin.get(`${P}?includeObject=Bogus`, { accept: TABLE });
    assert.equal(bad.status, 400, bad.text);
    assert.equal(bad.json.message, 'Unable to convert to Table as requested: includeObject: Invalid value: "Bogus": must be \'Metadata\', \'Object\', \'None\', or empty');
  });

  it('deletes with preconditions and a Success Status', async () => {
    const cur = (await plat.admin.get(`${P}/c1`)).json;
    const wrong = await plat.admin.request('DELETE', `${P}/c1`, { preconditions: { uid: 'not-it' } });
    assert.equal(wrong.status, 409);
    const ok = await plat.admin.request('DELETE', `${P}/c1`, { preconditions: { uid: cur.metadata.uid } });
    assert.equal(ok.status, 200);
    assert.deepEqual(ok.json, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success',
      details: { name: 'c1', group: 'certificates.platform', kind: 'certificatesigningrequests', uid: cur.metadata.uid } });
    assert.equal((await plat.admin.get(`${P}/c1`)).status, 404);
  });

  it('deletecollection removes what the selector matches', async () => {
    const r = await plat.admin.delete(`${P}?labelSelector=app%3Db`);
    assert.equal(r.status, 200);
    assert.equal((await plat.admin.get(`${P}?labelSelector=app%3Db`)).json.items.length, 0);
    assert.equal((await plat.admin.get(`${P}/a1`)).status, 200);
  });
});
