// WebhookTokenAuthenticator against a real HTTPS token-review webhook on loopback (CA and serving
// certificate made through the crypto facade): end to end through `plat all` in-process, and at
// the hook level with an injected clock and retry sleep.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../core/log.js';
import { StartupError } from '../../core/plugin.js';
import { AnonymousAuthenticator } from '../../plugins/authn-anonymous/index.js';
import { TokenFileAuthenticator } from '../../plugins/authn-token-file/index.js';
import {
  KubeconfigError, ReviewCache, WebhookTokenAuthenticator, createWebhookTokenAuthenticator, isLoopbackHost, loadKubeconfig,
} from '../../plugins/authn-webhook-token/index.js';
import { baseCsr, fixtures } from '../certificates/fixtures.js';
import { makeCa, makeClientCert, makeServingCert } from '../helpers/certs.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { boot, request } from './support.js';

const WEBHOOK_CREDENTIAL = 'plat-to-webhook-secret';
/** plat all's --api-audiences default: its service-account issuer. */
const API_AUDIENCE = 'https://platform.default.svc.cluster.local';
const GOOD = 'good-token-5f1c9a';
const GOOD_USER = {
  username: 'webhook-user', uid: 'wh-uid-1', groups: ['wh-group', 'team:x'], extra: { 'example.com/scopes': ['read', 'write'] },
};
const TOKENS_THAT_MUST_NOT_BE_LOGGED: string[] = [];
const token = (name: string): string => {
  const t = `${name}-${TOKENS_THAT_MUST_NOT_BE_LOGGED.length}-f00dfeed`;
  TOKENS_THAT_MUST_NOT_BE_LOGGED.push(t);
  return t;
};
TOKENS_THAT_MUST_NOT_BE_LOGGED.push(GOOD);

interface Call { readonly apiVersion: string; readonly token: string; readonly audiences?: string[] }
type Behaviour = (apiVersion: string, tok: string, audiences?: string[]) => { status?: number; body: unknown } | 'hang';

/** A token-review webhook: checks the request's shape, answers by token prefix. */
class Webhook {
  readonly calls: Call[] = [];
  /** The request URL's path and query, per request. */
  readonly paths: string[] = [];
  readonly shapeErrors: string[] = [];
  readonly behaviours = new Map<string, Behaviour>();
  server!: https.Server;
  url!: string;

  async start(tls: { cert: string; key: string }): Promise<void> {
    this.server = https.createServer(tls, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.paths.push(req.url ?? '');
        const reply = (status: number, body: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(typeof body === 'string' ? body : JSON.stringify(body));
        };
        if (req.headers.authorization !== `Bearer ${WEBHOOK_CREDENTIAL}`) return reply(401, { error: 'who are you' });
        let review: any;
        try { review = JSON.parse(Buffer.concat(chunks).toString('utf8')); } catch { review = undefined; }
        const shape = req.method !== 'POST' ? 'method'
          : req.headers['content-type'] !== 'application/json' ? 'content-type'
          : !review || Object.keys(review).sort().join() !== 'apiVersion,kind,spec' ? 'top-level keys'
          : review.kind !== 'TokenReview' ? 'kind'
          : !['authentication.k8s.io/v1', 'authentication.k8s.io/v1beta1'].includes(review.apiVersion) ? 'apiVersion'
          : !['token', 'audiences,token'].includes(Object.keys(review.spec ?? {}).sort().join()) || typeof review.spec.token !== 'string' ? 'spec'
          : review.spec.audiences !== undefined && !(Array.isArray(review.spec.audiences) && review.spec.audiences.length > 0) ? 'spec.audiences' : undefined;
        if (shape) { this.shapeErrors.push(shape); return reply(400, { error: shape }); }
        const tok: string = review.spec.token;
        const audiences: string[] | undefined = review.spec.audiences;
        this.calls.push({ apiVersion: review.apiVersion, token: tok, ...(audiences ? { audiences } : {}) });
        const prefix = [...this.behaviours.keys()].find((p) => tok.startsWith(p));
        const answer = prefix === undefined
          ? { body: { apiVersion: review.apiVersion, kind: 'TokenReview', status: { authenticated: false } } }
          : this.behaviours.get(prefix)!(review.apiVersion, tok, audiences);
        if (answer === 'hang') return; // never answers
        reply(answer.status ?? 200, answer.body);
      });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', () => r()));
    this.url = `https://127.0.0.1:${(this.server.address() as AddressInfo).port}/authenticate`;
  }

  callsFor(tok: string): number { return this.calls.filter((c) => c.token === tok).length; }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}

