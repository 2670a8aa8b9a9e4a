// Authorizer chains from an AuthorizationConfiguration file: each Webhook entry's failurePolicy and
// matchConditions at the hook level, then one chain end to end over HTTPS —
// [Node, Webhook "first", ABAC, Webhook "second", AlwaysDeny] — where the users' outcomes (and
// which webhooks were asked) prove the order: an allow or deny ends the chain, no opinion passes on.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Attributes } from '../../core/authz/attributes.js';
import { authorize } from '../../core/authz/authorize.js';
import { AuthorizationConfigPlugin } from '../../plugins/authorization-config/index.js';
import { createWebhookAuthorizer } from '../../plugins/authz-webhook/index.js';
import { AuthorizationModeFlag, boot } from '../auth/support.js';
import { baseCsr, fixtures } from '../certificates/fixtures.js';
import { freePort, startInProcess, type RunningPlat } from '../helpers/plat.js';
import { SarWebhook, as, pathAttrs, resourceAttrs, tempDir, withClientCert, writeKubeconfig, writeTokenFile } from './support.js';

const first = new SarWebhook();
const second = new SarWebhook();
let dir: string;
let n = 0;

before(async () => {
  dir = tempDir('plat-authz-chain-');
  await first.start();
  await second.start();
  first.answer = ({ spec }) => {
    if (spec.user === 'bob') return { status: { allowed: false, denied: true, reason: 'bob is blocked by the first webhook' } };
    if (spec.user === 'carol') return { status: { allowed: true } };
    return { status: { allowed: false } };
  };
  second.answer = ({ spec }) => ({ status: { allowed: spec.user === 'erin' } });
});
after(async () => {
  await first.stop();
  await second.stop();
  rmSync(dir, { recursive: true, force: true });
});

function webhookEntry(name: string, kubeconfig: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: 'Webhook', name,
    webhook: {
      timeout: '5s', subjectAccessReviewVersion: 'v1', matchConditionSubjectAccessReviewVersion: 'v1', failurePolicy: 'NoOpinion',
      connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: kubeconfig }, matchConditions: [], ...over,
    },
  };
}

function writeConfig(authorizers: unknown[]): string {
  const file = join(dir, `authorization-${n++}.json`);
  writeFileSync(file, JSON.stringify({ apiVersion: 'apiserver.platform/v1beta1', kind: 'AuthorizationConfiguration', authorizers }));
  return file;
}

describe('a Webhook entry of --authorization-config', () => {
  const bootChain = (authorizers: unknown[]) => boot(
    [AuthorizationModeFlag, AuthorizationConfigPlugin, createWebhookAuthorizer({ sleep: async () => {} })],
    [`--authorization-config=${writeConfig(authorizers)}`]);

  it('when the webhook cannot be reached: the error, with a deny under failurePolicy Deny and for the chain under NoOpinion', async () => {
    const port = await freePort();
    const down = writeKubeconfig(dir, `https://127.0.0.1:${port}/authorize`, first.caPem);
    const deny = bootChain([webhookEntry('strict', down, { failurePolicy: 'Deny' })]);
    // client-go's words for the webhook's failed request (with the timeout its URL carries), not Node's `connect ECONNREFUSED`.
    const error = `Post "https://127.0.0.1:${port}/authorize?timeout=5s": dial tcp 127.0.0.1:${port}: connect: connection refused`;
    // upstream: return w.decisionOnError, "", err.
    assert.deepEqual(await authorize(deny.host, resourceAttrs({ name: 'anyone' })), { decision: 'deny', reason: '', error });
    assert.ok(deny.logs.some((l) => l.endsWith(`Failed to make webhook authorizer request: ${error}`)), deny.logs.join('\n'));
    const open = bootChain([webhookEntry('lenient', down, { failurePolicy: 'NoOpinion' })]);
    await assert.rejects(authorize(open.host, resourceAttrs({ name: 'anyone' })), { name: 'AuthorizationError', message: error });
  });

  it('skips the webhook when a match condition is false, and applies failurePolicy when one errs', async () => {
    const kc = writeKubeconfig(dir, first.url, first.caPem);
    const conditions = ['request.user != "alice"', 'request.resourceAttributes.verb != "delete"'];
    const b = bootChain([webhookEntry('conditional', kc, { failurePolicy: 'Deny', matchConditions: conditions.map((expression) => ({ expression })) })]);
    const decide = (a: Attributes) => authorize(b.host, a);

    assert.equal(await decide(resourceAttrs({ name: 'alice' })), undefined);
    assert.equal(first.callsFor('alice').length, 0, 'alice never reaches the webhook');
    assert.equal(await decide(resourceAttrs({ name: 'carol' }, { verb: 'delete' })), undefined, 'a false condition skips it');
    assert.deepEqual(await decide(resourceAttrs({ name: 'carol' })), { decision: 'allow' });
    assert.equal(first.callsFor('carol').length, 1);
    // No resourceAttributes on a path request: the second condition errs, so failurePolicy Deny decides.
    const d = await decide(pathAttrs({ name: 'carol' }, '/version'));
    assert.equal(d?.decision, 'deny');
    assert.equal(d.reason, '');
    assert.match(String(d.decision === 'deny' && d.error), /^cel evaluation error: expression 'request.resourceAttributes.verb != "delete"' resulted in error/);
    assert.equal(first.callsFor('carol').length, 1);
    assert.ok(b.logs.some((l) => l.includes("expression 'request.resourceAttributes.verb != \\\"delete\\\"' resulted in error")), b.logs.join('\n'));
    // ... but a false condition wins over an error, as upstream: alice is skipped on a path request too.
    assert.equal(await decide(pathAttrs({ name: 'alice' }, '/version')), undefined);
  });
});

