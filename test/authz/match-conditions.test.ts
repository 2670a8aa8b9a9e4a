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
    assert.equal(detail('request.extra'), 'must evaluate to bool but got map(string, list(string))');
    assert.equal(detail('request.user.frobnicate()'), "compilation failed: ERROR: <input>:1:24: undeclared reference to 'frobnicate' (in container '')\n | request.user.frobnicate()\n | .......................^");
    assert.equal(detail('request.groups + 1 == []'), "compilation failed: ERROR: <input>:1:16: found no matching overload for '_+_' applied to '(list(string), int)'\n | request.groups + 1 == []\n | ...............^");
    // The parser's own wording (not ANTLR's, as in cel-go); the position and the source line under it as cel-go shows them.
    assert.equal(detail('request.user =='), 'compilation failed: ERROR: <input>:1:14: Syntax error: found = but expecting end of input\n | request.user ==\n | .............^');
    assert.equal(detail('true\n&& &&'), 'compilation failed: ERROR: <input>:2:1: Syntax error: found & but expecting end of input\n | && &&\n | ^');
  });
});

describe('the static type check (cel-go checker over compile.go buildRequestType)', () => {
  // [expression, the first line of the problem]; the source line and caret follow it.
  const refused: Array<[string, string]> = [
    ['request.user == 1', "ERROR: <input>:1:14: found no matching overload for '_==_' applied to '(string, int)'"],
    ["request.extra['team'] == 'a'", "ERROR: <input>:1:23: found no matching overload for '_==_' applied to '(list(string), string)'"],
    ['request.user == null', "ERROR: <input>:1:14: found no matching overload for '_==_' applied to '(string, null)'"],
    ['request.groups.size() == "2"', "ERROR: <input>:1:23: found no matching overload for '_==_' applied to '(int, string)'"],
    ['request.user > 1', "ERROR: <input>:1:14: found no matching overload for '_>_' applied to '(string, int)'"],
    ['request.user + 1 == "a1"', "ERROR: <input>:1:14: found no matching overload for '_+_' applied to '(string, int)'"],
    ['!request.user', "ERROR: <input>:1:1: found no matching overload for '!_' applied to '(string)'"],
    ['request.user && true', "ERROR: <input>:1:14: found no matching overload for '_&&_' applied to '(string, bool)'"],
    ['request.uid ? true : false', "ERROR: <input>:1:13: found no matching overload for '_?_:_' applied to '(string, bool, bool)'"],
    ['1 in request.groups', "ERROR: <input>:1:3: found no matching overload for '@in' applied to '(int, list(string))'"],
    ['request.groups[0] == 1', "ERROR: <input>:1:19: found no matching overload for '_==_' applied to '(string, int)'"],
    ['request.groups["a"] == "b"', "ERROR: <input>:1:15: found no matching overload for '_[_]' applied to '(list(string), string)'"],
    ['size(request.user.size()) == 1', "ERROR: <input>:1:5: found no matching overload for 'size' applied to '(int)'"],
    ['request.user.startsWith(1)', "ERROR: <input>:1:24: found no matching overload for 'startsWith' applied to 'string.(int)'"],
    ['request.groups.contains("a")', "ERROR: <input>:1:24: found no matching overload for 'contains' applied to 'list(string).(string)'"],
    ['int(request.groups) == 1', "ERROR: <input>:1:4: found no matching overload for 'int' applied to '(list(string))'"],
    ['request.user.name == "x"', "ERROR: <input>:1:13: type 'string' does not support field selection"],
    ['request.resourceAttributes.fieldSelector.requirements.exists(r, r.op == "In")', "ERROR: <input>:1:66: undefined field 'op'"],
    ['request.groups.exists(g, g)', "ERROR: <input>:1:22: found no matching overload for '_||_' applied to '(bool, string)'"],
    ['request.groups.all(g, g == 1)', "ERROR: <input>:1:25: found no matching overload for '_==_' applied to '(string, int)'"],
    ['request.groups.map(g, g.size()).exists(n, n == "a")', "ERROR: <input>:1:45: found no matching overload for '_==_' applied to '(int, string)'"],
    ['request.extra.exists(k, k == 1)', "ERROR: <input>:1:27: found no matching overload for '_==_' applied to '(string, int)'"],
    ['request.user.exists(c, true)', "ERROR: <input>:1:8: expression of type 'string' cannot be range of a comprehension (must be list, map, or dynamic)"],
    ['isSorted(request.groups)', "ERROR: <input>:1:9: 'isSorted' is in the Kubernetes CEL environment but plat does not implement it"],
    ['[request.user, dyn(1)].size() == 2', "ERROR: <input>:1:16: expected type 'string' but found 'dyn'"],
    ['[1, "a"].size() == 2', "ERROR: <input>:1:5: expected type 'int' but found 'string'"],
    ['{"a": 1, "b": "c"}.size() == 2', "ERROR: <input>:1:15: expected type 'int' but found 'string'"],
    // The Kubernetes libraries upstream declares, which plat does not evaluate.
    ['request.groups.isSorted()', "ERROR: <input>:1:24: 'isSorted' is in the Kubernetes CEL environment but plat does not implement it"],
    ['request.groups.indexOf("a") == 0', "ERROR: <input>:1:23: 'indexOf' is in the Kubernetes CEL environment but plat does not implement it"],
    ['request.user.find("[0-9]+") == "1"', "ERROR: <input>:1:18: 'find' is in the Kubernetes CEL environment but plat does not implement it"],
    ['isURL(request.resourceAttributes.name)', "ERROR: <input>:1:6: 'isURL' is in the Kubernetes CEL environment but plat does not implement it"],
    ['sets.contains(request.groups, ["a"])', "ERROR: <input>:1:14: 'sets.contains' is in the Kubernetes CEL environment but plat does not implement it"],
    ['request.extra.all(k, v, v.size() > 0)', "ERROR: <input>:1:18: 'all' is in the Kubernetes CEL environment but plat does not implement it"],
  ];
  for (const [expression, first] of refused) {
    it(`refuses ${expression}`, () => {
      assert.equal(detail(expression)?.split('\n')[0], `compilation failed: ${first}`);
    });
  }

  const accepted = [
    'dyn(request.user) == 1',
    'request.groups.size() > 1.0',
    'request.resourceAttributes == null',
    'request.groups.map(g, g.size()).exists(n, n > 3)',
    'request.groups.filter(g, g.startsWith("a")).size() == 1',
    'request.groups.exists_one(g, g == "a")',
    'request.extra.exists(k, k == "x" && request.extra[k].all(v, v != ""))',
    'request.extra.all(k, request.extra[k].size() < 3)',
    'has(request.resourceAttributes.fieldSelector) && request.resourceAttributes.fieldSelector.requirements.exists(r, r.key == "a" && "x" in r.values)',
    'has(request.resourceAttributes.labelSelector.rawSelector)',
    'has(request.extra.team)',
    'request.groups[0] == "a" ? true : request.uid != ""',
    '{"a": 1}["a"] == 1 && [1, 2][0] < 2u',
    'request.user.matches("^a") && matches(request.user, "b")',
    'int(request.uid) > 1 && string(size(request.groups)) == "1" && double("1.5") < 2',
    'request.user.indexOf("a") == 0 && request.user.split("@").size() == 2',
    "['a', 'b'].join(',') == 'a,b' && strings.quote(request.user) != ''",
    "'%s-%d'.format(['a', 1]) == 'a-1'",
    'type(request.groups) == list && type(request.extra) == map && type(null) == null_type',
    'timestamp("2020-01-01T00:00:00Z").getFullYear() == 2020 && duration("1h") > duration("1m")',
  ];
  for (const expression of accepted) {
    it(`accepts ${expression}`, () => assert.equal(detail(expression), undefined));
  }

  it('wants bool exactly, as compile.go compares the output type', () => {
    assert.equal(detail('dyn(true)'), 'must evaluate to bool but got dyn');
    assert.equal(detail('request.groups.map(g, g == "a")'), 'must evaluate to bool but got list(bool)');
    assert.equal(detail('request.resourceAttributes'), 'must evaluate to bool but got kubernetes.ResourceAttributes');
  });

  it('reports every problem, in the order of their positions', () => {
    assert.equal(detail('x.y == 1 && request.usr == "a"'), [
      "compilation failed: ERROR: <input>:1:1: undeclared reference to 'x' (in container '')", ' | x.y == 1 && request.usr == "a"', ' | ^',
      "ERROR: <input>:1:20: undefined field 'usr'", ' | x.y == 1 && request.usr == "a"', ' | ...................^',
    ].join('\n'));
  });

  it('runs what it accepts: the global matches of cel-go, requirements without values as empty lists', () => {
    const spec = specFromAttributes(pathAttrs({ name: 'alice' }, '/version'));
    assert.deepEqual(evaluateMatchConditions([compileMatchCondition("matches(request.user, '^al')")], spec), { matches: true });
    assert.deepEqual(evaluateMatchConditions([compileMatchCondition("matches(request.user, '^b')")], spec), { matches: false });
    assert.deepEqual(evaluateMatchConditions([compileMatchCondition("request.user.matches('^al')")], spec), { matches: true });
    const { nonResourceAttributes: _, ...rest } = spec;
    const listed = {
      ...rest,
      resourceAttributes: {
        namespace: '', verb: 'list', group: '', version: 'v1', resource: 'secrets', subresource: '', name: '',
        labelSelector: { requirements: [{ key: 'app', operator: 'Exists' }] },
      },
    };
    const all = "request.resourceAttributes.labelSelector.requirements.all(r, r.values.all(v, v != 'secret') && size(r.values) == 0)";
    assert.deepEqual(evaluateMatchConditions([compileMatchCondition(all)], listed), { matches: true });
  });

  it('what passes the check but fails on a request errs at evaluation, where failurePolicy applies', () => {
    const spec = specFromAttributes(pathAttrs({ name: 'bob' }, '/version'));
    assert.deepEqual(evaluateMatchConditions([compileMatchCondition('dyn(request.user) == 1')], spec), { matches: false });
    const r = evaluateMatchConditions([compileMatchCondition('dyn(request.user) + 1 == 2')], spec);
    assert.ok('error' in r && r.error.startsWith("cel evaluation error: expression 'dyn(request.user) + 1 == 2' resulted in error: "), JSON.stringify(r));
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
