// The texts of a failed webhook call, for the token webhook and the authorization webhook, in
// client-go's words as upstream's GenericWebhook (rest.Result, NewGenericServerResponse, url.Error,
// the decoder) gives them: one real HTTPS webhook on loopback whose path picks its answer, and per
// row the authenticator's error (what `Unable to authenticate the request err=...` shows) and its
// `Failed to make webhook authenticator request: ...` line, and the authorizer's error (the 500's
// text) and its `Failed to make webhook authorizer request: ...` line.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { authorize } from '../../core/authz/authorize.js';
import { AuthorizationConfigPlugin } from '../../plugins/authorization-config/index.js';
import { createWebhookAuthorizer } from '../../plugins/authz-webhook/index.js';
import { createWebhookTokenAuthenticator } from '../../plugins/authn-webhook-token/index.js';
import { AuthorizationModeFlag, boot, request } from '../auth/support.js';
import { as, resourceAttrs, tempDir, writeKubeconfig, writeTokenFile } from '../authz/support.js';
import { makeCa, makeServingCert } from '../helpers/certs.js';
import { freePort, startInProcess } from '../helpers/plat.js';

interface Reply { readonly code: number; readonly type?: string; readonly body: string }
const json = (code: number, body: unknown): Reply => ({ code, type: 'application/json', body: JSON.stringify(body) });
const failure = (code: number, reason: string, message: string): Reply =>
  json(code, { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason, message, code });