const review = (apiVersion: string, status: unknown) => ({ body: { apiVersion, kind: 'TokenReview', status } });

let dir: string;
let caPem: string;
let servingTls: { cert: string; key: string };
let n = 0;

function kubeconfig(server: string, extra: { user?: string; cluster?: string } = {}): string {
  const path = join(dir, `webhook-${n++}.yaml`);
  writeFileSync(path, [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: token-reviewer',
    '  cluster:',
    `    server: ${server}`,
    extra.cluster ?? '    certificate-authority: webhook-ca.crt',
    'users:',
    '- name: plat',
    '  user:',
    extra.user ?? `    token: ${WEBHOOK_CREDENTIAL}`,
    'contexts:',
    '- name: webhook',
    '  context: {cluster: token-reviewer, user: plat}',
    'current-context: webhook',
    '',
  ].join('\n'));
  return path;
}

const webhook = new Webhook();

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'plat-webhook-token-'));
  const ca = makeCa({ commonName: 'webhook-ca' });
  const serving = makeServingCert(ca, ['localhost'], ['127.0.0.1']);
  caPem = ca.certificatePem;
  servingTls = { cert: serving.certificatePem, key: serving.privateKeyPem };
  // Relative to the kubeconfig's directory.
  writeFileSync(join(dir, 'webhook-ca.crt'), caPem);
  webhook.behaviours.set(GOOD, (v) => review(v, { authenticated: true, user: GOOD_USER }));
  webhook.behaviours.set('audaware-', (v) => review(v, { authenticated: true, user: GOOD_USER, audiences: ['webhook-api', 'third-api'] }));
  webhook.behaviours.set('denied-', (v) => review(v, { authenticated: false, error: 'token expired' }));
  webhook.behaviours.set('refused-', (v) => review(v, { authenticated: false }));
  webhook.behaviours.set('echo-', (v, t) => review(v, { authenticated: false, error: `unknown token ${t}` }));
  webhook.behaviours.set('malformed-', () => ({ body: '{"kind":"TokenReview","status":{"authenticated":tru' }));
  webhook.behaviours.set('wrongversion-', () => review('authentication.platform/v1', { authenticated: true, user: GOOD_USER }));
  webhook.behaviours.set('noname-', (v) => review(v, { authenticated: true, user: { groups: ['x'] } }));
  webhook.behaviours.set('forbidden-', () => ({ status: 403, body: { kind: 'Status' } }));
  webhook.behaviours.set('hang-', () => 'hang');
  await webhook.start(servingTls);
});
after(async () => {
  await webhook.stop();
  rmSync(dir, { recursive: true, force: true });
});

const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';

