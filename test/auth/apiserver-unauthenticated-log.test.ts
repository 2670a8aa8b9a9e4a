// What the API server logs for a credential it refuses, over real HTTPS to plat all with every
// kind of authenticator on. Upstream's authenticator is a union (request-header, x509, bearertoken
// over the union of the token authenticators), failing on error before anonymous; WithAuthentication
// logs its error as `Unable to authenticate the request` (E) before the 401. An authenticator that
// does not recognise a credential returns no error (the token file, bootstrap tokens, a token
// review without status.error): bearertoken then says `invalid bearer token`, once. The errors of
// several authenticators are one aggregate, in the union's order. The credential itself is never
// logged. A request with no credential is no error: plat's own line, from -v 2.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { certificateIdentifier } from '../../core/authn/x509/chain.js';
import { clientCertificates } from '../../core/authn/x509/certificate-cache.js';
import { createLogger } from '../../core/log.js';
import { rejectToken, type Plugin } from '../../core/plugin-api.js';
import { CRYPTO_FAILURE } from '../../plugins/serviceaccounts/token-authenticator.js';
import { makeCa, makeClientCert } from '../helpers/certs.js';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { startReviewServer, type ReviewServer } from '../helpers/review-server.js';

const SA_ISSUER = 'https://platform.default.svc.cluster.local';
const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
/** A service-account token of plat's issuer whose signature no key of it verifies. */
const forgedJwt = (sub: string) => `${b64({ alg: 'ES256', typ: 'JWT' })}.${b64({ iss: SA_ISSUER, sub, aud: [SA_ISSUER], exp: 4102444800 })}.${'Zm9yZ2Vk'.repeat(10)}`;

const TOKENS = {
  unknown: 'tok-unknown-7c1e93d5',
  bootstrap: 'q7m2xk.vh3p9wz1cr5t8ny4',
  reviewError: 'tok-revoked-2a8f6b',
  forged: forgedJwt('system:serviceaccount:default:robot'),
  forgedAndRevoked: forgedJwt('system:serviceaccount:default:robot2'),
};
const REVIEW_ERROR = 'token revoked by the reviewer';

/** A third-party token authenticator, as the README shows: rejectToken for its own tokens' errors, reject for the others'. */
const thirdParty: Plugin = {
  name: 'ThirdPartyTokens',
  apply(host) {
    host.hooks.authenticate.tap('ThirdPartyTokens', (req) => {
      const token = /^Bearer (\S+)$/.exec(String(req.headers['authorization'] ?? ''))?.[1];
      if (token === 'tok-3p-token-error') rejectToken(req, 'third-party token expired');
      if (token === 'tok-3p-plain-error') req.reject('third-party token expired');
      return undefined;
    });
  },
};

