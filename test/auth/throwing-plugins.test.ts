// Third-party authenticator and authorizer plugins that throw, over HTTPS against a real in-process
// plat, as upstream's unions treat a member that returns an error: the chain goes on, a later
// member's user or decision still counts, and only when nobody succeeds does the error matter:
// 401 Unauthorized (the error logged with the plugin, never sent) for authentication; 500
// Internal Server Error for authorization (403 when a later authorizer denies), the error in an
// access review's status.evaluationError.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createLogger } from '../../core/log.js';
import type { Plugin } from '../../core/plugin.js';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { tableAuthorizer } from '../helpers/table-authorizer.js';

const ALICE = 'alice-token-0123456789';
const BOOM = { 'x-boom': '1' };

/** Throws before every other authenticator when the request carries x-boom. */
const BoomAuthenticator: Plugin = {
  name: 'BoomAuthenticator',
  apply(host) {
    host.hooks.authenticate.tapPromise({ name: 'BoomAuthenticator', stage: -1 }, async (req) => {
      if (req.headers['x-boom']) throw new Error('token cache corrupted');
      return undefined;
    });
  },
};

/** Throws before every other authorizer for alice. */
const BoomAuthorizer: Plugin = {
  name: 'BoomAuthorizer',
  apply(host) {
    host.hooks.authorize.tap({ name: 'BoomAuthorizer', stage: -2 }, (a) => {
      if (a.user.name === 'alice') throw new Error('policy store <unreachable>');
      return undefined;
    });
  },
};

/** Answers what the x-malformed header names: no user, or a user of the wrong shape. */
const MALFORMED: Record<string, unknown> = {
  string: 'mallory',
  'number-name': { name: 123, groups: [] },
  'groups-string': { name: 'carol', groups: 'system:masters-readonly' },
  'extra-string': { name: 'carol', groups: [], extra: { scopes: 'all' } },
  'no-groups': { name: 'dave' },
};
const MalformedAuthenticator: Plugin = {
  name: 'MalformedAuthenticator',
  apply(host) {
    host.hooks.authenticate.tap({ name: 'MalformedAuthenticator', stage: -1 }, (req) => MALFORMED[String(req.headers['x-malformed'])] as never);
  },
};

/** Answers bob's requests with what the x-decision header names. */
const DECISIONS: Record<string, unknown> = { 'capital-allow': { decision: 'Allow' }, true: true, 'number-reason': { decision: 'deny', reason: 7 } };
const MalformedAuthorizer: Plugin = {
  name: 'MalformedAuthorizer',
  apply(host) {
    host.hooks.authorize.tap({ name: 'MalformedAuthorizer', stage: -2 }, (a) => (a.user.name === 'dave' ? DECISIONS[a.path?.slice(1) ?? ''] : undefined) as never);
  },
};

const rules = tableAuthorizer([
  { group: 'system:masters', decision: 'allow' },
  { user: 'alice', path: '/version', decision: 'allow' },
  { user: 'alice', path: '/denied', decision: 'deny', reason: 'alice may not' },
  { user: 'dave', path: '/version', decision: 'allow' },
  { user: 'dave', resource: 'selfsubjectreviews', decision: 'allow' },
]);

