import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { labelSelectorFromObject, parseLabelSelector } from '../../core/api/selectors/label-selector.js';
import { labelValueErrors, qualifiedNameErrors } from '../../core/api/selectors/label-syntax.js';
import { StatusError } from '../../core/api/errors.js';

const NAME_REGEX_MSG = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const VALUE_REGEX_MSG = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

function assertBadRequest(fn: () => unknown, message: string): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof StatusError, `expected StatusError, got ${String(e)}`);
    assert.equal(e.code, 400);
    assert.equal(e.reason, 'BadRequest');
    assert.equal(e.status.message, message);
    return true;
  });
}

describe('parseLabelSelector: parse', () => {
  // input → canonical string (requirements sorted by key, `in` values sorted and de-duplicated)
  const cases: Array<[string, string]> = [
    ['', ''],
    ['a=b', 'a=b'],
    ['a==b', 'a==b'],
    ['a!=b', 'a!=b'],
    ['a', 'a'],
    ['!a', '!a'],
    ['  a = b ,  c != d  ', 'a=b,c!=d'],
    ['z,y=1,x', 'x,y=1,z'],
    ['a in (z,x,x)', 'a in (x,z)'],
    ['a notin ( b )', 'a notin (b)'],
    ['a in ()', 'a in ()'],
    ['a in (,b)', 'a in (,b)'],
    ['a=', 'a='],
    ['a=,b', 'a=,b'],
    ['in=notin', 'in=notin'],
    ['example.com/app=web', 'example.com/app=web'],
    ['a>1,b<20', 'a>1,b<20'],
    ['a=b\0junk', 'a=b'],
  ];
  for (const [input, canonical] of cases) {
    it(JSON.stringify(input), () => assert.equal(parseLabelSelector(input).toString(), canonical));
  }

  it('exposes requirements and emptiness', () => {
    assert.equal(parseLabelSelector('').empty, true);
    const s = parseLabelSelector('b in (y,x),!a');
    assert.equal(s.empty, false);
    assert.deepEqual(s.requirements, [{ key: 'a', operator: '!', values: [] }, { key: 'b', operator: 'in', values: ['x', 'y'] }]);
  });
});

describe('parseLabelSelector: matches', () => {
  const labels = { app: 'web', tier: 'front', n: '10' };
  const cases: Array<[string, Record<string, string> | undefined, boolean]> = [
    ['', labels, true],
    ['', undefined, true],
    ['app=web', labels, true],
    ['app==web', labels, true],
    ['app=db', labels, false],
    ['app!=db', labels, true],
    ['missing!=x', labels, true],
    ['app!=web', labels, false],
    ['app in (db,web)', labels, true],
    ['app in (db)', labels, false],
    ['missing in (x)', labels, false],
    ['app notin (db)', labels, true],
    ['app notin (web)', labels, false],
    ['missing notin (x)', labels, true],
    ['app', labels, true],
    ['missing', labels, false],
    ['!missing', labels, true],
    ['!app', labels, false],
    ['app=web,tier=front', labels, true],
    ['app=web,tier=back', labels, false],
    ['missing=', labels, false],
    ['missing=', undefined, false],
    ['!app', undefined, true],
    ['n>9', labels, true],
    ['n>10', labels, false],
    ['n<11', labels, true],
    ['app>1', labels, false],
  ];
  for (const [sel, l, want] of cases) {
    it(`${JSON.stringify(sel)} on ${JSON.stringify(l)} → ${want}`, () => assert.equal(parseLabelSelector(sel).matches(l), want));
  }

  it('inherited properties are not labels', () => {
    assert.equal(parseLabelSelector('toString').matches({}), false);
    assert.equal(parseLabelSelector('!constructor').matches({}), true);
  });
});