describe('WebhookTokenAuthenticator end to end (plat all, HTTPS webhook)', () => {
  let plat: RunningPlat;
  const logs: string[] = [];
  const fx = fixtures();

  before(async () => {
    const logger = createLogger({ verbosity: 10, write: (l) => logs.push(l) });
    plat = await startInProcess({ args: ['--authentication-token-webhook-config-file', kubeconfig(webhook.url)], logger });
  });
  after(async () => { await plat.stop(); });

  async function assertUnauthorized(tok: string, name: string): Promise<void> {
    const res = await plat.admin.with({ token: tok }).post(CSRS, baseCsr(fx, name));
    assert.equal(res.status, 401, res.text);
    assert.equal(res.json?.kind, 'Status');
    assert.equal(res.json?.code, 401);
    assert.equal((await plat.admin.get(`${CSRS}/${name}`)).status, 404, 'nothing stored');
  }

  it('creates a CSR carrying the user the webhook returned (v1beta1 by default)', async () => {
    const before = webhook.calls.length;
    const res = await plat.admin.with({ token: GOOD }).post(CSRS, baseCsr(fx, 'from-webhook'));
    assert.equal(res.status, 201, res.text);
    assert.equal(res.json.spec.username, 'webhook-user');
    assert.equal(res.json.spec.uid, 'wh-uid-1');
    assert.deepEqual(res.json.spec.groups, ['wh-group', 'team:x', 'system:authenticated']);
    assert.deepEqual(res.json.spec.extra, { 'example.com/scopes': ['read', 'write'] });
    // The API audiences (plat all's default: the service-account issuer), as upstream's filter puts them in the context.
    assert.deepEqual(webhook.calls.slice(before), [{ apiVersion: 'authentication.k8s.io/v1beta1', token: GOOD, audiences: [API_AUDIENCE] }]);
    assert.deepEqual(webhook.shapeErrors, []);
  });

  it('does not ask the webhook again for a token it answered within the TTL', async () => {
    const calls = webhook.callsFor(GOOD);
    assert.equal((await plat.admin.with({ token: GOOD }).get(CSRS)).status, 200);
    assert.equal((await plat.admin.with({ token: GOOD }).get(CSRS)).status, 200);
    assert.equal(webhook.callsFor(GOOD), calls);
    const refused = token('refused');
    await assertUnauthorized(refused, 'refused-cached-1');
    await assertUnauthorized(refused, 'refused-cached-2');
    assert.equal(webhook.callsFor(refused), 1, 'a negative answer is cached too');
    // webhook.go makes status.error an error, and the token cache keeps no errors (cacheErrs false):
    // a webhook that says why (its backend is down, say) is asked again.
    const denied = token('denied');
    await assertUnauthorized(denied, 'denied-not-cached-1');
    await assertUnauthorized(denied, 'denied-not-cached-2');
    assert.equal(webhook.callsFor(denied), 2, 'a refusal with status.error is not cached');
  });

  it('answers 401 and stores nothing for a token the webhook rejects', async () => {
    await assertUnauthorized(token('denied'), 'denied');
    await assertUnauthorized(token('echo'), 'echoed');
  });

  it('answers 401 for malformed or unusable webhook responses', async () => {
    await assertUnauthorized(token('malformed'), 'malformed');
    await assertUnauthorized(token('wrongversion'), 'wrong-version');
    await assertUnauthorized(token('noname'), 'no-name');
    await assertUnauthorized(token('forbidden'), 'webhook-403');
  });

  // Upstream's webhook authenticator is audience-aware: spec.audiences out, status.audiences back
  // (none: the API audiences); a token good for none of the wanted ones is not authenticated.
  it('sends a TokenReview\'s audiences to the webhook and reports those it answered', async () => {
    const review = async (tok: string, audiences?: string[]) => {
      const r = await plat.admin.post('/apis/authentication.platform/v1/tokenreviews', {
        apiVersion: 'authentication.platform/v1', kind: 'TokenReview', spec: { token: tok, ...(audiences ? { audiences } : {}) },
      });
      assert.equal(r.status, 201, r.text);
      return r.json.status;
    };
    const good = await review(GOOD);
    assert.equal(good.authenticated, true);
    assert.deepEqual(good.audiences, [API_AUDIENCE]);
    const foreign = await review(GOOD, ['somebody-else']);
    assert.deepEqual(foreign, { authenticated: false, error: 'invalid bearer token' });
    assert.deepEqual(webhook.calls.at(-1), { apiVersion: 'authentication.k8s.io/v1beta1', token: GOOD, audiences: ['somebody-else'] });

    const aware = token('audaware');
    const named = await review(aware, ['other-api', 'webhook-api']);
    assert.equal(named.authenticated, true);
    assert.deepEqual(named.audiences, ['webhook-api']);
    assert.deepEqual(webhook.calls.at(-1)?.audiences, ['other-api', 'webhook-api']);
    assert.equal((await review(aware)).authenticated, false, 'not good for the API audiences');
    await assertUnauthorized(aware, 'audience-aware-webhook');
  });

  it('never asks the webhook about requests without a bearer token', async () => {
    const calls = webhook.calls.length;
    assert.equal((await plat.admin.get(CSRS)).status, 200);
    assert.equal(webhook.calls.length, calls);
  });

  // Last: stops the shared webhook.
  it('keeps serving when the webhook is down: token requests get 401, client certificates still work', async () => {
    await webhook.stop();
    await assertUnauthorized(token('fresh'), 'webhook-down');
    assert.equal((await plat.admin.get(CSRS)).status, 200);
    assert.equal((await plat.admin.with({ token: GOOD }).get(CSRS)).status, 200, 'a cached verdict still stands');
    await webhook.start(servingTls);
  });

  it('never writes a token to the log', () => {
    assert.ok(logs.some((l) => l.startsWith('E') && l.includes('Failed to make webhook authenticator request: ')), 'failures are logged');
    for (const t of TOKENS_THAT_MUST_NOT_BE_LOGGED) assert.ok(!logs.some((l) => l.includes(t)), `log mentions ${t}`);
    assert.ok(!logs.some((l) => l.includes(WEBHOOK_CREDENTIAL)));
  });
});

