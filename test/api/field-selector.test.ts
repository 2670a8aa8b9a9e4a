import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { escapeFieldValue, parseFieldSelector, unescapeFieldValue } from '../../core/api/selectors/field-selector.js';
import { StatusError } from '../../core/api/errors.js';

function assertBadRequest(fn: () => unknown, message: string): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof StatusError, `expected StatusError, got ${String(e)}`);
    assert.equal(e.code, 400);
    assert.equal(e.reason, 'BadRequest');
    assert.equal(e.status.message, message);
    return true;
  });
}

describe('parseFieldSelector: parse', () => {
  const cases: Array<[string, Array<{ field: string; operator: '=' | '!='; value: string }>]> = [
    ['', []],
    [',', []],
    ['metadata.name=foo', [{ field: 'metadata.name', operator: '=', value: 'foo' }]],
    ['metadata.name==foo', [{ field: 'metadata.name', operator: '=', value: 'foo' }]],
    ['metadata.name!=foo', [{ field: 'metadata.name', operator: '!=', value: 'foo' }]],
    ['metadata.name=', [{ field: 'metadata.name', operator: '=', value: '' }]],
    // terms are sorted by their text, as upstream does
    ['spec.signerName=x,metadata.name=y', [
      { field: 'metadata.name', operator: '=', value: 'y' }, { field: 'spec.signerName', operator: '=', value: 'x' },
    ]],
    ['a=b\\,c', [{ field: 'a', operator: '=', value: 'b,c' }]],
    ['a=b\\=c\\\\d', [{ field: 'a', operator: '=', value: 'b=c\\d' }]],
    ['a=b!c', [{ field: 'a', operator: '=', value: 'b!c' }]],
    ['spec.signerName=example.com/x', [{ field: 'spec.signerName', operator: '=', value: 'example.com/x' }]],
  ];
  for (const [input, want] of cases) {
    it(JSON.stringify(input), () => {
      const s = parseFieldSelector(input);
      assert.deepEqual(s.requirements, want);
      assert.equal(s.empty, want.length === 0);
    });
  }

  it('toString escapes values', () => {
    assert.equal(parseFieldSelector('b!=2,a==x\\,y').toString(), 'a=x\\,y,b!=2');
  });
});

describe('parseFieldSelector: matches', () => {
  const fields = { 'metadata.name': 'csr-1', 'spec.signerName': 'example.com/signer' };
  const cases: Array<[string, boolean]> = [
    ['', true],
    ['metadata.name=csr-1', true],
    ['metadata.name=csr-2', false],
    ['metadata.name!=csr-2', true],
    ['metadata.name!=csr-1', false],
    ['metadata.name=csr-1,spec.signerName=example.com/signer', true],
    ['metadata.name=csr-1,spec.signerName!=example.com/signer', false],
    ['spec.other=', true], // absent reads as ""
    ['spec.other!=', false],
    ['toString=', true], // inherited properties are not fields
  ];
  for (const [sel, want] of cases) it(`${JSON.stringify(sel)} → ${want}`, () => assert.equal(parseFieldSelector(sel).matches(fields), want));
});

describe('parseFieldSelector: errors', () => {
  const cases: Array<[string, string]> = [
    ['foo', "invalid selector: 'foo'; can't understand 'foo'"],
    ['a=b,foo', "invalid selector: 'a=b,foo'; can't understand 'foo'"],
    ['a=b=c', 'invalid field selector: unescaped character in value: 61'],
    ['a=b\\', 'invalid field selector: invalid escape sequence: \\'],
    ['a=b\\!', 'invalid field selector: invalid escape sequence: \\!'],
    ['a=\\x', 'invalid field selector: invalid escape sequence: \\x'],
  ];
  for (const [input, message] of cases) it(JSON.stringify(input), () => assertBadRequest(() => parseFieldSelector(input), message));
});

describe('FieldSelector.check', () => {
  const allowed = ['metadata.name', 'spec.signerName'];
  it('accepts allowed labels and the empty selector', () => {
    parseFieldSelector('').check(allowed);
    parseFieldSelector('metadata.name=a,spec.signerName!=b').check(allowed);
  });
  it('rejects the first unsupported label (in sorted order)', () => {
    assertBadRequest(() => parseFieldSelector('spec.foo=x').check(allowed), 'field label not supported: spec.foo');
    assertBadRequest(() => parseFieldSelector('zzz=1,metadata.name=a,aaa=2').check(allowed), 'field label not supported: aaa');
    assertBadRequest(() => parseFieldSelector('metadata.namespace=x').check(allowed), 'field label not supported: metadata.namespace');
  });
});

describe('FieldSelector.requiredValue', () => {
  const cases: Array<[string, string, string | undefined]> = [
    ['metadata.name=foo', 'metadata.name', 'foo'],
    ['metadata.name==foo', 'metadata.name', 'foo'],
    ['spec.signerName=x,metadata.name=foo', 'metadata.name', 'foo'],
    ['metadata.name!=foo', 'metadata.name', undefined],
    ['spec.signerName=x', 'metadata.name', undefined],
    ['', 'metadata.name', undefined],
    ['metadata.name=', 'metadata.name', ''],
    ['metadata.name=a\\,b', 'metadata.name', 'a,b'],
  ];
  for (const [sel, field, want] of cases) {
    it(`${JSON.stringify(sel)} pins ${field} to ${JSON.stringify(want)}`, () => assert.equal(parseFieldSelector(sel).requiredValue(field), want));
  }
});

describe('field value escaping', () => {
  it('round-trips', () => {
    for (const v of ['', 'plain', 'a,b', 'a=b', 'a\\b', '\\,=\\', 'ünï,cødé']) {
      assert.equal(unescapeFieldValue(escapeFieldValue(v)), v);
    }
    assert.equal(escapeFieldValue('a\\b,c=d'), 'a\\\\b\\,c\\=d');
  });
});