/** The webhook's answer by request path; 'hang' never answers. */
const REPLIES: Record<string, Reply | 'hang'> = {
  '/forbidden-text': { code: 403, type: 'text/plain', body: 'tokens from mars are not accepted\n' },
  '/forbidden-status': failure(403, 'Forbidden', 'plat may not ask this reviewer'),
  '/broken-json': json(500, {}),
  '/broken-text': { code: 500, type: 'text/plain; charset=utf-8', body: 'db down' },
  '/broken-status': failure(500, 'InternalError', 'the review backend exploded'),
  '/bad-gateway': { code: 502, type: 'text/html', body: '<html>bad gateway</html>' },
  '/refusing-status': failure(500, 'Forbidden', 'a 500 that says Forbidden'),
  '/unavailable': json(503, {}),
  '/truncated': { code: 200, type: 'application/json', body: '{"apiVersion":"authentication.k8s.io/v1beta1","kind":' },
  '/empty': { code: 200, type: 'application/json', body: '' },
  '/string-verdict': json(200, { status: { authenticated: 'yes', allowed: 'yes' } }),
  '/status-list': json(200, { status: [] }),
  '/hang': 'hang',
  '/status-failure': json(200, { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Forbidden', message: 'no reviews today', code: 403 }),
  '/status-success': json(200, { kind: 'Status', apiVersion: 'v1', status: 'Success', code: 200 }),
};

const GENERIC_500 = (said: string) => `an error on the server ("${said}") has prevented the request from succeeding`;

let dir: string;
let base: string;
let caPem: string;
let refusedPort: number;
let server: https.Server;
/** Requests per path, to see which failures were retried. */
const calls = new Map<string, number>();

before(async () => {
  dir = tempDir('plat-webhook-call-errors-');
  const ca = makeCa({ commonName: 'webhook-errors-ca' });
  const serving = makeServingCert(ca, ['localhost'], ['127.0.0.1']);
  caPem = ca.certificatePem;
  server = https.createServer({ cert: serving.certificatePem, key: serving.privateKeyPem }, (req, res) => {
    req.resume();
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'https://x').pathname;
      calls.set(path, (calls.get(path) ?? 0) + 1);
      const reply = REPLIES[path];
      if (reply === 'hang') return;
      if (!reply) { res.writeHead(404).end(); return; }
      res.writeHead(reply.code, reply.type ? { 'content-type': reply.type } : {}).end(reply.body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  refusedPort = await freePort();
});
after(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
});

interface Row {
  readonly what: string;
  /** The webhook's URL path, or 'refused' for a port nobody listens on. */
  readonly path: string;
  /** The error's text; `url` is the URL the client posted to (with ?timeout=1s). */
  readonly error: (url: string) => string;
  /** The authorization webhook's text where it differs (its timeout is the REST client's own, its review another type). */
  readonly authzError?: (url: string) => string;
  /** Requests made: DefaultShouldRetry's five steps for what it retries, else one. */
  readonly attempts?: number;
}

const ROWS: readonly Row[] = [
  { what: '403 with a text body: the body\'s words', path: '/forbidden-text', error: () => 'tokens from mars are not accepted' },
  { what: '403 with a Status: its message', path: '/forbidden-status', error: () => 'plat may not ask this reviewer' },
  { what: '500 with a JSON body that is no Status (retried): unknown', path: '/broken-json', error: () => GENERIC_500('unknown'), attempts: 5 },
  { what: '500 with a text body (retried): the body\'s words quoted', path: '/broken-text', error: () => GENERIC_500('db down'), attempts: 5 },
  { what: '500 with a Status (retried): its message', path: '/broken-status', error: () => 'the review backend exploded', attempts: 5 },
  { what: '502 with an HTML page (retried: InternalError to apimachinery): the page quoted', path: '/bad-gateway', error: () => GENERIC_500('<html>bad gateway</html>'), attempts: 5 },
  { what: '500 with a Status whose reason is Forbidden (not retried): its message', path: '/refusing-status', error: () => 'a 500 that says Forbidden', attempts: 1 },
  { what: '503 (not retried): NewGenericServerResponse\'s words', path: '/unavailable', error: () => 'the server is currently unable to handle the request', attempts: 1 },
  {
    what: 'a truncated JSON body: the decoder\'s words', path: '/truncated',
    error: () => 'couldn\'t get version/kind; json parse error: unexpected end of JSON input',
  },
  {
    what: 'a verdict of the wrong type: Go\'s decoder into the typed review', path: '/string-verdict',
    error: () => 'json: cannot unmarshal string into Go struct field TokenReviewStatus.status.authenticated of type bool',
    authzError: () => 'json: cannot unmarshal string into Go struct field SubjectAccessReviewStatus.status.allowed of type bool',
  },
  {
    what: 'a status that is no object: Go\'s decoder into the typed review', path: '/status-list',
    error: () => 'json: cannot unmarshal array into Go struct field TokenReview.status of type v1beta1.TokenReviewStatus',
    authzError: () => 'json: cannot unmarshal array into Go struct field SubjectAccessReview.status of type v1.SubjectAccessReviewStatus',
  },
  {
    // The webhook's codec converts what it decoded into the review, and there is no conversion
    // from a Status: Into never gets to read it as an error, whatever its status.
    what: 'a 200 with a Status (Failure): the converter\'s words, not retried', path: '/status-failure', attempts: 1,
    error: () => 'converting (v1.Status) to (v1beta1.TokenReview): unknown conversion',
    authzError: () => 'converting (v1.Status) to (v1.SubjectAccessReview): unknown conversion',
  },
  {
    what: 'a 200 with a Status (Success): the same', path: '/status-success', attempts: 1,
    error: () => 'converting (v1.Status) to (v1beta1.TokenReview): unknown conversion',
    authzError: () => 'converting (v1.Status) to (v1.SubjectAccessReview): unknown conversion',
  },
  { what: 'an empty 200: Into\'s words', path: '/empty', error: () => '0-length response with status code: 200 and content type: application/json' },
  {
    what: 'no answer in time: Go\'s url.Error for the deadline', path: '/hang',
    error: (url) => `Post "${url}": context deadline exceeded`,
    authzError: (url) => `Post "${url}": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`,
  },
  {
    what: 'a refused connection: Go\'s url.Error for the dial', path: 'refused',
    error: (url) => `Post "${url}": dial tcp 127.0.0.1:${new URL(url).port}: connect: connection refused`,
  },
];

const serverOf = (row: Row) => (row.path === 'refused' ? `https://127.0.0.1:${refusedPort}/refused` : `${base}${row.path}`);
const noSleep = async () => {};
let configs = 0;

describe('a failed token webhook call, in client-go\'s words', () => {
  for (const row of ROWS) {
    it(row.what, async () => {
      const server = serverOf(row);
      const { host, logs } = boot([createWebhookTokenAuthenticator({ sleep: noSleep, timeoutMs: 1000 })],
        ['--authentication-token-webhook-config-file', writeKubeconfig(dir, server, caPem)]);
      const req = request({ headers: { authorization: 'Bearer some-token-0d15ea5e' } });
      const made = calls.get(row.path) ?? 0;
      assert.equal(await host.hooks.authenticate.promise(req), undefined);
      if (row.attempts !== undefined) assert.equal((calls.get(row.path) ?? 0) - made, row.attempts, 'requests made');
      const error = row.error(`${server}?timeout=1s`);
      assert.deepEqual(req.reasons, [error]);
      assert.ok(logs.some((l) => /^E/.test(l) && l.endsWith(`] Failed to make webhook authenticator request: ${error}`)), logs.join('\n'));
    });
  }
});

/** An --authorization-config file with one Webhook entry asking `server`, then `rest`. */
function authorizationConfig(server: string, failurePolicy: 'NoOpinion' | 'Deny', rest: unknown[] = []): string {
  const file = join(dir, `authorization-${configs++}.json`);
  writeFileSync(file, JSON.stringify({
    apiVersion: 'apiserver.platform/v1beta1', kind: 'AuthorizationConfiguration',
    authorizers: [{
      type: 'Webhook', name: 'reviewer',
      webhook: {
        timeout: '1s', subjectAccessReviewVersion: 'v1', matchConditionSubjectAccessReviewVersion: 'v1', failurePolicy,
        connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: writeKubeconfig(dir, server, caPem) },
      },
    }, ...rest],
  }));
  return file;
}

describe('a failed authorization webhook call, in client-go\'s words', () => {
  for (const row of ROWS) {
    it(row.what, async () => {
      const server = serverOf(row);
      const file = authorizationConfig(server, 'NoOpinion');
      const { host, logs } = boot([AuthorizationModeFlag, AuthorizationConfigPlugin, createWebhookAuthorizer({ sleep: noSleep })],
        [`--authorization-config=${file}`]);
      const error = (row.authzError ?? row.error)(`${server}?timeout=1s`);
      // The union has the error when nobody decides: a request's 500 and an access review's evaluationError say it.
      const made = calls.get(row.path) ?? 0;
      await assert.rejects(authorize(host, resourceAttrs({ name: 'alice' })), { name: 'AuthorizationError', message: error });
      if (row.attempts !== undefined) assert.equal((calls.get(row.path) ?? 0) - made, row.attempts, 'requests made');
      assert.ok(logs.some((l) => /^E/.test(l) && l.endsWith(`] Failed to make webhook authorizer request: ${error}`)), logs.join('\n'));
    });
  }
});

describe('a failed authorization webhook call under failurePolicy Deny (plat all over HTTPS)', () => {
  it('is a 500 with the error, though a later authorizer would allow; an access review is denied with it as evaluationError', async () => {
    const server = `${base}/forbidden-status`;
    const plat = await startInProcess({
      args: [`--authorization-config=${authorizationConfig(server, 'Deny', [{ type: 'AlwaysAllow', name: 'alwaysallow' }])}`, `--token-auth-file=${writeTokenFile(dir, { alice: [] })}`],
    });
    try {
      const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';
      const res = await as(plat, 'alice').get(CSRS);
      // upstream: decisionOnError (Deny) with the error ends the union; WithAuthorization answers InternalError.
      assert.equal(res.status, 500, res.text);
      assert.equal(res.text, `Internal Server Error: "${CSRS}": plat may not ask this reviewer\n`);
      const review = await plat.admin.post('/apis/authorization.platform/v1/subjectaccessreviews', {
        apiVersion: 'authorization.platform/v1', kind: 'SubjectAccessReview',
        spec: { user: 'alice', resourceAttributes: { verb: 'list', group: 'certificates.platform', resource: 'certificatesigningrequests' } },
      });
      assert.equal(review.status, 201, review.text);
      assert.deepEqual(review.json.status, { allowed: false, denied: true, evaluationError: 'plat may not ask this reviewer' });
    } finally {
      await plat.stop();
    }
  });
});
