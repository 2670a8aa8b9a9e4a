// The token webhook's answer decoded as upstream's client decodes it into the TokenReview of the
// version asked: what it leaves out (kind, apiVersion, the version alone) comes from that type,
// what it states must be that type. Table-driven over parseReview.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseReview } from '../../plugins/authn-webhook-token/index.js';

const V1 = 'authentication.k8s.io/v1';
const status = { authenticated: true, user: { username: 'alice' } };

const CASES: [string, Record<string, unknown>, string | undefined][] = [
  ['both given', { apiVersion: V1, kind: 'TokenReview' }, undefined],
  ['neither given', {}, undefined],
  ['kind only', { kind: 'TokenReview' }, undefined],
  ['apiVersion only', { apiVersion: V1 }, undefined],
  ['group without version', { apiVersion: 'authentication.k8s.io/' }, undefined],
  ['null kind and apiVersion', { apiVersion: null, kind: null }, undefined],
  ['another kind', { apiVersion: V1, kind: 'SubjectAccessReview' }, 'kind is "SubjectAccessReview", expected "TokenReview"'],
  ['another version', { apiVersion: 'authentication.k8s.io/v1beta1', kind: 'TokenReview' }, 'apiVersion is "authentication.k8s.io/v1beta1", expected "authentication.k8s.io/v1"'],
  ['a version of the core group', { apiVersion: 'v1', kind: 'TokenReview' }, 'apiVersion is "v1", expected "authentication.k8s.io/v1"'],
  ['an apiVersion that does not parse', { apiVersion: 'a/b/c' }, 'apiVersion is "a/b/c", expected "authentication.k8s.io/v1"'],
  ['a kind that is no string', { kind: 7 }, 'kind is 7, expected "TokenReview"'],
];

describe('the token webhook answer\'s kind and apiVersion', () => {
  for (const [name, typeMeta, error] of CASES) {
    it(name, () => {
      const read = () => parseReview({ ...typeMeta, status }, V1);
      if (error === undefined) assert.deepEqual(read(), { authenticated: true, user: { name: 'alice', groups: [] } });
      else assert.throws(read, { message: `malformed TokenReview response: ${error}` });
    });
  }
});
