// Match-condition CEL: what compiles (and the cel-go style messages of what does not), and
// evaluation with upstream's outcome rules and the authorizer library, whose checks are answered
// here by a small table standing in for the authorizer chain.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AuthorizerSession, type CheckAttributes } from '../../plugins/admission-webhook/cel/authz-library.js';
import { compileMatchCondition } from '../../plugins/admission-webhook/cel/compile.js';
import { evaluateMatchConditions, type MatchContext } from '../../plugins/admission-webhook/cel/evaluate.js';

describe('match condition compilation', () => {
  const ok = [
    "object.metadata.name == 'x'",
    "has(object.metadata.labels) && 'team' in object.metadata.labels",
    "object.spec.usages.exists(u, u == 'client auth')",
    "object.spec.usages.all(u, u.startsWith('d') || u.endsWith('h'))",
    "object.spec.usages.exists_one(u, u.matches('^client'))",
    'size(object.spec.usages.filter(u, u.contains(" "))) > 1',
    "object.spec.usages.map(u, u.upperAscii()).exists(u, u == 'CLIENT AUTH')",
    "object.metadata.name.lowerAscii().split('-').size() == 2",
    "request.kind.group == 'certificates.platform' && request.resource.resource == 'certificatesigningrequests'",
    "request.userInfo.groups.exists(g, g == 'system:masters') && request.userInfo.extra.size() == 0",
    '!request.dryRun',
    "request.subResource == '' ? true : request.subResource == 'status'",
    "type(object) == map && {'a': 1}.size() == 1",
    'int(object.spec.expirationSeconds) >= 600 || oldObject != null',
    "authorizer.group('').resource('secrets').namespace('ns').name('n').subresource('s').check('get').reason() == ''",
    "authorizer.serviceAccount('ns', 'sa').path('/healthz').check('get').allowed()",
    "authorizer.requestResource.check('update').allowed()",
  ];
  for (const expression of ok) {
    it(`compiles ${expression}`, () => {
      const c = compileMatchCondition(expression);
      assert.ok(!('error' in c), 'error' in c ? c.error : '');
    });
  }

  const bad: [string, string][] = [
    ['object', 'must evaluate to bool'],
    ["request.name + 'x'", 'must evaluate to bool'],
    ['size(object.spec.usages)', 'must evaluate to bool'],
    ["authorizer.path('/x').check('get')", 'must evaluate to bool'],
    ["1 == 1 ? true : 'no'", 'must evaluate to bool'],
    ['namespaceObject.metadata.name == "x"', "compilation failed: ERROR: <input>:1:1: undeclared reference to 'namespaceObject' (in container '')\n | namespaceObject.metadata.name == \"x\"\n | ^"],
    ['request.userInfo.name == "x"', "compilation failed: ERROR: <input>:1:17: undefined field 'name'\n | request.userInfo.name == \"x\"\n | ................^"],
    // Kubernetes' CEL libraries beyond the authorizer (quantity, ip, url, ...) are not there; issues in source order.
    ['quantity("1Gi").isGreaterThan(quantity("1Mi"))', [
      "compilation failed: ERROR: <input>:1:1: undeclared reference to 'quantity' (in container '')\n | quantity(\"1Gi\").isGreaterThan(quantity(\"1Mi\"))\n | ^",
      "ERROR: <input>:1:16: undeclared reference to 'isGreaterThan' (in container '')\n | quantity(\"1Gi\").isGreaterThan(quantity(\"1Mi\"))\n | ...............^",
      "ERROR: <input>:1:31: undeclared reference to 'quantity' (in container '')\n | quantity(\"1Gi\").isGreaterThan(quantity(\"1Mi\"))\n | ..............................^",
    ].join('\n')],
    ['true &&\n  (', 'compilation failed: ERROR: <input>:'],
  ];
  for (const [expression, error] of bad) {
    it(`refuses ${JSON.stringify(expression)}`, () => {
      const c = compileMatchCondition(expression);
      assert.ok('error' in c, `${expression} compiled`);
      if (error.endsWith('<input>:')) assert.ok(c.error.startsWith(error) && c.error.includes(': Syntax error: '), c.error);
      else assert.equal(c.error, error);
    });
  }
});