describe('WebhookTokenAuthenticator with --authentication-token-webhook-version v1 and a short TTL', () => {
  let plat: RunningPlat;
  after(async () => { await plat?.stop(); });

  it('sends authentication.k8s.io/v1 and asks again once the TTL has passed', async () => {
    plat = await startInProcess({
      args: [
        // A query in the kubeconfig's server is not sent: client-go builds it from the request's parameters.
        '--authentication-token-webhook-config-file', kubeconfig(`${webhook.url}?tenant=a`),
        '--authentication-token-webhook-version', 'v1',
        '--authentication-token-webhook-cache-ttl', '50ms',
      ],
    });
    const client = plat.admin.with({ token: GOOD });
    const before = webhook.callsFor(GOOD);
    assert.equal((await client.get(CSRS)).status, 200);
    assert.equal(webhook.calls.at(-1)?.apiVersion, 'authentication.k8s.io/v1');
    // NewGenericWebhook's 30s client timeout, which client-go's Request.URL sends as `timeout`.
    assert.equal(webhook.paths.at(-1), '/authenticate?timeout=30s');
    // Bounded poll: the entry expires after 50ms of wall time; no fixed sleep.
    const deadline = Date.now() + 10_000;
    while (webhook.callsFor(GOOD) < before + 2) {
      assert.ok(Date.now() < deadline, 'the webhook was not asked again after the TTL');
      assert.equal((await client.get(CSRS)).status, 200);
    }
  });
});

