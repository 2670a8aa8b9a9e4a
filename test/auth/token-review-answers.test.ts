// The delegated authenticators of the controller manager's endpoint and the node agent read the
// API server's TokenReview answer as Go's decoder does: a field of the wrong type is an error
// (the request is refused, 401) and is not cached, never an identity made of what JavaScript
// makes of it (a string of groups spread into letters, a number for a name).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RestClient } from '../../core/client/rest-client.js';
import { TokenReviewer } from '../../core/authn/token-review-client.js';
import { startReviewServer, type ReviewServer } from '../helpers/review-server.js';

const TR = { apiVersion: 'authentication.platform/v1', kind: 'TokenReview' };
const user = { username: 'alice', uid: 'u1', groups: ['dev'], extra: { scopes: ['a'] } };

/** The token names the answer. */
const ANSWERS: Record<string, unknown> = {
  good: { ...TR, status: { authenticated: true, user } },
  refused: { ...TR, status: { authenticated: false, error: 'expired' } },
  'authenticated-string': { ...TR, status: { authenticated: 'true', user } },
  'name-number': { ...TR, status: { authenticated: true, user: { ...user, username: 7 } } },
  'groups-string': { ...TR, status: { authenticated: true, user: { ...user, groups: 'system:masters' } } },
  'groups-numbers': { ...TR, status: { authenticated: true, user: { ...user, groups: [1] } } },
  'extra-string': { ...TR, status: { authenticated: true, user: { ...user, extra: { scopes: 'a' } } } },
  'uid-object': { ...TR, status: { authenticated: true, user: { ...user, uid: {} } } },
  'user-list': { ...TR, status: { authenticated: true, user: [user] } },
  'other-kind': { ...TR, kind: 'SubjectAccessReview', status: { authenticated: true, user } },
  'other-version': { ...TR, apiVersion: 'authentication.k8s.io/v1', status: { authenticated: true, user } },
  bare: { status: { authenticated: true, user } },
};

const MALFORMED: [string, string][] = [
  ['authenticated-string', 'status.authenticated is not a boolean'],
  ['name-number', 'status.user.username is not a string'],
  ['groups-string', 'status.user.groups is not a list of strings'],
  ['groups-numbers', 'status.user.groups is not a list of strings'],
  ['extra-string', 'status.user.extra is not a map of string lists'],
  ['uid-object', 'status.user.uid is not a string'],
  ['user-list', 'status.user is not an object'],
  ['other-kind', 'not an authentication.platform/v1 TokenReview'],
  ['other-version', 'not an authentication.platform/v1 TokenReview'],
];

describe('delegated token reviews and a malformed TokenReview answer', () => {
  let server: ReviewServer;
  let client: RestClient;
  const asked: string[] = [];
  before(async () => {
    server = await startReviewServer((request: { spec: { token: string } }) => { asked.push(request.spec.token); return ANSWERS[request.spec.token]; });
    client = new RestClient(server.connection);
  });
  after(async () => { client.close(); await server.close(); });

  it('reads a well-formed answer; a malformed one is an error, asked again next time', async () => {
    const reviewer = new TokenReviewer(() => client, 60_000);
    assert.deepEqual(await reviewer.review('good'), { authenticated: true, user: { name: 'alice', groups: ['dev'], uid: 'u1', extra: { scopes: ['a'] } } });
    assert.deepEqual(await reviewer.review('refused'), { authenticated: false, error: 'expired' });
    // No kind, no apiVersion: the decoder takes both from the type asked for.
    assert.deepEqual(await reviewer.review('bare'), { authenticated: true, user: { name: 'alice', groups: ['dev'], uid: 'u1', extra: { scopes: ['a'] } } });
    for (const [token, why] of MALFORMED) {
      for (let i = 0; i < 2; i++) {
        const before = asked.filter((t) => t === token).length;
        await assert.rejects(reviewer.review(token), { message: `malformed TokenReview response: ${why}` }, token);
        assert.equal(asked.filter((t) => t === token).length, before + 1, `${token}: not cached`);
      }
    }
  });
});
