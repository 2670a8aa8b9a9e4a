// matchConditions through @bufbuild/cel: what compiles (and how a refusal reads), what `request`
// holds, and upstream's rule for combining results (a false wins, then errors, then true).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  celRequest, compileMatchCondition, evaluateMatchConditions, MatchConditionError,
} from '../../core/authz/match-conditions.js';
import { specFromAttributes, specToWire } from '../../core/authz/subject-access-review.js';
import { pathAttrs, resourceAttrs } from './support.js';

const detail = (expression: string): string | undefined => {
  try {
    compileMatchCondition(expression);
    return undefined;
  } catch (err) {
    assert.ok(err instanceof MatchConditionError);
    return err.detail;
  }
};

describe('compiling a match condition', () => {
  it('accepts boolean expressions over the request, with macros, string functions and type names', () => {
    for (const e of [
      'request.user != "alice"',
      "has(request.resourceAttributes) && request.resourceAttributes.namespace == 'kube-system'",
      'request.groups.exists(g, g == "system:nodes")',
      'request.groups.all(g, g.startsWith("team:"))',
      '"example.com/scope" in request.extra && request.extra["example.com/scope"].exists(s, s == "admin")',
      'request.user.lowerAscii().endsWith("@example.com")',
      'has(request.nonResourceAttributes) && request.nonResourceAttributes.path.matches("^/healthz")',
      'type(request.uid) == string',
      'size(request.groups) > 1 || request.uid == ""',
    ]) assert.equal(detail(e), undefined, e);
  });

  it('refuses what cel-go refuses at compile time, in its words', () => {
    assert.equal(detail('user == "a"'), "compilation failed: ERROR: <input>:1:1: undeclared reference to 'user' (in container '')\n | user == \"a\"\n | ^");
    assert.equal(detail('request.groups.exists(g, h == g)'), "compilation failed: ERROR: <input>:1:26: undeclared reference to 'h' (in container '')\n | request.groups.exists(g, h == g)\n | .........................^");
    assert.equal(detail('request.usr == "a"'), "compilation failed: ERROR: <input>:1:8: undefined field 'usr'\n | request.usr == \"a\"\n | .......^");
    assert.equal(detail('has(request.nonResourceAttributes.url)'),
      "compilation failed: ERROR: <input>:1:34: undefined field 'url'\n | has(request.nonResourceAttributes.url)\n | .................................^");
    assert.equal(detail('request.uid'), 'must evaluate to bool but got string');
    assert.equal(detail('request.extra'), 'must evaluate to bool but got map(dyn, dyn)');
    assert.equal(detail('request.user.frobnicate()'), "compilation failed: ERROR: <input>:1:13: unbound function: frobnicate\n | request.user.frobnicate()\n | ............^");
    assert.equal(detail('request.groups + 1 == []'), "compilation failed: ERROR: <input>:1:16: found no matching overload for '_+_' applied to '(list, int)'\n | request.groups + 1 == []\n | ...............^");
    // The parser's own wording (not ANTLR's, as in cel-go); the position and the source line under it as cel-go shows them.
    assert.equal(detail('request.user =='), 'compilation failed: ERROR: <input>:1:14: Syntax error: found = but expecting end of input\n | request.user ==\n | .............^');
    assert.equal(detail('true\n&& &&'), 'compilation failed: ERROR: <input>:2:1: Syntax error: found & but expecting end of input\n | && &&\n | ^');
  });
});

describe('the request a condition sees', () => {
  it('is the v1 SubjectAccessReviewSpec with every string present, extra sorted', () => {
    const spec = specFromAttributes(resourceAttrs({ name: 'alice', groups: ['g'], extra: { z: ['1'], a: ['2'] } }, { verb: 'list' }));
    assert.deepEqual(celRequest(spec), {
      user: 'alice', groups: ['g'], uid: '', extra: { a: ['2'], z: ['1'] },
      resourceAttributes: { namespace: '', verb: 'list', group: 'certificates.platform', version: 'v1', resource: 'certificatesigningrequests', subresource: '', name: '' },
    });
    assert.deepEqual(Object.keys(spec.extra), ['a', 'z']);
    assert.deepEqual(specToWire(spec, 'v1'), {
      resourceAttributes: { verb: 'list', group: 'certificates.platform', version: 'v1', resource: 'certificatesigningrequests' },
      user: 'alice', groups: ['g'], extra: { a: ['2'], z: ['1'] },
    });
    assert.deepEqual(celRequest(specFromAttributes(pathAttrs({ name: 'bob' }, '/version'))), {
      user: 'bob', groups: [], uid: '', extra: {}, nonResourceAttributes: { path: '/version', verb: 'get' },
    });
  });
});

describe('combining the conditions (upstream CELMatcher.Eval)', () => {
  const c = (e: string) => compileMatchCondition(e);
  const nonResource = specFromAttributes(pathAttrs({ name: 'bob' }, '/version'));
  const errs = c('request.resourceAttributes.verb == "get"');

  it('matches when all are true, not when any is false', () => {
    assert.deepEqual(evaluateMatchConditions([c('true'), c('request.user == "bob"')], nonResource), { matches: true });
    assert.deepEqual(evaluateMatchConditions([c('true'), c('request.user == "alice"')], nonResource), { matches: false });
    assert.deepEqual(evaluateMatchConditions([], nonResource), { matches: true });
  });

  it('a false wins over an error, wherever it comes; otherwise the errors are the result', () => {
    assert.deepEqual(evaluateMatchConditions([errs, c('request.user == "alice"')], nonResource), { matches: false });
    assert.deepEqual(evaluateMatchConditions([errs, c('true')], nonResource), {
      error: `cel evaluation error: expression 'request.resourceAttributes.verb == "get"' resulted in error: field not found: resourceAttributes`,
    });
    const two = evaluateMatchConditions([errs, c('request.resourceAttributes.name == ""')], nonResource);
    assert.ok('error' in two && two.error.startsWith('[cel evaluation error: ') && two.error.includes(', cel evaluation error: '), JSON.stringify(two));
  });
});
