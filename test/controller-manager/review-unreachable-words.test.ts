// The endpoint's words when the API server that reviews its tokens and requests cannot be reached
// (a port nobody listens on): as upstream's delegating authenticator and authorizer over
// client-go, the token review's failure is logged by the webhook (`Failed to make webhook
// authenticator request: Post "<url>": dial tcp <host:port>: connect: connection refused`) and
// by WithAuthentication (`Unable to authenticate the request`) and the client gets 401; the
// SubjectAccessReview's (its client's 10s timeout in the URL) by the webhook authorizer, and the
// client gets responsewriters.InternalError's plain-text 500 with the same text.
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { DelegatingAuthenticator } from '../../core/authn/delegating-authenticator.js';
import { TokenReviewer } from '../../core/authn/token-review-client.js';
import { RestClient } from '../../core/client/rest-client.js';
import { createLogger } from '../../core/log.js';
import { MetricsRegistry } from '../../core/metrics/registry.js';
import { Configz } from '../../core/server/configz.js';
import { HealthChecks } from '../../core/server/health.js';
import { createEndpointApp } from '../../plugins/controller-manager-serving/app.js';
import { DelegatedAuthorizer, SubjectAccessReviewer } from '../../plugins/controller-manager-serving/delegated-authorization.js';
import { freePort } from '../helpers/plat.js';

describe('controller manager endpoint, API server unreachable: what it logs and answers', () => {
  const lines: string[] = [];
  let server: Server;
  let base = '';
  let api = '';
  let tokenClient: RestClient;
  let reviews: SubjectAccessReviewer;
  before(async () => {
    const port = await freePort();
    api = `127.0.0.1:${port}`;
    const logger = createLogger({ write: (l) => lines.push(l) });
    const connection = { server: new URL(`https://${api}`) };
    tokenClient = new RestClient(connection);
    reviews = new SubjectAccessReviewer(connection, { allowedMs: 10_000, deniedMs: 10_000 }, { userAgent: 'test' }, logger);
    const app = createEndpointApp({
      authenticator: new DelegatingAuthenticator({ tokens: new TokenReviewer(() => tokenClient, 10_000, Date.now, logger), anonymous: true }),
      authorizer: new DelegatedAuthorizer(['/healthz'], reviews),
      health: new HealthChecks(), metrics: new MetricsRegistry('1.32'), configz: new Configz(), logger,
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    tokenClient.close();
    reviews.close();
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('a bearer token: 401, and the token review failure logged in client-go\'s words', async () => {
    lines.length = 0;
    const r = await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer unreachable-review-token' } });
    assert.equal(r.status, 401);
    const refused = `Post "https://${api}/apis/authentication.platform/v1/tokenreviews": dial tcp ${api}: connect: connection refused`;
    assert.ok(lines.some((l) => /^E/.test(l) && l.endsWith(`] Failed to make webhook authenticator request: ${refused}`)), lines.join('\n'));
    assert.ok(lines.some((l) => /^E/.test(l) && l.endsWith(`] Unable to authenticate the request err=${JSON.stringify(refused)}`)), lines.join('\n'));
    assert.ok(!lines.some((l) => l.includes('unreachable-review-token')), 'the token is never logged');
  });

  it('a path to authorize: the plain-text 500 and the log carry the SubjectAccessReview failure', async () => {
    lines.length = 0;
    const r = await fetch(`${base}/configz`);
    assert.equal(r.status, 500);
    const refused = `Post "https://${api}/apis/authorization.platform/v1/subjectaccessreviews?timeout=10s": dial tcp ${api}: connect: connection refused`;
    assert.equal(await r.text(), `Internal Server Error: "/configz": ${refused}\n`);
    assert.ok(lines.some((l) => /^E/.test(l) && l.endsWith(`] Failed to make webhook authorizer request: ${refused}`)), lines.join('\n'));
    assert.ok(lines.some((l) => /^E/.test(l) && l.endsWith(`] Unhandled Error err=${JSON.stringify(refused)}`)), lines.join('\n'));
  });
});
