// encoding/json's output for the values /configz writes: a float32 in its shortest text (Go's
// strconv 'f'/'e' choice and exponent cleanup), the HTML-safe escapes, and Go's refusal of NaN/±Inf.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { goFloat32, goJsonMarshal, GoJsonUnsupportedValue } from '../../core/api/go-json-marshal.js';

describe('goJsonMarshal', () => {
  it('writes a float32 as json.Marshal(float32(x)) does', () => {
    // [value given, Go's text]
    const vectors: [number, string][] = [
      [20, '20'], [0.1, '0.1'], [0.3, '0.3'], [1.1, '1.1'], [-2.5, '-2.5'], [123456.79, '123456.79'],
      [16777217, '16777216'], [1e20, '100000000000000000000'], [1e21, '1e+21'], [3.4028235e38, '3.4028235e+38'],
      [1e-6, '0.000001'], [1e-7, '1e-7'], [1.2e-10, '1.2e-10'], [0, '0'],
    ];
    for (const [x, text] of vectors) assert.equal(goJsonMarshal(goFloat32(Math.fround(x))), text, String(x));
  });

  it('escapes <, >, &, U+2028 and U+2029 as Go does', () => {
    assert.equal(goJsonMarshal({ a: '<b>&\u2028\u2029' }), '{"a":"\\u003cb\\u003e\\u0026\\u2028\\u2029"}');
  });

  it('refuses NaN and infinities with encoding/json\'s text', () => {
    const table: [number, string][] = [[Number.NaN, 'NaN'], [Infinity, '+Inf'], [-Infinity, '-Inf']];
    for (const [x, text] of table) {
      assert.throws(() => goJsonMarshal({ q: x }), (e: unknown) => e instanceof GoJsonUnsupportedValue && e.message === `json: unsupported value: ${text}`);
    }
  });
});
