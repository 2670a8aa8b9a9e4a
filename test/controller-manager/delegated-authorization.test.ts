// The endpoint's answers when the SubjectAccessReview says something other than allow: the
// reviewer's reason ends the 403 whether it denied or had no opinion (upstream's webhook
// authorizer passes both on); a review that failed is upstream's plain-text 500. The endpoint's
// app on plain HTTP on loopback, in this process.
import { MetricsRegistry } from '../../core/metrics/registry.js';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Server } from 'node:http';
import type { Attributes } from '../../core/authz/attributes.js';
import { DelegatingAuthenticator } from '../../core/authn/delegating-authenticator.js';
import { silentLogger } from '../../core/log.js';
import { HealthChecks } from '../../core/server/health.js';
import { Configz } from '../../core/server/configz.js';
import { createEndpointApp } from '../../plugins/controller-manager-serving/app.js';
import { DelegatedAuthorizer, SubjectAccessReviewer } from '../../plugins/controller-manager-serving/delegated-authorization.js';
import { freePort } from '../helpers/plat.js';
import { reviewDecision, type ReviewStatus } from '../../core/authz/review-status.js';

/** A reviewer answering every question with the status `answer` gives for its path. */
const reviewer = (answer: (path: string) => Partial<ReviewStatus>) =>
  ({ decide: async (a: Attributes) => reviewDecision({ allowed: false, denied: false, reason: '', evaluationError: '', ...answer(a.path) }) }) as unknown as SubjectAccessReviewer;
const unreachable = { message: 'connect ECONNREFUSED 127.0.0.1:1' };

describe('controller manager endpoint, what a review answers', () => {
  let server: Server;
  let base: string;
  before(async () => {
    const app = createEndpointApp({
      authenticator: new DelegatingAuthenticator({ anonymous: true }),
      authorizer: new DelegatedAuthorizer(['/healthz'], reviewer((path) => {
        if (path === '/unreachable') throw new Error(unreachable.message);
        return path === '/denied' ? { allowed: false, denied: true, reason: 'denied by policy' } : { allowed: false, reason: 'no policy matched' };
      })),
      health: new HealthChecks(), metrics: new MetricsRegistry('1.32'), configz: new Configz(), logger: silentLogger,
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  it('ends the 403 with the reason of a denial and of no opinion alike', async () => {
    for (const [path, reason] of [['/denied', 'denied by policy'], ['/unmatched', 'no policy matched']] as const) {
      const r = await fetch(base + path);
      assert.equal(r.status, 403);
      const body = await r.json() as { message: string };
      assert.equal(body.message, `forbidden: User "system:anonymous" cannot get path "${path}": ${reason}`);
    }
  });

  it('escapes the request in the 403 as HTML-safe text and sets nosniff, as responsewriters.Forbidden', async () => {
    const r = await fetch(`${base}/denied&more`);
    assert.equal(r.status, 403);
    assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
    const body = await r.json() as { message: string };
    assert.equal(body.message, 'forbidden: User "system:anonymous" cannot get path "/denied&amp;more": no policy matched');
  });

  it("answers a review that failed with upstream's plain-text 500, naming the request URI", async () => {
    const r = await fetch(`${base}/unreachable?a=1&b=2`);
    assert.equal(r.status, 500);
    assert.equal(r.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(await r.text(), `Internal Server Error: "/unreachable?a=1&amp;b=2": ${unreachable.message}\n`);
  });
});

describe('controller manager endpoint, an API server that cannot be reached for the review', () => {
  let server: Server;
  let base: string;
  let apiPort: number;
  before(async () => {
    apiPort = await freePort();
    const reviews = new SubjectAccessReviewer({ server: new URL(`https://127.0.0.1:${apiPort}`), insecureSkipTlsVerify: true }, { allowedMs: 0, deniedMs: 0 }, {});
    const app = createEndpointApp({
      authenticator: new DelegatingAuthenticator({ anonymous: true }),
      authorizer: new DelegatedAuthorizer(['/healthz'], reviews),
      health: new HealthChecks(), metrics: new MetricsRegistry('1.32'), configz: new Configz(), logger: silentLogger,
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  it("fails closed with a 500 naming the review's request in Go's url.Error words, as client-go's error reads", async () => {
    const r = await fetch(`${base}/metrics`);
    assert.equal(r.status, 500);
    const text = await r.text();
    assert.match(text, /^Internal Server Error: "\/metrics": Post "https:\/\/127\.0\.0\.1:(\d+)\/apis\/authorization\.platform\/v1\/subjectaccessreviews[^"]*": dial tcp 127\.0\.0\.1:\1: connect: connection refused\n$/, text);
  });
});