describe('WebhookTokenAuthenticator at the hook level', () => {
  const allLogs: string[] = [];
  after(() => {
    for (const t of TOKENS_THAT_MUST_NOT_BE_LOGGED) assert.ok(!allLogs.some((l) => l.includes(t)), `log mentions ${t}`);
  });
  const bootWith = (deps: Parameters<typeof createWebhookTokenAuthenticator>[0], args: string[] = []) =>
    boot([createWebhookTokenAuthenticator(deps), AnonymousAuthenticator],
      ['--authentication-token-webhook-config-file', kubeconfig(webhook.url), ...args]);
  const auth = async (host: ReturnType<typeof boot>['host'], tok: string) => {
    const req = request({ headers: { authorization: `Bearer ${tok}` } });
    const user = await host.hooks.authenticate.promise(req);
    return { user, reasons: req.reasons };
  };

  it('declares the three flags with the spec defaults and taps nothing without a config file', () => {
    const { host, flags } = boot([WebhookTokenAuthenticator]);
    const spec = (name: string) => flags.specs().find((s) => s.name === name);
    assert.equal(spec('authentication-token-webhook-config-file')?.section, 'Authentication options');
    assert.equal(flags.get('authentication-token-webhook-cache-ttl'), 120_000);
    assert.equal(flags.get('authentication-token-webhook-version'), 'v1beta1');
    assert.equal(host.hooks.authenticate.taps.length, 0);
  });

  it('caches answers for the TTL by the injected clock, and errors not at all', async () => {
    let now = 1_000_000;
    const { host, logs } = bootWith({ now: () => now }, ['--authentication-token-webhook-cache-ttl', '2m']);
    const denied = token('refused');
    const good0 = webhook.callsFor(GOOD);
    assert.equal((await auth(host, GOOD)).user?.name, 'webhook-user');
    assert.deepEqual((await auth(host, denied)).reasons, ['invalid bearer token']);
    now += 119_999;
    assert.equal((await auth(host, GOOD)).user?.name, 'webhook-user');
    assert.equal((await auth(host, denied)).user, undefined);
    assert.equal(webhook.callsFor(GOOD), good0 + 1);
    assert.equal(webhook.callsFor(denied), 1);
    now += 1;
    await auth(host, GOOD);
    await auth(host, denied);
    assert.equal(webhook.callsFor(GOOD), good0 + 2);
    assert.equal(webhook.callsFor(denied), 2);
    const expired = token('denied');
    assert.deepEqual((await auth(host, expired)).reasons, ['token expired']);
    assert.deepEqual((await auth(host, expired)).reasons, ['token expired']);
    assert.equal(webhook.callsFor(expired), 2, 'a refusal with status.error is not cached');
    const forbidden = token('forbidden');
    // NewGenericServerResponse keeps a 403's own words, and a body that is not text has none: `unknown`.
    assert.deepEqual((await auth(host, forbidden)).reasons, ['unknown']);
    await auth(host, forbidden);
    assert.equal(webhook.callsFor(forbidden), 2, 'failures are not cached');
    allLogs.push(...logs);
  });

  it('shares one webhook call among concurrent requests with the same token', async () => {
    const { host, logs } = bootWith({});
    const tok = token('denied');
    await Promise.all([auth(host, tok), auth(host, tok), auth(host, tok)]);
    assert.equal(webhook.callsFor(tok), 1);
    allLogs.push(...logs);
  });

  it('redacts the token if the webhook echoes it in status.error', async () => {
    const { host, logs } = bootWith({});
    const tok = token('echo');
    assert.deepEqual((await auth(host, tok)).reasons, ['unknown token <token>']);
    allLogs.push(...logs);
  });

  it('retries transient failures with backoff (injected sleep), then gives up', async () => {
    let failures = 2;
    webhook.behaviours.set('flaky-', (v) => (failures-- > 0 ? { status: 500, body: {} } : review(v, { authenticated: true, user: { username: 'flaky' } })));
    webhook.behaviours.set('down-', () => ({ status: 503, body: {} }));
    webhook.behaviours.set('busy-', () => ({ status: 429, body: {} }));
    const sleeps: number[] = [];
    const { host, logs } = bootWith({ sleep: async (ms) => { sleeps.push(ms); } });
    const flaky = token('flaky');
    assert.equal((await auth(host, flaky)).user?.name, 'flaky');
    assert.equal(webhook.callsFor(flaky), 3);
    assert.equal(sleeps.length, 2);
    assert.ok(sleeps[0]! >= 500 && sleeps[0]! <= 600 && sleeps[1]! >= 750 && sleeps[1]! <= 900, String(sleeps));

    const busy = token('busy');
    sleeps.length = 0;
    assert.deepEqual((await auth(host, busy)).reasons, ['the server has received too many requests and has asked us to try again later']);
    assert.equal(webhook.callsFor(busy), 5, 'five steps');
    assert.equal(sleeps.length, 4);

    const down = token('down');
    assert.deepEqual((await auth(host, down)).reasons, ['the server is currently unable to handle the request']);
    assert.equal(webhook.callsFor(down), 1, '503 without Retry-After is not retried (upstream DefaultShouldRetry)');
    allLogs.push(...logs);
  });

  it('gives up after the request timeout', async () => {
    const { host, logs } = bootWith({ timeoutMs: 150 });
    const { user, reasons } = await auth(host, token('hang'));
    assert.equal(user, undefined, 'not anonymous: the request is rejected');
    assert.deepEqual(reasons, [`Post "${webhook.url}?timeout=150ms": context deadline exceeded`]);
    allLogs.push(...logs);
  });

  it('asks the static token file first; its tokens never reach the webhook', async () => {
    const file = join(dir, 'tokens.csv');
    writeFileSync(file, 'static-token-abc,static-user,uid-s\n');
    TOKENS_THAT_MUST_NOT_BE_LOGGED.push('static-token-abc');
    const b = boot([TokenFileAuthenticator, createWebhookTokenAuthenticator(), AnonymousAuthenticator],
      ['--token-auth-file', file, '--authentication-token-webhook-config-file', kubeconfig(webhook.url)]);
    const calls = webhook.calls.length;
    assert.equal((await auth(b.host, 'static-token-abc')).user?.name, 'static-user');
    assert.equal(webhook.calls.length, calls);
    // A token the file does not know is still the webhook's to accept.
    assert.equal((await auth(b.host, GOOD)).user?.name, 'webhook-user');
    allLogs.push(...b.logs);
  });

  it('presents the kubeconfig user\'s client certificate (relative paths) to a webhook that requires one', async () => {
    const clientCa = makeCa({ commonName: 'webhook-client-ca' });
    const cred = makeClientCert(clientCa, 'plat-apiserver');
    writeFileSync(join(dir, 'client.crt'), cred.certificatePem);
    writeFileSync(join(dir, 'client.key'), cred.privateKeyPem);
    const peers: string[] = [];
    const mtls = https.createServer({ ...servingTls, ca: clientCa.certificatePem, requestCert: true, rejectUnauthorized: true }, (req, res) => {
      peers.push(String((req.socket as import('node:tls').TLSSocket).getPeerCertificate().subject.CN));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ apiVersion: 'authentication.k8s.io/v1beta1', kind: 'TokenReview', status: { authenticated: true, user: { username: 'via-mtls' } } }));
    });
    await new Promise<void>((r) => mtls.listen(0, '127.0.0.1', () => r()));
    try {
      const url = `https://127.0.0.1:${(mtls.address() as AddressInfo).port}/`;
      const { host, logs } = boot([createWebhookTokenAuthenticator({}), AnonymousAuthenticator], [
        '--authentication-token-webhook-config-file',
        kubeconfig(url, { user: '    client-certificate: client.crt\n    client-key: client.key' }),
      ]);
      assert.equal((await auth(host, token('mtls'))).user?.name, 'via-mtls');
      assert.deepEqual(peers, ['plat-apiserver']);
      host.hooks.shutdown.callAsync(() => {});
      allLogs.push(...logs);
    } finally {
      mtls.closeAllConnections();
      await new Promise<void>((r) => mtls.close(() => r()));
    }
  });

  it('fails start-up on a bad config file or version, naming the file or flag', async () => {
    const bad = (args: string[], pattern: RegExp) => assert.throws(
      () => boot([WebhookTokenAuthenticator], args),
      (e: unknown) => e instanceof Error && pattern.test(e.message), args.join(' '));
    const flag = '--authentication-token-webhook-config-file';
    const missing = join(dir, 'absent.yaml');
    bad([flag, missing], new RegExp(`^${flag} '${missing}': stat ${missing}: no such file or directory$`));
    const notYaml = join(dir, 'bad.yaml');
    writeFileSync(notYaml, 'clusters: [\n');
    bad([flag, notYaml], /bad\.yaml': error loading config file ".*bad\.yaml": yaml: line /);
    bad([flag, kubeconfig('http://webhook.example.com/authn')], /must be an https URL \(http only to a loopback host\)/);
    bad([flag, kubeconfig('https://127.0.0.1:1/x', { cluster: '    certificate-authority: nope.crt' })], /invalid configuration: unable to read certificate-authority (.*nope\.crt) for .+ due to open \1: no such file or directory/);
    bad([flag, kubeconfig('https://127.0.0.1:1/x', { user: '    auth-provider: {name: gcp}' })], /The gcp auth plugin has been removed\./);
    bad([flag, kubeconfig(webhook.url), '--authentication-token-webhook-version', 'v2'], /authentication-token-webhook-version/);
    // Through the real boot: a StartupError.
    await assert.rejects(startInProcess({ args: [flag, missing] }), (e: unknown) => e instanceof StartupError && e.message.includes(missing));
  });
});

