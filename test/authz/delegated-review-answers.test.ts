// The delegated authorizers of the controller manager's endpoint and the node agent read the API
// server's SubjectAccessReview answer as Go's decoder does: a status field of the wrong type
// (`"allowed":"false"`, which JavaScript finds true) or a body that is not a SubjectAccessReview
// fails the question (the request is a 500), is never read as an allow, and is not cached. A fake
// API server on loopback over real TLS answers.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Attributes } from '../../core/authz/attributes.js';
import { RestClient } from '../../core/client/rest-client.js';
import type { ClientConnection } from '../../core/client/connection.js';
import { SubjectAccessReviewer as EndpointReviewer } from '../../plugins/controller-manager-serving/delegated-authorization.js';
import { SubjectAccessReviewer as NodeAgentReviewer } from '../../plugins/nodeagent-server/authorization.js';
import { startReviewServer, type ReviewServer } from '../helpers/review-server.js';

const SAR = { apiVersion: 'authorization.platform/v1', kind: 'SubjectAccessReview' };

/** What the fake API server answers for a question about each path. */
const ANSWERS: Record<string, unknown> = {
  '/allowed': { ...SAR, status: { allowed: true } },
  '/string-false': { ...SAR, status: { allowed: 'false' } },
  '/one': { ...SAR, status: { allowed: 1 } },
  '/denied-yes': { ...SAR, status: { allowed: false, denied: 'yes' } },
  '/reason-number': { ...SAR, status: { allowed: true, reason: 7 } },
  '/status-array': { ...SAR, status: [true] },
  '/other-kind': { apiVersion: 'authorization.platform/v1', kind: 'TokenReview', status: { allowed: true } },
  '/other-version': { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', status: { allowed: true } },
  '/no-kind': { apiVersion: 'authorization.platform/v1', status: { allowed: true } },
  '/bare': { status: { allowed: true } },
  '/bad-group-version': { apiVersion: 'a/b/c', kind: 'SubjectAccessReview', status: { allowed: true } },
};

const MALFORMED: [string, string][] = [
  // Go's decoder into the typed review (a field of the wrong type)...
  ['/string-false', 'json: cannot unmarshal string into Go struct field SubjectAccessReviewStatus.status.allowed of type bool'],
  ['/one', 'json: cannot unmarshal number into Go struct field SubjectAccessReviewStatus.status.allowed of type bool'],
  ['/denied-yes', 'json: cannot unmarshal string into Go struct field SubjectAccessReviewStatus.status.denied of type bool'],
  ['/reason-number', 'json: cannot unmarshal number into Go struct field SubjectAccessReviewStatus.status.reason of type string'],
  ['/status-array', 'json: cannot unmarshal array into Go struct field SubjectAccessReview.status of type v1.SubjectAccessReviewStatus'],
  // ... and plat's words for another kind or version (the scheme's own texts are not reproduced).
  ['/other-kind', 'malformed SubjectAccessReview response: kind is "TokenReview", expected "SubjectAccessReview"'],
  ['/other-version', 'malformed SubjectAccessReview response: apiVersion is "authorization.k8s.io/v1", expected "authorization.platform/v1"'],
  ['/bad-group-version', 'malformed SubjectAccessReview response: apiVersion is "a/b/c", expected "authorization.platform/v1"'],
];

const question = (path: string): Attributes => ({
  user: { name: 'alice', groups: ['system:authenticated'] }, verb: 'get', isResourceRequest: false, path,
  apiGroup: '', apiVersion: '', resource: '', subresource: '', namespace: '', name: '',
});

describe('delegated authorizers and a malformed SubjectAccessReview answer', () => {
  let server: ReviewServer;
  let connection: ClientConnection;
  const asked: string[] = [];
  before(async () => {
    server = await startReviewServer((request: { spec: { nonResourceAttributes: { path: string } } }) => {
      const path = request.spec.nonResourceAttributes.path;
      asked.push(path);
      return ANSWERS[path];
    });
    connection = server.connection;
  });
  after(() => server.close());

  const ttl = { allowedMs: 60_000, deniedMs: 60_000 };
  const nodeAgentClient = () => new RestClient(connection);
  const reviewers: [string, (path: string) => Promise<unknown>][] = [
    ['the controller manager\'s endpoint', (() => { let r: EndpointReviewer | undefined; return (path: string) => (r ??= new EndpointReviewer(connection, ttl, { userAgent: 'test' })).decide(question(path)); })()],
    ['the node agent', (() => { let c: RestClient | undefined; const r = new NodeAgentReviewer(() => (c ??= nodeAgentClient()), ttl); return (path: string) => r.authorize(question(path)); })()],
  ];

  for (const [who, decide] of reviewers) {
    it(`${who}: an answer of the wrong shape is an error, not an allow, and is asked again next time`, async () => {
      assert.deepEqual(await decide('/allowed'), { decision: 'allow' });
      // What the answer leaves out, the decoder takes from the type asked for.
      assert.deepEqual(await decide('/no-kind'), { decision: 'allow' });
      assert.deepEqual(await decide('/bare'), { decision: 'allow' });
      for (const [path, why] of MALFORMED) {
        for (let i = 0; i < 2; i++) {
          const before = asked.filter((p) => p === path).length;
          await assert.rejects(decide(path), { message: why }, path);
          assert.equal(asked.filter((p) => p === path).length, before + 1, `${path}: not cached`);
        }
      }
    });
  }
});