describe('match condition evaluation', () => {
  const csr = { apiVersion: 'certificates.platform/v1', kind: 'CertificateSigningRequest', metadata: { name: 'n', labels: { team: 'a' } }, spec: { expirationSeconds: 600, usages: ['client auth'] } };
  const user = { name: 'alice', groups: ['devs', 'system:authenticated'] };
  /** The authorizer chain of these tests: allows what `allow` lists, as `verb resource name user`. */
  function context(allow: string[] = [], object: unknown = csr, oldObject: unknown = null): MatchContext & { asked: CheckAttributes[] } {
    const session = new AuthorizerSession(user);
    const asked: CheckAttributes[] = [];
    return {
      object, oldObject, session, asked,
      request: { uid: '', operation: 'CREATE', name: 'n', namespace: '', userInfo: { username: 'alice', uid: '', groups: user.groups, extra: {} }, dryRun: false },
      requestResource: { group: 'certificates.platform', resource: 'certificatesigningrequests', subresource: '', namespace: '', name: 'n' },
      async resolvePending() {
        for (const [key, a] of session.pending) {
          asked.push(a);
          const said = `${a.verb} ${a.resourceRequest ? `${a.apiGroup}/${a.resource}/${a.subresource}/${a.namespace}/${a.name}` : a.path} ${a.user.name}`;
          session.answers.set(key, allow.includes(said) ? { decision: 'allow', reason: 'listed', error: '' } : { decision: 'noopinion', reason: 'not listed', error: '' });
        }
        session.pending.clear();
      },
    };
  }
  const run = (expressions: string[], policy = 'Fail', ctx = context()) =>
    evaluateMatchConditions(expressions.map((expression, i) => ({ name: `c${i}`, expression })), policy, ctx);

  it('all true matches; any false skips and names the condition', async () => {
    assert.deepEqual(await run(['object.spec.expirationSeconds * 2 == 1200', "object.metadata.labels.team == 'a'", 'oldObject == null']), { matches: true });
    assert.deepEqual(await run(['true', "request.userInfo.username == 'bob'"]), { matches: false, failedCondition: 'c1' });
  });

  it('errors fail under Fail (aggregated) and skip under Ignore; a false condition wins over errors', async () => {
    const r = await run(["object.metadata.labels['missing'] == 'x'", 'object.spec.nope == 1']);
    assert.ok('error' in r);
    assert.match(r.error, /^\[expression 'object\.metadata\.labels\['missing'\] == 'x'' resulted in error: .+, expression 'object\.spec\.nope == 1' resulted in error: .+\]$/);
    assert.deepEqual(await run(['object.spec.nope == 1'], 'Ignore'), { matches: false });
    assert.deepEqual(await run(['object.spec.nope == 1', 'false']), { matches: false, failedCondition: 'c1' });
    const one = await run(['object.spec.nope == 1']);
    assert.ok('error' in one && !one.error.startsWith('['), JSON.stringify(one));
  });

  it('a stored expression that no longer compiles is an evaluation error', async () => {
    const r = await run(['object.spec']);
    assert.deepEqual(r, { error: "expression 'object.spec' resulted in error: must evaluate to bool" });
  });

  it("answers authorizer checks from the chain, as the request's user or a service account", async () => {
    const ctx = context([
      'approve certificates.platform/signers///example.com/x alice',
      'create certificates.platform/certificatesigningrequests///n alice',
      'get /healthz system:serviceaccount:ns:robot',
    ]);
    const r = await run([
      "authorizer.group('certificates.platform').resource('signers').name('example.com/x').check('approve').allowed()",
      "authorizer.requestResource.check('create').allowed()",
      "authorizer.serviceAccount('ns', 'robot').path('/healthz').check('get').allowed()",
      "!authorizer.group('').resource('secrets').check('delete').allowed() && authorizer.group('').resource('secrets').check('delete').reason() == 'not listed'",
    ], 'Fail', ctx);
    assert.deepEqual(r, { matches: true });
    const sa = ctx.asked.find((a) => a.path === '/healthz')!;
    assert.deepEqual(sa.user, { name: 'system:serviceaccount:ns:robot', groups: ['system:serviceaccounts', 'system:serviceaccounts:ns'] });
    assert.equal(sa.resourceRequest, false);
  });

  it('checks that depend on earlier answers take more rounds, each check asked once', async () => {
    const ctx = context(['get a/b/// alice', 'get c/d/// alice']);
    const expr = "authorizer.group('a').resource('b').check('get').allowed() ? authorizer.group('c').resource('d').check('get').allowed() : false";
    assert.deepEqual(await run([expr], 'Fail', ctx), { matches: true });
    assert.deepEqual(ctx.asked.map((a) => `${a.apiGroup}/${a.resource}`), ['a/b', 'c/d']);
  });

  it('gives up on chains of dependent checks longer than the round bound', async () => {
    const groups = Array.from({ length: 10 }, (_, i) => `g${i}`);
    const ctx = context(groups.map((g) => `get ${g}/r/// alice`));
    const expr = groups.reduceRight((inner, g) => `authorizer.group('${g}').resource('r').check('get').allowed() ? (${inner}) : false`, 'true');
    const r = await run([expr], 'Fail', ctx);
    assert.ok('error' in r && r.error.endsWith('resulted in error: more than 8 rounds of authorization checks'), JSON.stringify(r));
  });

  it('an object key named __proto__ is just a key', async () => {
    const object = JSON.parse('{"metadata":{"name":"p"},"__proto__":{"polluted":true}}');
    assert.deepEqual(await run(["object['__proto__'].polluted == true", "!has(object.polluted)"], 'Fail', context([], object)), { matches: true });
  });
});