describe('webhook kubeconfig', () => {
  it('reads -data fields, relative paths and the current context', () => {
    const path = join(dir, 'multi.yaml');
    writeFileSync(path, [
      'clusters:',
      '- {name: a, cluster: {server: "https://a.example/", insecure-skip-tls-verify: true}}',
      `- {name: b, cluster: {server: "https://b.example/", certificate-authority-data: ${Buffer.from(caPem).toString('base64')}, tls-server-name: reviewer}}`,
      'users:',
      '- {name: u, user: {token: t1}}',
      'contexts:',
      '- {name: ca, context: {cluster: a, user: u}}',
      '- {name: cb, context: {cluster: b}}',
      'current-context: cb',
    ].join('\n'));
    const c = loadKubeconfig(path);
    assert.equal(c.server.href, 'https://b.example/');
    assert.equal(c.ca?.toString(), caPem);
    assert.equal(c.tlsServerName, 'reviewer');
    assert.equal(c.token, undefined);
    assert.equal(c.insecureSkipTlsVerify, false);
  });

  it('refuses insecure-skip-tls-verify together with a CA, and half a client key pair', () => {
    const write = (text: string) => { const p = join(dir, `k-${n++}.yaml`); writeFileSync(p, text); return p; };
    assert.throws(() => loadKubeconfig(write('clusters: [{name: a, cluster: {server: "https://a/", insecure-skip-tls-verify: true, certificate-authority-data: eA==}}]')),
      (e: unknown) => e instanceof KubeconfigError && /insecure flag is not allowed/.test(e.message));
    assert.throws(() => loadKubeconfig(write('clusters: [{name: a, cluster: {server: "https://a/"}}]\nusers: [{name: u, user: {client-certificate-data: eA==}}]')),
      /invalid configuration: client-key-data or client-key must be specified for u to use the clientCert authentication method\.$/);
    assert.throws(() => loadKubeconfig(write('clusters: [{name: a, cluster: {server: "https://a/"}}]\ncurrent-context: nope\ncontexts: []')),
      /context was not found for specified context: nope/);
  });

  it('reads plain scalars by YAML 1.1, as clientcmd (sigs.k8s.io/yaml) does', () => {
    for (const [text, want] of [['yes', true], ['on', true], ['y', true], ['True', true], ['no', false], ['OFF', false], ['n', false]] as const) {
      const p = join(dir, `k-${n++}.yaml`);
      writeFileSync(p, `clusters: [{name: a, cluster: {server: "https://a/", insecure-skip-tls-verify: ${text}}}]\n`);
      assert.equal(loadKubeconfig(p).insecureSkipTlsVerify, want, text);
    }
  });

  it('allows http only to loopback hosts', () => {
    for (const h of ['127.0.0.1', '127.9.9.9', '[::1]', 'localhost']) assert.ok(isLoopbackHost(h), h);
    for (const h of ['10.0.0.1', 'example.com', '[::2]', '128.0.0.1']) assert.ok(!isLoopbackHost(h), h);
  });

  it('ReviewCache evicts the least recently used entry when full', async () => {
    const cache = new ReviewCache({ ttlMs: 1000, maxEntries: 2, now: () => 0 });
    let calls = 0;
    const review = async () => { calls++; return { authenticated: false } as const; };
    await cache.get('a', review);
    await cache.get('b', review);
    await cache.get('a', review); // a is now most recent
    await cache.get('c', review); // evicts b
    assert.equal(calls, 3);
    await cache.get('a', review);
    assert.equal(calls, 3);
    await cache.get('b', review);
    assert.equal(calls, 4);
    assert.equal(cache.size, 2);
  });
});