describe('API server: a refused credential is logged as upstream\'s union error', () => {
  const lines: string[] = [];
  const dir = tempDir('plat-authn-log-');
  const stranger = makeClientCert(makeCa({ commonName: 'stranger-ca' }), 'mallory');
  const strangerId = () => certificateIdentifier(clientCertificates.parse(Buffer.from(stranger.der)));
  const unknownAuthority = 'x509: certificate signed by unknown authority';
  let plat: RunningPlat;
  let reviewer: ReviewServer;

  before(async () => {
    // The webhook: its own error for two tokens, a refusal without one for every other.
    reviewer = await startReviewServer((r) => ({
      apiVersion: r.apiVersion, kind: 'TokenReview',
      status: [TOKENS.reviewError, TOKENS.forgedAndRevoked].includes(r.spec?.token) ? { authenticated: false, error: REVIEW_ERROR } : { authenticated: false },
    }));
    const webhookConfig = path.join(dir, 'webhook.yaml');
    writeFileSync(webhookConfig, [
      'apiVersion: v1', 'kind: Config',
      'clusters:', '- name: reviewer', '  cluster:', `    server: ${reviewer.connection.server.href}`,
      `    certificate-authority-data: ${Buffer.from(reviewer.connection.ca!).toString('base64')}`,
      'users:', '- name: plat', '  user: {}',
      'contexts:', '- name: webhook', '  context: {cluster: reviewer, user: plat}', 'current-context: webhook', '',
    ].join('\n'));
    const tokenFile = path.join(dir, 'tokens.csv');
    writeFileSync(tokenFile, 'tok-known-0d94b2,alice,alice-uid\n');
    const frontProxyCa = path.join(dir, 'front-proxy-ca.crt');
    writeFileSync(frontProxyCa, makeCa({ commonName: 'front-proxy-ca' }).certificatePem);
    plat = await startInProcess({
      args: [
        '-v=2', '--anonymous-auth=false', '--token-auth-file', tokenFile, '--enable-bootstrap-token-auth',
        '--authentication-token-webhook-config-file', webhookConfig,
        '--requestheader-client-ca-file', frontProxyCa, '--requestheader-username-headers', 'X-Remote-User',
      ],
      logger: createLogger({ verbosity: 2, write: (l) => lines.push(l) }),
      plugins: [thirdParty],
    });
  });
  after(async () => { await plat?.stop(); await reviewer?.close(); });

  const cases: { name: string; cert?: typeof stranger; token?: string; err: () => string }[] = [
    { name: 'a token no authenticator recognises (token file, bootstrap, webhook without an error)', token: TOKENS.unknown, err: () => 'invalid bearer token' },
    { name: 'a bootstrap token without its secret', token: TOKENS.bootstrap, err: () => 'invalid bearer token' },
    { name: 'a token the webhook refuses with status.error', token: TOKENS.reviewError, err: () => REVIEW_ERROR },
    { name: 'a service-account token whose signature does not verify', token: TOKENS.forged, err: () => CRYPTO_FAILURE },
    { name: 'two token authenticators\' errors, in their order', token: TOKENS.forgedAndRevoked, err: () => `[${CRYPTO_FAILURE}, ${REVIEW_ERROR}]` },
    {
      name: 'a client certificate of neither CA: the request-header verifier\'s error, then x509\'s', cert: stranger,
      err: () => `[${unknownAuthority}, verifying certificate ${strangerId()} failed: ${unknownAuthority}]`,
    },
    {
      name: 'that certificate and an unknown token', cert: stranger, token: TOKENS.unknown,
      err: () => `[${unknownAuthority}, verifying certificate ${strangerId()} failed: ${unknownAuthority}, invalid bearer token]`,
    },
    { name: 'a third-party token authenticator\'s rejectToken: its error stands for the token\'s', token: 'tok-3p-token-error', err: () => 'third-party token expired' },
    { name: 'a third-party authenticator\'s plain reject: an error of its own, then the token\'s', token: 'tok-3p-plain-error', err: () => '[third-party token expired, invalid bearer token]' },
  ];
  for (const c of cases) {
    it(`${c.name}: 401 Unauthorized and the error line`, async () => {
      const mark = lines.length;
      const r = await plat.admin.with({ ...(c.cert ? { cert: c.cert.certificatePem, key: c.cert.privateKeyPem } : {}), ...(c.token ? { token: c.token } : {}) }).get('/version');
      assert.equal(r.status, 401, r.text);
      assert.equal(r.json.message, 'Unauthorized');
      const logged = lines.slice(mark).filter((l) => l.includes('authenticate'));
      assert.deepEqual(logged.map((l) => l.replace(/^E\d{4} [\d:.]+ /, 'E ')), [`E plat/apiserver] Unable to authenticate the request err=${JSON.stringify(c.err())}`], lines.slice(mark).join('\n'));
      assert.ok(!lines.some((l) => l.includes('request not authenticated')), 'no line of plat\'s besides upstream\'s');
    });
  }

  it('a credential refused before, then a later authenticator\'s success: nothing logged', async () => {
    const mark = lines.length;
    // The admin's certificate fails the request-header verifier (another CA) and x509 accepts it.
    assert.equal((await plat.admin.get('/version')).status, 200);
    assert.equal((await plat.admin.with({ token: 'tok-known-0d94b2' }).get('/version')).status, 200);
    assert.deepEqual(lines.slice(mark).filter((l) => l.includes('authenticate')), []);
  });

  it('no credential at all: no error line, plat\'s own line at -v 2', async () => {
    const mark = lines.length;
    assert.equal((await plat.admin.with({ anonymous: true }).get('/version')).status, 401);
    const logged = lines.slice(mark);
    assert.ok(!logged.some((l) => l.includes('Unable to authenticate the request')), logged.join('\n'));
    assert.ok(logged.some((l) => l.includes('request not authenticated') && l.includes('no credentials and anonymous access is off')), logged.join('\n'));
  });

  it('never logs a token', () => {
    for (const t of [...Object.values(TOKENS), 'tok-known-0d94b2']) {
      assert.ok(!lines.some((l) => l.includes(t)), `a line carries ${t}`);
      const sig = t.split('.')[2];
      if (sig) assert.ok(!lines.some((l) => l.includes(sig)), 'a signature was logged');
    }
  });
});
