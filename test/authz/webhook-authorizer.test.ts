// The Webhook authorizer against a real HTTPS SubjectAccessReview webhook on loopback: what it
// sends (v1beta1 and v1), how it maps answers to decisions, its cache (counted at the webhook), its
// failure handling, and end to end through `plat all` with --authorization-mode=Webhook.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { StartupError } from '../../core/plugin.js';
import type { Attributes } from '../../core/authz/attributes.js';
import { authorize } from '../../core/authz/authorize.js';
import { AuthorizationModeFlag, boot } from '../auth/support.js';
import { WebhookAuthorizer, createWebhookAuthorizer, type WebhookAuthorizerDeps } from '../../plugins/authz-webhook/index.js';
import { baseCsr, fixtures } from '../certificates/fixtures.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { SarWebhook, as, pathAttrs, resourceAttrs, tempDir, writeKubeconfig, writeTokenFile } from './support.js';

const webhook = new SarWebhook();
let dir: string;
let kubeconfig: string;

before(async () => {
  dir = tempDir('plat-authz-webhook-');
  await webhook.start();
  kubeconfig = writeKubeconfig(dir, webhook.url, webhook.caPem);
  // By user name: allowed-*, denied-*, both-*, broken-* (HTTP 500), garbage-*; others no opinion.
  webhook.answer = ({ spec }) => {
    const user: string = spec?.user ?? '';
    if (user.startsWith('allowed')) return { status: { allowed: true, reason: 'webhook says yes' } };
    if (user.startsWith('denied')) return { status: { allowed: false, denied: true, reason: `${user} is blocked` } };
    if (user.startsWith('both')) return { status: { allowed: true, denied: true, reason: 'confused' } };
    if (user.startsWith('broken')) return { http: 500 };
    if (user.startsWith('garbage')) return { http: 200, body: '{"apiVersion":"authorization.k8s.io/v1beta1","kind":"SubjectAccessReview","status":{"allowed":"yes"}}' };
    return { status: { allowed: false, reason: 'no idea' } };
  };
});
after(async () => {
  await webhook.stop();
  rmSync(dir, { recursive: true, force: true });
});

const noSleep: WebhookAuthorizerDeps['sleep'] = async () => {};
const bootWebhook = (deps: WebhookAuthorizerDeps = {}, args: string[] = []) =>
  boot([AuthorizationModeFlag, createWebhookAuthorizer({ sleep: noSleep, ...deps })],
    ['--authorization-mode=Webhook', `--authorization-webhook-config-file=${kubeconfig}`, ...args]);
const decide = (b: ReturnType<typeof boot>, a: Attributes) => authorize(b.host, a);

