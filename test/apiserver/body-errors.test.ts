// A body that is not the object (or patch) it should be gets upstream's words over real HTTPS:
// transformDecodeError's "the object provided is unrecognized" with a summary of the body for
// create and update, the decoder's own error for DeleteOptions, and each patcher's wording.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { b64, fixtures } from '../certificates/fixtures.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';

const P = '/apis/certificates.platform/v1/certificatesigningrequests';
const FIND_KIND = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';
const UNRECOGNIZED = 'the object provided is unrecognized (must be of type CertificateSigningRequest): ';

describe('request bodies that do not decode', () => {
  let plat: RunningPlat;
  before(async () => {
    plat = await startInProcess();
    const fx = fixtures();
    const r = await plat.admin.post(P, {
      apiVersion: 'certificates.platform/v1', kind: 'CertificateSigningRequest', metadata: { name: 'b1' },
      spec: { request: b64(fx.ecCsrPem), signerName: 'example.com/test', usages: ['digital signature', 'client auth'] },
    });
    assert.equal(r.status, 201, r.text);
  });
  after(async () => { await plat?.stop(); });

  const bad = async (method: string, path: string, body: string, type: string, want: string): Promise<void> => {
    const r = await plat.admin.request(method, path, body, { 'content-type': type });
    assert.equal(r.status, 400, `${method} ${path} ${body}: ${r.text}`);
    assert.equal(r.json.reason, 'BadRequest');
    assert.equal(r.json.message, want, `${method} ${path} ${type} ${JSON.stringify(body)}`);
  };

  it('create, update and subresource writes: syntax and version/kind errors name the body', async () => {
    const cases: Array<[string, string, string, string]> = [
      ['POST', P, '{"metadata": ', `${UNRECOGNIZED}couldn't get version/kind; json parse error: unexpected end of JSON input ({"metadata": )`],
      ['POST', P, 'x', `${UNRECOGNIZED}couldn't get version/kind; json parse error: invalid character 'x' looking for beginning of value (78)`],
      ['POST', P, '{"a":1}}', `${UNRECOGNIZED}couldn't get version/kind; json parse error: invalid character '}' after top-level value ({"a":1}})`],
      ['POST', P, '[]', `${UNRECOGNIZED}couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type ${FIND_KIND} (5b5d)`],
      ['POST', P, '{"apiVersion": 1, "metadata": {"name": "long-enough-to-be-cut"}}',
        `${UNRECOGNIZED}couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .apiVersion of type string ({"apiVersion": 1, "metadata":  ...)`],
      ['PUT', `${P}/b1`, '{"kind": {}}', `${UNRECOGNIZED}couldn't get version/kind; json parse error: json: cannot unmarshal object into Go struct field .kind of type string ({"kind": {}})`],
      ['PUT', `${P}/b1/approval`, '{"status": tru}', `${UNRECOGNIZED}couldn't get version/kind; json parse error: invalid character '}' in literal true (expecting 'e') ({"status": tru})`],
    ];
    for (const [method, path, body, want] of cases) await bad(method, path, body, 'application/json', want);
    const yaml = await plat.admin.request('POST', P, 'a: [', { 'content-type': 'application/yaml' });
    assert.equal(yaml.status, 400, yaml.text);
    assert.match(yaml.json.message, /^the object provided is unrecognized \(must be of type CertificateSigningRequest\): yaml: line 1: .+ \(613a205b\)$/);
    // null decodes to an empty object, which then fails validation rather than decoding.
    const empty = await plat.admin.request('POST', P, 'null');
    assert.equal(empty.status, 422, empty.text);
    assert.match(empty.json.message, /metadata\.name: Required value/);
  });

  it('null fields decode as Go decodes them: absent, or the zero value in a list or map', async () => {
    const fx = fixtures();
    const r = await plat.admin.post(P, {
      apiVersion: 'certificates.platform/v1', kind: 'CertificateSigningRequest',
      metadata: { name: 'nulls', labels: { a: null }, annotations: null, creationTimestamp: null },
      spec: { request: b64(fx.ecCsrPem), signerName: 'example.com/test', usages: ['digital signature', 'client auth'], expirationSeconds: null, extra: null },
      status: null,
    });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.json.metadata.labels, { a: '' });
    assert.equal(r.json.metadata.annotations, undefined);
    assert.equal(r.json.spec.expirationSeconds, undefined);
    // A null required list is absent: validation's words, not the decoder's.
    const usages = await plat.admin.post(P, {
      apiVersion: 'certificates.platform/v1', kind: 'CertificateSigningRequest', metadata: { name: 'nulls2' },
      spec: { request: b64(fx.ecCsrPem), signerName: 'example.com/test', usages: null },
    });
    assert.equal(usages.status, 422, usages.text);
    assert.match(usages.json.message, /spec\.usages: Required value/);
  });

  it("DeleteOptions: the decoder's own error", async () => {
    await bad('DELETE', `${P}/b1`, '{"dryRun": [', 'application/json', "couldn't get version/kind; json parse error: unexpected end of JSON input");
    await bad('DELETE', `${P}/b1`, '"All"', 'application/json', `couldn't get version/kind; json parse error: json: cannot unmarshal string into Go value of type ${FIND_KIND}`);
    assert.equal((await plat.admin.get(`${P}/b1`)).status, 200);
  });

  it("patches: each patch type's decoder and words, by fieldValidation", async () => {
    const cases: Array<[string, string, string, string]> = [
      ['application/json-patch+json', '', '[{"op": "add"', 'error decoding patch: unexpected end of JSON input'],
      ['application/json-patch+json', '?fieldValidation=Ignore', '[{"op": "add"', 'unexpected end of JSON input'],
      ['application/json-patch+json', '?fieldValidation=Strict', '{"op": "add"}', 'error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp'],
      ['application/json-patch+json', '', '[{"op": "add", "path": 1}]', 'error decoding patch: json: cannot unmarshal number into Go struct field jsonPatchOp.path of type string'],
      ['application/json-patch+json', '?fieldValidation=Ignore', '{"op": "add"}', 'json: cannot unmarshal object into Go value of type jsonpatch.Patch'],
      ['application/merge-patch+json', '', '{"metadata": x}', "error decoding patch: invalid character 'x' looking for beginning of value"],
      ['application/merge-patch+json', '?fieldValidation=Ignore', '{"metadata": x}', 'Invalid JSON Patch'],
      ['application/merge-patch+json', '', '[1]', 'error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}'],
      ['application/strategic-merge-patch+json', '', '{"metadata": x}', "invalid character 'x' looking for beginning of value"],
      ['application/strategic-merge-patch+json', '', '"x"', 'json: cannot unmarshal string into Go value of type map[string]interface {}'],
      ['application/apply-patch+yaml', '?fieldManager=m', '- a', 'error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal array into Go value of type map[string]interface {}'],
    ];
    for (const [type, query, body, want] of cases) await bad('PATCH', `${P}/b1${query}`, body, type, want);
    const untouched = await plat.admin.get(`${P}/b1`);
    assert.equal(untouched.json.metadata.labels, undefined);
    // A null strategic merge patch changes nothing, as upstream's nil patch map.
    const nullSmp = await plat.admin.patch(`${P}/b1`, 'null', 'application/strategic-merge-patch+json');
    assert.equal(nullSmp.status, 200, nullSmp.text);
    assert.equal(nullSmp.json.metadata.resourceVersion, untouched.json.metadata.resourceVersion);
  });

  it('an empty patch body: each decoder\'s own words, as for any body that ends too soon', async () => {
    const cases: Array<[string, string, string]> = [
      ['application/json-patch+json', '', 'error decoding patch: unexpected end of JSON input'],
      ['application/json-patch+json', '?fieldValidation=Ignore', 'unexpected end of JSON input'],
      ['application/merge-patch+json', '', 'error decoding patch: unexpected end of JSON input'],
      ['application/merge-patch+json', '?fieldValidation=Ignore', 'Invalid JSON Patch'],
      ['application/strategic-merge-patch+json', '', 'unexpected end of JSON input'],
      ['application/apply-patch+yaml', '?fieldManager=m', 'invalid object type: /, Kind='],
    ];
    for (const [type, query, want] of cases) {
      await bad('PATCH', `${P}/b1${query}`, '', type, want);
      await bad('PATCH', `${P}/b1${query}`, ' \n', type, want);
    }
  });

  it('a patch that cannot be applied: upstream\'s generic 422, or the 500 of an error it does not interpret', async () => {
    const js = await plat.admin.request('PATCH', `${P}/b1`, '[{"op": "remove", "path": "/spec/nope"}]', { 'content-type': 'application/json-patch+json' });
    assert.equal(js.status, 422, js.text);
    assert.deepEqual(js.json, {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'the server rejected our request due to an error in our request', reason: 'Invalid', details: {}, code: 422,
    });
    // A list element without its merge key: mergepatch.ErrNoMergeKey is a plain error, so no reason.
    const smp = await plat.admin.request('PATCH', `${P}/b1`, '{"metadata": {"ownerReferences": [{"name": "x"}]}}', { 'content-type': 'application/strategic-merge-patch+json' });
    assert.equal(smp.status, 500, smp.text);
    assert.deepEqual(smp.json, {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'map: map[name:x] does not contain declared merge key: uid', code: 500,
    });
  });

  it('a patched object that does not decode: 422 on the field "patch", as the patchers answer', async () => {
    const invalid = async (type: string, query: string, body: string, value: RegExp | string, cause: string): Promise<void> => {
      const r = await plat.admin.request('PATCH', `${P}/b1${query}`, body, { 'content-type': type });
      assert.equal(r.status, 422, `${type} ${body}: ${r.text}`);
      assert.equal(r.json.reason, 'Invalid');
      // Upstream's NewInvalid(schema.GroupKind{}, "", ...): no kind, no name, and details without them.
      assert.deepEqual(Object.keys(r.json.details), ['causes']);
      const [c] = r.json.details.causes;
      assert.equal(c.field, 'patch');
      assert.equal(c.reason, 'FieldValueInvalid');
      const m = /^Invalid value: "(.*)": (.*)$/s.exec(c.message);
      assert.ok(m, c.message);
      if (typeof value === 'string') assert.equal(m[1], value); else assert.match(m[1]!, value);
      assert.equal(m[2], cause);
      assert.equal(r.json.message, ` "" is invalid: patch: ${c.message}`);
    };
    await invalid('application/merge-patch+json', '?fieldValidation=Strict', '{"spec": {"bogus": 1}}',
      /^\{.*\\"bogus\\":1.*\}$/, 'strict decoding error: unknown field "spec.bogus"');
    await invalid('application/json-patch+json', '?fieldValidation=Strict', '[{"op": "add", "path": "/spec/bogus", "value": 1}]',
      /\\"bogus\\":1/, 'strict decoding error: unknown field "spec.bogus"');
    // Strategic merge patch shows the patch map, as Go's %+v prints it.
    await invalid('application/strategic-merge-patch+json', '?fieldValidation=Strict', '{"spec": {"bogus": 1}}',
      'map[spec:map[bogus:1]]', 'strict decoding error: unknown field "spec.bogus"');
    // The patch's own strict errors come first: a JSON patch operation's unknown and repeated keys,
    // a merge patch's repeated keys.
    await invalid('application/json-patch+json', '?fieldValidation=Strict',
      '[{"op": "add", "path": "/metadata/labels", "value": {"a": "1", "a": "2"}, "Op": "x", "extra": 1, "extra": 2}, {"op": "test", "path": "/spec/bogus", "op": "add", "value": 1}]',
      /\\"bogus\\":1/,
      'strict decoding error: json patch unknown field "[0].Op", json patch unknown field "[0].extra", json patch duplicate field "[0].value.a", '
      + 'json patch duplicate field "[1].op", unknown field "spec.bogus"');
    await invalid('application/merge-patch+json', '?fieldValidation=Strict', '{"metadata": {"labels": {"d": "1", "d": "2"}}}',
      /\\"labels\\":\{\\"d\\":\\"2\\"\}/, 'strict decoding error: duplicate field "metadata.labels.d"');
    await invalid('application/strategic-merge-patch+json', '?fieldValidation=Strict', '{"metadata": {"labels": {"d": "1", "d": "2"}}}',
      'map[metadata:map[labels:map[d:2]]]', 'strict decoding error: duplicate field "metadata.labels.d"');
    const dupWarned = await plat.admin.request('PATCH', `${P}/b1`, '[{"op": "add", "path": "/metadata/labels", "value": {"v": "1"}, "x": 0}]', { 'content-type': 'application/json-patch+json' });
    assert.equal(dupWarned.status, 200, dupWarned.text);
    assert.equal(dupWarned.headers.warning, '299 - "json patch unknown field \\"[0].x\\""');
    assert.equal(dupWarned.json.metadata.labels.v, '1');
    const typed = await plat.admin.request('PATCH', `${P}/b1`, '{"spec": {"usages": "x"}}', { 'content-type': 'application/merge-patch+json' });
    assert.equal(typed.status, 422, typed.text);
    assert.equal(typed.json.details.causes[0].field, 'patch');
    assert.match(typed.json.details.causes[0].message, /: json: cannot unmarshal string into Go struct field .*usages/);
    // Warn (the default) and Ignore still apply the patch, dropping the unknown field.
    const warned = await plat.admin.request('PATCH', `${P}/b1`, '{"spec": {"bogus": 1}, "metadata": {"labels": {"w": "1"}}}', { 'content-type': 'application/merge-patch+json' });
    assert.equal(warned.status, 200, warned.text);
    assert.equal(warned.headers.warning, '299 - "unknown field \\"spec.bogus\\""');
    assert.equal(warned.json.metadata.labels.w, '1');
    assert.equal(warned.json.spec.bogus, undefined);
  });
});