describe('parseLabelSelector: errors', () => {
  const cases: Array<[string, string]> = [
    ['a b', 'unable to parse requirement: found \'b\', expected: in, notin, =, ==, !=, gt, lt'],
    ['a in (x', "unable to parse requirement: found '', expected: ',' or ')'"],
    ['a in (b c)', "unable to parse requirement: found 'c', expected: ',' or ')'"],
    ['a notin', "unable to parse requirement: found '' expected: '('"],
    ['a in x', "unable to parse requirement: found 'x' expected: '('"],
    ['a in (=)', "unable to parse requirement: found '=', expected: ',', ')' or identifier"],
    ['!', "unable to parse requirement: found '', expected: identifier"],
    ['a=b=c', "found '=', expected: ',' or 'end of string'"],
    ['a=b c', "found 'c', expected: ',' or 'end of string'"],
    ['a,', "found '', expected: identifier after ','"],
    ['a,,b', "found ',', expected: identifier after ','"],
    [',a', "found ',', expected: !, identifier, or 'end of string'"],
    ['=a', "found '=', expected: !, identifier, or 'end of string'"],
    ['a=(b)', "unable to parse requirement: found '(', expected: identifier"],
    ['-a=b', `unable to parse requirement: <nil>: Invalid value: "-a": name part ${NAME_REGEX_MSG}`],
    ['example.com/=b', `unable to parse requirement: <nil>: Invalid value: "example.com/": name part must be non-empty; name part ${NAME_REGEX_MSG}`],
    ['a/b/c', `unable to parse requirement: <nil>: Invalid value: "a/b/c": a qualified name ${NAME_REGEX_MSG} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`],
    ['a=-b', `unable to parse requirement: values[0][a]: Invalid value: "-b": ${VALUE_REGEX_MSG}`],
    ['a in (ok,-b)', `unable to parse requirement: values[0][a]: Invalid value: "-b": ${VALUE_REGEX_MSG}`],
    [`a=${'x'.repeat(64)}`, `unable to parse requirement: values[0][a]: Invalid value: "${'x'.repeat(64)}": must be no more than 63 characters`],
    ['a>x', `unable to parse requirement: values[0]: Invalid value: "x": for 'Gt', 'Lt' operators, the value must be an integer`],
  ];
  for (const [input, message] of cases) {
    it(JSON.stringify(input), () => assertBadRequest(() => parseLabelSelector(input), message));
  }
});

describe('label syntax', () => {
  it('qualified names', () => {
    assert.deepEqual(qualifiedNameErrors('app'), []);
    assert.deepEqual(qualifiedNameErrors('example.com/App_1.x'), []);
    assert.deepEqual(qualifiedNameErrors(`${'a'.repeat(63)}`), []);
    assert.deepEqual(qualifiedNameErrors(`${'a'.repeat(64)}`), ['name part must be no more than 63 characters']);
    assert.deepEqual(qualifiedNameErrors('/a'), ['prefix part must be non-empty']);
    assert.equal(qualifiedNameErrors('Example.com/a')[0]?.startsWith('prefix part a lowercase RFC 1123 subdomain must consist of'), true);
  });
  it('label values', () => {
    assert.deepEqual(labelValueErrors(''), []);
    assert.deepEqual(labelValueErrors('a-b_c.d'), []);
    assert.deepEqual(labelValueErrors('a b'), [VALUE_REGEX_MSG]);
  });
});

describe('labelSelectorFromObject', () => {
  it('null selects nothing; {} selects everything', () => {
    assert.equal(labelSelectorFromObject(null).matches({ a: 'b' }), false);
    assert.equal(labelSelectorFromObject(null).empty, false);
    assert.equal(labelSelectorFromObject({}).matches({ a: 'b' }), true);
    assert.equal(labelSelectorFromObject({}).empty, true);
  });

  it('matchLabels AND matchExpressions', () => {
    const s = labelSelectorFromObject({
      matchLabels: { app: 'web' },
      matchExpressions: [
        { key: 'tier', operator: 'In', values: ['front', 'edge'] },
        { key: 'env', operator: 'NotIn', values: ['prod'] },
        { key: 'team', operator: 'Exists' },
        { key: 'legacy', operator: 'DoesNotExist' },
      ],
    });
    assert.equal(s.toString(), 'app=web,env notin (prod),!legacy,team,tier in (edge,front)');
    assert.equal(s.matches({ app: 'web', tier: 'edge', team: 'x' }), true);
    assert.equal(s.matches({ app: 'web', tier: 'edge', team: 'x', env: 'prod' }), false);
    assert.equal(s.matches({ app: 'web', tier: 'edge', team: 'x', legacy: '' }), false);
    assert.equal(s.matches({ app: 'web', tier: 'back', team: 'x' }), false);
  });

  const errs: Array<[string, Parameters<typeof labelSelectorFromObject>[0], string]> = [
    ['unknown operator', { matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }] }, '"Gt" is not a valid label selector operator'],
    ['empty In', { matchExpressions: [{ key: 'a', operator: 'In', values: [] }] }, "values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty"],
    ['values on Exists', { matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] }, 'values: Invalid value: ["x"]: values set must be empty for exists and does not exist'],
    ['bad key', { matchLabels: { '-a': 'b' } }, `key: Invalid value: "-a": name part ${NAME_REGEX_MSG}`],
    ['bad value', { matchLabels: { a: 'b c' } }, `values[0][a]: Invalid value: "b c": ${VALUE_REGEX_MSG}`],
    ['several problems aggregate', { matchExpressions: [{ key: '-a', operator: 'In', values: [] }] },
      `[key: Invalid value: "-a": name part ${NAME_REGEX_MSG}, values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty]`],
  ];
  for (const [name, input, message] of errs) it(name, () => assertBadRequest(() => labelSelectorFromObject(input), message));
});
