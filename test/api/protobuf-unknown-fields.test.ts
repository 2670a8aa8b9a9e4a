// Protobuf request bodies are untrusted (any authenticated user may post a SelfSubjectRulesReview
// in protobuf): fields a decoder does not know are skipped as they are read, as gogo-protobuf's
// readers skip them, never gathered first. 3 MB of tiny unknown fields (the body limit) is 1.5
// million fields; kept as objects they would hold ~140 MB per request in flight.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Host } from '../../core/host.js';
import { selfSubjectRulesReviews } from '../../plugins/authorization-api/self-subject-rules-review.js';

const MB = 1024 * 1024;

describe('protobuf bodies with many unknown fields', () => {
  it('are decoded without holding the fields they skip', () => {
    const def = selfSubjectRulesReviews({} as Host, 'authorization.platform');
    const spec = Buffer.from([0x12, 0x06, 0x0a, 0x04, ...Buffer.from('team')]);
    // Field 3 (status, which the server fills and the decoder ignores) as a varint, again and again.
    const unknown = Buffer.alloc(3 * MB);
    for (let i = 0; i < unknown.length; i += 2) unknown[i] = 0x18;
    const before = process.memoryUsage().heapUsed;
    const obj = def.decodeProtobuf!(Buffer.concat([spec, unknown])) as { spec?: { namespace?: string } };
    const grown = process.memoryUsage().heapUsed - before;
    assert.equal(obj.spec?.namespace, 'team');
    // A bound far above what reading costs (a few MB of garbage between collections) and far
    // below what gathering costs.
    assert.ok(grown < 40 * MB, `heap grew ${Math.round(grown / MB)} MB while decoding`);
  });
});