describe('the chain of --authorization-config runs in file order (plat all over HTTPS)', () => {
  let plat: RunningPlat;
  const fx = fixtures();
  const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';
  const create = (client: ReturnType<typeof as>, name: string) => client.post(CSRS, baseCsr(fx, name));

  before(async () => {
    const policy = join(dir, 'abac.jsonl');
    const grant = (user: string) => JSON.stringify({ apiVersion: 'abac.authorization.platform/v1beta1', kind: 'Policy', spec: { user, namespace: '*', resource: '*', apiGroup: '*' } });
    writeFileSync(policy, [grant('alice'), grant('bob'), grant('dave')].join('\n') + '\n');
    const config = writeConfig([
      { type: 'Node', name: 'node' },
      webhookEntry('first', writeKubeconfig(dir, first.url, first.caPem), { matchConditions: [{ expression: 'request.user != "alice"' }] }),
      { type: 'ABAC', name: 'abac' },
      webhookEntry('second', writeKubeconfig(dir, second.url, second.caPem)),
      { type: 'AlwaysDeny', name: 'alwaysdeny' },
    ]);
    const users = Object.fromEntries(['alice', 'bob', 'carol', 'dave', 'erin', 'frank'].map((u) => [u, ['staff']]));
    plat = await startInProcess({ args: [`--authorization-config=${config}`, `--authorization-policy-file=${policy}`, `--token-auth-file=${writeTokenFile(dir, users)}`] });
  });
  after(async () => { await plat.stop(); });

  it('a node is allowed by Node, first in the chain: no webhook is asked', async () => {
    const res = await create(withClientCert(plat, 'system:node:n1', ['system:nodes']), 'node-n1');
    assert.equal(res.status, 201, res.text);
    assert.equal(first.callsFor('system:node:n1').length + second.callsFor('system:node:n1').length, 0);
  });

  it('alice: "first" is skipped by its match condition, ABAC allows', async () => {
    assert.equal((await create(as(plat, 'alice'), 'alice')).status, 201);
    assert.equal(first.callsFor('alice').length, 0);
    assert.equal(second.callsFor('alice').length, 0);
  });

  it('bob: "first" denies, which ends the chain although ABAC after it would allow', async () => {
    const res = await create(as(plat, 'bob'), 'bob');
    assert.equal(res.status, 403);
    assert.match(res.json.message, /User "bob" cannot create resource "certificatesigningrequests" .*: bob is blocked by the first webhook$/);
    assert.equal(second.callsFor('bob').length, 0);
  });

  it('carol: "first" allows; dave: "first" has no opinion and ABAC allows; neither reaches "second"', async () => {
    assert.equal((await create(as(plat, 'carol'), 'carol')).status, 201);
    assert.equal((await create(as(plat, 'dave'), 'dave')).status, 201);
    assert.equal(first.callsFor('dave').length, 1);
    assert.equal(second.callsFor('carol').length + second.callsFor('dave').length, 0);
  });

  it('erin: no opinion from "first" and ABAC, "second" allows', async () => {
    assert.equal((await create(as(plat, 'erin'), 'erin')).status, 201);
    assert.equal(first.callsFor('erin').length, 1);
    assert.equal(second.callsFor('erin').length, 1);
  });

  it('frank: nobody has an opinion until AlwaysDeny at the end', async () => {
    const res = await create(as(plat, 'frank'), 'frank');
    assert.equal(res.status, 403);
    assert.match(res.json.message, /: Everything is forbidden\.$/);
    assert.equal(second.callsFor('frank').length, 1);
  });
});