describe('plugins that throw', () => {
  let plat: RunningPlat;
  const logs: string[] = [];
  before(async () => {
    const dir = tempDir('plat-throwing-plugins-');
    const tokens = path.join(dir, 'tokens.csv');
    writeFileSync(tokens, `${ALICE},alice,uid-a\n`);
    plat = await startInProcess({
      // Node has no opinion about alice: the table (before it) and the throwing plugins are the policy.
      args: ['--authorization-mode=Node', `--token-auth-file=${tokens}`, '--anonymous-auth=true'],
      plugins: [rules, BoomAuthenticator, BoomAuthorizer, MalformedAuthenticator, MalformedAuthorizer],
      logger: createLogger({ verbosity: 2, write: (l) => logs.push(l) }),
    });
  });
  after(async () => { await plat?.stop(); });

  it('an authenticator that throws: a later authenticator still authenticates', async () => {
    const admin = await plat.admin.get('/version', BOOM);
    assert.equal(admin.status, 200, admin.text);
    const alice = await plat.admin.with({ token: ALICE }).get('/version', BOOM);
    assert.equal(alice.status, 200, alice.text);
  });

  it('an authenticator that throws and nobody authenticates: 401 Unauthorized, the error only in the log', async () => {
    logs.length = 0;
    const r = await plat.admin.with({ token: 'not-a-known-token-0123456789' }).get('/version', BOOM);
    assert.equal(r.status, 401, r.text);
    assert.equal(r.json.message, 'Unauthorized');
    assert.doesNotMatch(r.text, /token cache corrupted/);
    assert.ok(logs.some((l) => /^E.*\] Unable to authenticate the request err="BoomAuthenticator: token cache corrupted"$/.test(l)), logs.join('\n'));
  });

  it('an authenticator that throws keeps the request from being anonymous, as upstream', async () => {
    const plain = await plat.admin.with({ anonymous: true }).get('/version');
    assert.equal(plain.status, 403, `anonymous without the error: ${plain.text}`);
    const r = await plat.admin.with({ anonymous: true }).get('/version', BOOM);
    assert.equal(r.status, 401, r.text);
  });

  it('an authorizer that throws: a later allow serves, a later deny is 403', async () => {
    const alice = plat.admin.with({ token: ALICE });
    const ok = await alice.get('/version');
    assert.equal(ok.status, 200, ok.text);
    const denied = await alice.get('/denied');
    assert.equal(denied.status, 403, denied.text);
    assert.match(denied.json.message, /: alice may not$/);
  });

  it('an authorizer that throws and nobody decides: 500 Internal Server Error, plain text, the plugin logged', async () => {
    logs.length = 0;
    const r = await plat.admin.with({ token: ALICE }).get('/nothing/here?a=1');
    assert.equal(r.status, 500, r.text);
    assert.equal(r.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(r.headers['x-content-type-options'], 'nosniff');
    assert.equal(r.text, 'Internal Server Error: "/nothing/here?a=1": policy store &lt;unreachable&gt;\n');
    assert.ok(logs.some((l) => l.includes('authorizer failed') && l.includes('BoomAuthorizer: policy store <unreachable>')), logs.join('\n'));
  });

  it('an access review answers with the error in status.evaluationError', async () => {
    const G = 'authorization.platform';
    const r = await plat.admin.post(`/apis/${G}/v1/subjectaccessreviews`, {
      apiVersion: `${G}/v1`, kind: 'SubjectAccessReview', spec: { user: 'alice', nonResourceAttributes: { path: '/nothing', verb: 'get' } },
    });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.status.allowed, false);
    assert.equal(r.json.status.denied, undefined);
    assert.equal(r.json.status.evaluationError, 'policy store <unreachable>');
    const allowed = await plat.admin.post(`/apis/${G}/v1/subjectaccessreviews`, {
      apiVersion: `${G}/v1`, kind: 'SubjectAccessReview', spec: { user: 'alice', nonResourceAttributes: { path: '/version', verb: 'get' } },
    });
    assert.deepEqual(allowed.json.status, { allowed: true, reason: 'allowed by the test table' });
  });

  it('an authenticator that answers no user: its error, named, as a throw; a user without groups has none', async () => {
    const table: [string, string][] = [
      ['string', 'answered a string, not a user ({ name, uid?, groups?, extra? })'],
      ['number-name', 'answered a user whose name is a number, not a non-empty string'],
      ['groups-string', 'answered a user whose groups are a string, not a list of strings'],
      ['extra-string', 'answered a user whose extra "scopes" is a string, not a list of strings'],
    ];
    for (const [kind, text] of table) {
      logs.length = 0;
      const r = await plat.admin.with({ anonymous: true }).get('/version', { 'x-malformed': kind });
      assert.equal(r.status, 401, `${kind}: ${r.text}`);
      assert.ok(logs.some((l) => l.includes(`Unable to authenticate the request err="MalformedAuthenticator: ${text.replace(/"/g, '\\"')}"`)), `${kind}:\n${logs.join('\n')}`);
    }
    // A later authenticator's user still counts, as after a throw.
    assert.equal((await plat.admin.get('/version', { 'x-malformed': 'string' })).status, 200);
    const review = await plat.admin.with({ anonymous: true }).post('/apis/authentication.platform/v1/selfsubjectreviews',
      { apiVersion: 'authentication.platform/v1', kind: 'SelfSubjectReview' }, { 'x-malformed': 'no-groups' });
    assert.equal(review.status, 201, review.text);
    assert.deepEqual(review.json.status.userInfo, { username: 'dave', groups: ['system:authenticated'] });
  });

  it('an authorizer that answers no decision: its error, named, as a throw; a later authorizer still decides', async () => {
    const dave = { 'x-malformed': 'no-groups' };
    for (const path of ['capital-allow', 'true', 'number-reason']) {
      logs.length = 0;
      const r = await plat.admin.with({ anonymous: true }).get(`/${path}`, dave);
      assert.equal(r.status, 500, `${path}: ${r.text}`);
      assert.ok(logs.some((l) => l.includes('authorizer failed') && l.includes('MalformedAuthorizer: answered')), `${path}:\n${logs.join('\n')}`);
    }
    assert.equal((await plat.admin.with({ anonymous: true }).get('/version', dave)).status, 200);
  });
});