describe('WebhookAuthorizer at the hook level', () => {
  it('declares the four flags with the spec defaults and taps nothing without the mode', () => {
    const { host, flags } = boot([AuthorizationModeFlag, WebhookAuthorizer]);
    assert.equal(flags.get('authorization-webhook-config-file'), '');
    assert.equal(flags.get('authorization-webhook-version'), 'v1beta1');
    assert.equal(flags.get('authorization-webhook-cache-authorized-ttl'), 300_000);
    assert.equal(flags.get('authorization-webhook-cache-unauthorized-ttl'), 30_000);
    assert.equal(flags.specs().find((s) => s.name === 'authorization-webhook-version')?.section, 'Authorization options');
    assert.equal(host.hooks.authorize.taps.length, 0);
    assert.equal(host.capabilities.has('authorization-mode', 'Webhook'), true);
  });

  it('sends a v1beta1 SubjectAccessReview by default: upstream apiVersion, `group`, to the kubeconfig path', async () => {
    const b = bootWebhook();
    const n = webhook.calls.length;
    await decide(b, resourceAttrs({ name: 'quiet-1', groups: ['g1', 'system:authenticated'], uid: 'u-1', extra: { 'b.example/x': ['2'], 'a.example/y': ['1'] } },
      { verb: 'update', namespace: 'ns1', name: 'obj', subresource: 'status', apiGroup: '', resource: 'secrets' }));
    const call = webhook.calls[n]!;
    // client-go's Request.URL: the kubeconfig's path, and NewGenericWebhook's 30s timeout as the query.
    assert.equal(call.path, '/authorize?timeout=30s');
    assert.equal(call.apiVersion, 'authorization.k8s.io/v1beta1');
    assert.deepEqual(call.spec, {
      resourceAttributes: { namespace: 'ns1', verb: 'update', version: 'v1', resource: 'secrets', subresource: 'status', name: 'obj' },
      user: 'quiet-1', group: ['g1', 'system:authenticated'], extra: { 'a.example/y': ['1'], 'b.example/x': ['2'] }, uid: 'u-1',
    });
  });

  it('sends v1 with `groups`, and nonResourceAttributes for paths', async () => {
    const b = bootWebhook({}, ['--authorization-webhook-version=v1']);
    const n = webhook.calls.length;
    await decide(b, pathAttrs({ name: 'quiet-2', groups: ['g'] }, '/healthz/ping'));
    assert.equal(webhook.calls[n]!.apiVersion, 'authorization.k8s.io/v1');
    assert.deepEqual(webhook.calls[n]!.spec, { nonResourceAttributes: { path: '/healthz/ping', verb: 'get' }, user: 'quiet-2', groups: ['g'] });
  });

  it('maps the answer: allowed → allow, denied → deny, neither → no opinion, each with the reason; both → deny', async () => {
    const b = bootWebhook();
    assert.deepEqual(await decide(b, resourceAttrs({ name: 'allowed-a' })), { decision: 'allow', reason: 'webhook says yes' });
    assert.deepEqual(await decide(b, resourceAttrs({ name: 'denied-a' })), { decision: 'deny', reason: 'denied-a is blocked' });
    assert.deepEqual(await decide(b, resourceAttrs({ name: 'quiet-a' })), { decision: 'noOpinion', reason: 'no idea' });
    assert.deepEqual(await decide(b, resourceAttrs({ name: 'both-a' })),
      { decision: 'deny', reason: 'confused', error: 'webhook subject access review returned both allow and deny response' });
  });

  it('caches each answer for its TTL (injected clock), keyed on the whole question', async () => {
    let now = 5_000_000;
    const b = bootWebhook({ now: () => now });
    const ask = (name: string, over: Partial<Attributes> = {}) => decide(b, resourceAttrs({ name }, over));
    await ask('allowed-c');
    await ask('allowed-c');
    await ask('quiet-c');
    await ask('quiet-c');
    assert.equal(webhook.callsFor('allowed-c').length, 1);
    assert.equal(webhook.callsFor('quiet-c').length, 1, 'unauthorized answers are cached too');
    await ask('allowed-c', { verb: 'list' });
    assert.equal(webhook.callsFor('allowed-c').length, 2, 'another verb is another question');
    now += 30_000;
    await ask('quiet-c');
    await ask('allowed-c');
    assert.equal(webhook.callsFor('quiet-c').length, 2, 'the unauthorized TTL (30s) has passed');
    assert.equal(webhook.callsFor('allowed-c').length, 2, 'the authorized TTL (5m) has not');
    now += 270_000;
    await ask('allowed-c');
    assert.equal(webhook.callsFor('allowed-c').length, 3);
  });

  it('does not cache with a TTL of 0, nor questions whose attributes are too long', async () => {
    const b = bootWebhook({}, ['--authorization-webhook-cache-authorized-ttl=0', '--authorization-webhook-cache-unauthorized-ttl=0']);
    await decide(b, resourceAttrs({ name: 'allowed-z' }));
    await decide(b, resourceAttrs({ name: 'allowed-z' }));
    assert.equal(webhook.callsFor('allowed-z').length, 2);
    const long = bootWebhook();
    const attrs = resourceAttrs({ name: 'allowed-long' }, { name: 'x'.repeat(10_000) });
    await decide(long, attrs);
    await decide(long, attrs);
    assert.equal(webhook.callsFor('allowed-long').length, 2);
  });

  it('fails when the call fails (flag-configured: failurePolicy NoOpinion): the error for the chain, logged, nothing cached', async () => {
    const sleeps: number[] = [];
    const b = bootWebhook({ sleep: async (ms) => { sleeps.push(ms); } });
    // upstream: return DecisionNoOpinion, "", err; the union goes on and, nobody allowing, has the error.
    const generic500 = 'an error on the server ("unknown") has prevented the request from succeeding';
    await assert.rejects(decide(b, resourceAttrs({ name: 'broken-f' })), { name: 'AuthorizationError', message: generic500 });
    assert.equal(webhook.callsFor('broken-f').length, 5, '500 is retried: five steps');
    assert.equal(sleeps.length, 4);
    assert.ok(sleeps[0]! >= 500 && sleeps[0]! <= 600, String(sleeps));
    await assert.rejects(decide(b, resourceAttrs({ name: 'garbage-f' })), { name: 'AuthorizationError' });
    await assert.rejects(decide(b, resourceAttrs({ name: 'garbage-f' })), { name: 'AuthorizationError' });
    assert.equal(webhook.callsFor('garbage-f').length, 2, 'a failure is not cached');
    const garbage = 'json: cannot unmarshal string into Go struct field SubjectAccessReviewStatus.status.allowed of type bool';
    assert.ok(b.logs.some((l) => l.endsWith(`Failed to make webhook authorizer request: ${garbage}`)), b.logs.join('\n'));
    assert.ok(b.logs.some((l) => l.endsWith(`Failed to make webhook authorizer request: ${generic500}`)), b.logs.join('\n'));
  });

  it('refuses at start-up: the mode without its file, the file without the mode, a bad kubeconfig', () => {
    const refuses = (args: string[], pattern: RegExp, exitCode: number) => assert.throws(
      () => boot([AuthorizationModeFlag, WebhookAuthorizer], args),
      (e: unknown) => e instanceof StartupError && pattern.test(e.message) && e.exitCode === exitCode, args.join(' '));
    refuses(['--authorization-mode=Webhook'], /^authorization-mode Webhook's authorization config file not passed$/, 2);
    refuses(['--authorization-mode=AlwaysAllow', `--authorization-webhook-config-file=${kubeconfig}`], /^cannot specify --authorization-webhook-config-file without mode Webhook$/, 2);
    const missing = join(dir, 'missing.kubeconfig');
    refuses(['--authorization-mode=Webhook', `--authorization-webhook-config-file=${missing}`], /^--authorization-webhook-config-file '(.*missing\.kubeconfig)': stat \1: no such file or directory$/, 1);
    assert.throws(() => boot([AuthorizationModeFlag, WebhookAuthorizer], ['--authorization-webhook-cache-authorized-ttl=-1s']), /must not be negative/);
  });
});

describe('WebhookAuthorizer end to end (plat all, --authorization-mode=Webhook)', () => {
  let plat: RunningPlat;
  const fx = fixtures();
  const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';

  before(async () => {
    plat = await startInProcess({
      args: [
        '--authorization-mode=Webhook', `--authorization-webhook-config-file=${kubeconfig}`,
        `--token-auth-file=${writeTokenFile(dir, { 'allowed-alice': ['dev'], 'denied-bob': [], 'quiet-carol': [] })}`,
      ],
    });
  });
  after(async () => { await plat.stop(); });

  it('allows what the webhook allows, with the caller as the webhook saw it', async () => {
    const res = await as(plat, 'allowed-alice').post(CSRS, baseCsr(fx, 'from-alice'));
    assert.equal(res.status, 201, res.text);
    const call = webhook.callsFor('allowed-alice').at(-1)!;
    assert.deepEqual(call.spec, {
      resourceAttributes: { verb: 'create', group: 'certificates.platform', version: 'v1', resource: 'certificatesigningrequests' },
      user: 'allowed-alice', group: ['dev', 'system:authenticated'], uid: 'uid-allowed-alice',
    });
  });

  it('forbids with the webhook\'s reason when it denies, and when it has no opinion', async () => {
    const denied = await as(plat, 'denied-bob').get(`${CSRS}/from-alice`);
    assert.equal(denied.status, 403);
    assert.equal(denied.json.message,
      'certificatesigningrequests.certificates.platform "from-alice" is forbidden: User "denied-bob" cannot get resource "certificatesigningrequests" in API group "certificates.platform" at the cluster scope: denied-bob is blocked');
    const quiet = await as(plat, 'quiet-carol').get(CSRS);
    assert.equal(quiet.status, 403);
    assert.equal(quiet.json.message,
      'certificatesigningrequests.certificates.platform is forbidden: User "quiet-carol" cannot list resource "certificatesigningrequests" in API group "certificates.platform" at the cluster scope: no idea');
  });

  it('asks the webhook once for a repeated question within the TTL', async () => {
    const before = webhook.callsFor('allowed-alice').length;
    for (let i = 0; i < 3; i++) assert.equal((await as(plat, 'allowed-alice').get(CSRS)).status, 200);
    assert.equal(webhook.callsFor('allowed-alice').length, before + 1);
  });

  // Last: stops and restarts the shared webhook.
  it('keeps answering while the webhook is down: cached answers stand, new questions get 500 with client-go\'s error', async () => {
    await webhook.stop();
    try {
      assert.equal((await as(plat, 'allowed-alice').get(CSRS)).status, 200, 'cached');
      const res = await as(plat, 'allowed-alice').get(`${CSRS}/from-alice`);
      // WithAuthorization: an authorizer error and nobody allowing is responsewriters.InternalError.
      const port = new URL(webhook.url).port;
      assert.equal(res.status, 500, res.text);
      assert.equal(res.text, `Internal Server Error: "${CSRS}/from-alice": Post "${webhook.url}?timeout=30s": dial tcp 127.0.0.1:${port}: connect: connection refused\n`);
    } finally {
      await webhook.start();
    }
  });
});
