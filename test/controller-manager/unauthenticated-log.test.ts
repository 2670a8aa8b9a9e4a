// What the endpoint logs for a credential it refuses. Upstream's delegating authenticator is a
// union (request-header, x509, bearer token over a TokenReview) failing on error before anonymous:
// a certificate that does not verify and a token the review does not accept are errors of the
// union (bearertoken's `invalid bearer token` when the review gives none of its own), which
// WithAuthentication logs as `Unable to authenticate the request` (E) before its 401. A request
// with no credential is anonymous, or, with anonymous off, plat's own line from -v 2. The app on
// HTTPS on loopback in this process, asking for client certificates.
import assert from 'node:assert/strict';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { DelegatingAuthenticator } from '../../core/authn/delegating-authenticator.js';
import { certificateIdentifier } from '../../core/authn/x509/chain.js';
import { clientCertificates } from '../../core/authn/x509/certificate-cache.js';
import { createLogger } from '../../core/log.js';
import { MetricsRegistry } from '../../core/metrics/registry.js';
import { Configz } from '../../core/server/configz.js';
import { HealthChecks } from '../../core/server/health.js';
import { createEndpointApp } from '../../plugins/controller-manager-serving/app.js';
import { DelegatedAuthorizer, type SubjectAccessReviewer } from '../../plugins/controller-manager-serving/delegated-authorization.js';
import { makeCa, makeClientCert, makeServingCert } from '../helpers/certs.js';

const REVIEW_ERROR = '[invalid bearer token, service account token has been invalidated]';

describe('controller manager endpoint: a refused credential is logged as upstream\'s union error', () => {
  const lines: string[] = [];
  const clientCa = makeCa({ commonName: 'client-ca' });
  const strangerCa = makeCa({ commonName: 'stranger-ca' });
  const stranger = makeClientCert(strangerCa, 'mallory');
  let server: https.Server;
  let port = 0;
  before(async () => {
    const serving = makeServingCert(makeCa(), ['localhost'], ['127.0.0.1']);
    const app = createEndpointApp({
      authenticator: new DelegatingAuthenticator({
        clientCa: clientCa.certificatePem, anonymous: false,
        // The API server's answers: no error of its own for one token, upstream's aggregate for another.
        tokens: { review: async (token) => (token === 'tok-revoked-9b1c4e' ? { authenticated: false, error: REVIEW_ERROR } : { authenticated: false }) },
      }),
      authorizer: new DelegatedAuthorizer(['/healthz'], {} as SubjectAccessReviewer),
      health: new HealthChecks(), metrics: new MetricsRegistry('1.32'), configz: new Configz(),
      logger: createLogger({ write: (l) => lines.push(l), verbosity: 2 }),
    });
    server = https.createServer({ cert: serving.certificatePem, key: serving.privateKeyPem, requestCert: true, rejectUnauthorized: false }, app.callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  const get = (o: { token?: string; cert?: typeof stranger }) => new Promise<number>((resolve, reject) => {
    const req = https.get({
      host: '127.0.0.1', port, path: '/healthz', rejectUnauthorized: false, agent: false,
      ...(o.token ? { headers: { authorization: `Bearer ${o.token}` } } : {}),
      ...(o.cert ? { cert: o.cert.certificatePem, key: o.cert.privateKeyPem } : {}),
    }, (res) => { res.resume(); resolve(res.statusCode ?? 0); });
    req.once('error', reject);
  });
  const errorLine = (err: string) => lines.some((l) => /^E/.test(l) && l.endsWith(`] Unable to authenticate the request err=${JSON.stringify(err)}`));

  const cases: { name: string; request: { token?: string; cert?: typeof stranger }; err: () => string }[] = [
    { name: 'a token the review does not accept, without an error of its own', request: { token: 'tok-unknown-5f3a7d' }, err: () => 'invalid bearer token' },
    { name: 'a token the review refuses with its own error', request: { token: 'tok-revoked-9b1c4e' }, err: () => REVIEW_ERROR },
    {
      name: 'a client certificate from another CA', request: { cert: stranger },
      err: () => `verifying certificate ${certificateIdentifier(clientCertificates.parse(Buffer.from(stranger.der)))} failed: x509: certificate signed by unknown authority`,
    },
    {
      name: 'both: the union\'s errors in its order', request: { cert: stranger, token: 'tok-unknown-5f3a7d' },
      err: () => `[verifying certificate ${certificateIdentifier(clientCertificates.parse(Buffer.from(stranger.der)))} failed: x509: certificate signed by unknown authority, invalid bearer token]`,
    },
  ];
  for (const c of cases) {
    it(`${c.name}: 401 and the error line`, async () => {
      lines.length = 0;
      assert.equal(await get(c.request), 401);
      assert.ok(errorLine(c.err()), lines.join('\n'));
      assert.ok(!lines.some((l) => l.includes('request not authenticated')), 'one line per refusal, upstream\'s');
      assert.ok(!lines.some((l) => c.request.token !== undefined && l.includes(c.request.token)), 'the token is never logged');
    });
  }

  it('no credential at all: 401 (anonymous is off) and no error line', async () => {
    lines.length = 0;
    assert.equal(await get({}), 401);
    assert.ok(!lines.some((l) => l.includes('Unable to authenticate the request')), lines.join('\n'));
    assert.ok(lines.some((l) => l.includes('request not authenticated') && l.includes('no credentials and anonymous access is off')), lines.join('\n'));
  });
});
