// A SelfSubjectRulesReview in protobuf, as kubectl's typed client posts it: any authenticated user
// may send one (system:basic-user), so the body is untrusted. A well-formed one is answered; a
// malformed one (an overlong varint, a length or fixed-width field past the end, tag 0, a message
// field with another wire type) is a clean 400 naming the problem, answered at once whatever its
// size, and the server goes on serving.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { field, PROTOBUF, protoEnvelope } from './support.js';

const PATH = '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews';
const envelope = (raw: Buffer) => protoEnvelope('authorization.k8s.io/v1', 'SelfSubjectRulesReview', raw);
const spec = field(2, field(1, Buffer.from('team')));

describe('SelfSubjectRulesReview protobuf bodies', () => {
  let plat: RunningPlat;
  before(async () => { plat = await startInProcess({}); });
  after(async () => { await plat?.stop(); });

  it('answers a well-formed body', async () => {
    const r = await plat.admin.request('POST', PATH, envelope(spec), PROTOBUF);
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.kind, 'SelfSubjectRulesReview');
  });

  const rows: { name: string; body: Buffer; message: RegExp }[] = [
    { name: 'a key varint longer than 64 bits', body: envelope(Buffer.concat([spec, Buffer.alloc(10, 0xff), Buffer.from([0x01])])), message: /proto: integer overflow/ },
    // 100 KB of continuation bytes: refused after ten of them, not read bit by bit to the end.
    { name: 'a body that is one endless varint', body: Buffer.concat([Buffer.from('k8s\0', 'latin1'), Buffer.alloc(100_000, 0xff)]), message: /proto: integer overflow/ },
    { name: 'a fixed64 field past the end', body: envelope(Buffer.concat([spec, Buffer.from([0x19, 0x01, 0x02])])), message: /truncated field/ },
    { name: 'a fixed32 field past the end', body: envelope(Buffer.concat([spec, Buffer.from([0x1d, 0x01])])), message: /truncated field/ },
    { name: 'tag 0', body: envelope(Buffer.concat([Buffer.from([0x00, 0x01]), spec])), message: /proto: illegal tag 0 \(wire type 0\)/ },
    { name: 'spec sent as a varint', body: envelope(Buffer.from([0x10, 0x01])), message: /proto: wrong wireType for a message field/ },
  ];
  for (const row of rows) {
    it(`refuses ${row.name} with 400`, async () => {
      const r = await plat.admin.request('POST', PATH, row.body, PROTOBUF);
      assert.equal(r.status, 400, r.text);
      assert.equal(r.json.kind, 'Status');
      assert.match(r.json.message, row.message);
      assert.equal((await plat.admin.get('/healthz')).status, 200);
    });
  }
});
