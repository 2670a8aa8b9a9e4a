// A fresh server compiles every body type checker once it listens, so the first CSR (and the
// approver's SubjectAccessReview) does not pay ajv's compile on the event loop; the answers are
// those of checkers compiled on demand.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SchemaTypeChecker } from '../../core/api/schema-types.js';
import { DELETE_OPTIONS_SCHEMA } from '../../core/server/delete-options.js';
import { bodySchemas, hasTypeChecker } from '../../core/server/type-checkers.js';
import { getApiServer } from '../../plugins/apiserver/index.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';

const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';

describe('body type checkers after start-up', () => {
  let plat: RunningPlat;
  before(async () => { plat = await startInProcess(); });
  after(async () => { await plat.stop(); });

  it('are compiled for every served body schema without a request needing them', async () => {
    const resources = getApiServer(plat.host!)!.resources;
    const schemas = [...bodySchemas(resources), DELETE_OPTIONS_SCHEMA];
    const csr = resources.get('certificates.platform', 'v1', 'certificatesigningrequests')!.schema;
    const sar = resources.get('authorization.platform', 'v1', 'subjectaccessreviews')!.schema;
    assert.ok(schemas.includes(csr) && schemas.includes(sar));
    assert.ok(schemas.some((s) => resources.all().every((d) => d.schema !== s) && s !== DELETE_OPTIONS_SCHEMA), 'a create subresource (TokenRequest) is among them');
    // The warm-up runs a compile a turn while no request is in flight: waited for, bounded.
    for (let i = 0; i < 1500 && !schemas.every(hasTypeChecker); i++) await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(schemas.filter((s) => !hasTypeChecker(s)).map((s) => s['x-go-type'] ?? JSON.stringify(s).slice(0, 60)), []);
  });

  it('answer as before: the first type error in the document, in ObjectMeta (now compiled once) or not', async () => {
    const body = (first: 'metadata' | 'spec') => {
      const metadata = { name: 'w', labels: { a: 1 } };
      const spec = { signerName: 'example.com/x', usages: 'client auth' };
      return first === 'metadata' ? `{"metadata":${JSON.stringify(metadata)},"spec":${JSON.stringify(spec)}}` : `{"spec":${JSON.stringify(spec)},"metadata":${JSON.stringify(metadata)}}`;
    };
    const what = 'CertificateSigningRequest in version "v1" cannot be handled as a CertificateSigningRequest: ';
    const m = await plat.admin.post(CSRS, body('metadata'));
    assert.equal(m.status, 400);
    assert.equal(m.json.message, `${what}json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string`);
    const s = await plat.admin.post(CSRS, body('spec'));
    assert.equal(s.status, 400);
    assert.equal(s.json.message, `${what}json: cannot unmarshal string into Go struct field CertificateSigningRequestSpec.spec.usages of type []v1.KeyUsage`);
  });
});

describe('SchemaTypeChecker with the shared ObjectMeta', () => {
  it('checks kinds compiled one after another in the same ajv instances independently', () => {
    const a = new SchemaTypeChecker({ type: 'object', 'x-go-type': 'v1.A', properties: { n: { type: 'integer', format: 'int32' } } });
    const b = new SchemaTypeChecker({ type: 'object', 'x-go-type': 'v1.B', properties: { n: { type: 'string' } } });
    assert.equal(a.check({ n: 'x' }), 'json: cannot unmarshal string into Go struct field A.n of type int32');
    assert.equal(b.check({ n: 'x' }), undefined);
    assert.equal(b.check({ n: 1 }), 'json: cannot unmarshal number into Go struct field B.n of type string');
    assert.equal(a.check({ n: 1 }), undefined);
  });
});
