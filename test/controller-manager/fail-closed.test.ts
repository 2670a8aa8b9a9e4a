// The endpoint's delegated authentication and authorization when the API server cannot be asked
// (a connection that fails at once, as a stopped server does): no token becomes a user, no path
// outside the always-allow list is allowed, and the failure is not remembered as an answer, so
// the next request asks again. Upstream's delegating authenticator and authorizer do the same
// (a failed review is an error, never an allow, and the caches keep only answers).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Attributes } from '../../core/authz/attributes.js';
import { DelegatingAuthenticator } from '../../core/authn/delegating-authenticator.js';
import { TokenReviewer } from '../../core/authn/token-review-client.js';
import type { ClientConnection } from '../../core/client/connection.js';
import { RestClient } from '../../core/client/rest-client.js';
import { DelegatedAuthorizer, SubjectAccessReviewer } from '../../plugins/controller-manager-serving/delegated-authorization.js';

const TOKEN = 'fail-closed-secret-token';

/** An API server that refuses every connection; counts the attempts. */
function unreachable(): { connection: ClientConnection; attempts: () => number } {
  let n = 0;
  return {
    attempts: () => n,
    connection: {
      server: new URL('https://127.0.0.1:1'),
      dial: () => {
        n++;
        throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
      },
    },
  };
}

const attrs = (path: string, groups: string[] = ['system:unauthenticated']): Attributes => ({
  user: { name: 'system:anonymous', groups }, verb: 'get', isResourceRequest: false, path,
  apiGroup: '', apiVersion: '', resource: '', subresource: '', namespace: '', name: '',
});

describe('controller manager endpoint with the API server unreachable', () => {
  it('a bearer token is refused (401), not anonymous, and the failed review is not cached', async () => {
    const api = unreachable();
    const client = new RestClient(api.connection);
    try {
      const authn = new DelegatingAuthenticator({ tokens: new TokenReviewer(() => client, 10_000), anonymous: true });
      const req = { headers: { authorization: `Bearer ${TOKEN}` } } as unknown as Parameters<DelegatingAuthenticator['authenticate']>[0];
      for (let i = 1; i <= 2; i++) {
        const r = await authn.authenticate(req);
        assert.ok(!('user' in r), `attempt ${i}: no user`);
        assert.equal(r.error, 'Post "http://127.0.0.1:1/apis/authentication.platform/v1/tokenreviews": dial tcp 127.0.0.1:1: connect: connection refused');
        assert.ok(!r.error.includes(TOKEN), 'the token never reaches the refusal reason');
        assert.equal(api.attempts(), i, 'each request asks again');
      }
      // Without a token the request is still anonymous, as upstream.
      const anonymous = await authn.authenticate({ headers: {} } as unknown as Parameters<DelegatingAuthenticator['authenticate']>[0]);
      assert.ok('user' in anonymous && anonymous.user.name === 'system:anonymous');
    } finally {
      client.close();
    }
  });

  it('a path outside the always-allow list is an error (500), never allowed, and asked again next time', async () => {
    const api = unreachable();
    const reviews = new SubjectAccessReviewer(api.connection, { allowedMs: 10_000, deniedMs: 10_000 }, { userAgent: 'test' });
    try {
      const authz = new DelegatedAuthorizer(['/healthz', '/readyz', '/livez'], reviews);
      await assert.rejects(authz.authorize(attrs('/debug/pprof/')), /ECONNREFUSED/);
      await assert.rejects(authz.authorize(attrs('/debug/pprof/')), /ECONNREFUSED/);
      assert.equal(api.attempts(), 2, 'the failure was not cached');
      // The open paths and system:masters need no review.
      assert.deepEqual(await authz.authorize(attrs('/healthz')), { decision: 'allow' });
      assert.deepEqual(await authz.authorize(attrs('/debug/pprof/', ['system:masters', 'system:authenticated'])), { decision: 'allow' });
      assert.equal(api.attempts(), 2);
    } finally {
      reviews.close();
    }
  });
});
