// scanJsonText's duplicates: keys repeated in one JSON object, named by path as apimachinery's strict
// decoder names them; never confused by what string values or escaped keys contain.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scanJsonText } from '../../core/api/schema-fields.js';

const cases: [string, string, string[]][] = [
  ['no duplicates', '{"a":1,"b":{"c":2}}', []],
  ['top level', '{"a":1,"a":2}', ['a']],
  ['three times', '{"a":1,"a":2,"a":3}', ['a', 'a']],
  ['nested object', '{"metadata":{"name":"x","name":"y"}}', ['metadata.name']],
  ['inside an array', '{"items":[{"k":1},{"k":1,"k":2}]}', ['items[1].k']],
  ['nested arrays', '{"a":[[{"x":1,"x":2}]]}', ['a[0][0].x']],
  ['same key in sibling objects is fine', '{"a":{"k":1},"b":{"k":1}}', []],
  ['whitespace everywhere', ' {\n\t"a" : 1 ,\r\n "a" : [ ] } ', ['a']],
  ['string values are not keys', '{"a":"\\"a\\":1,","b":"}{\\\\","a":0}', ['a']],
  ['a value ending in an escaped backslash', '{"a":"x\\\\","b":1,"b":2}', ['b']],
  ['escaped keys are compared decoded', '{"\\u0061":1,"a":2}', ['a']],
  ['a key with an escaped quote', '{"q\\"":1,"q\\"":2}', ['q"']],
  ['literals and numbers', '{"t":true,"f":false,"n":null,"x":-1.5e3,"t":1}', ['t']],
  ['empty object and array', '{"o":{},"l":[],"o":{}}', ['o']],
  ['not an object', '[1,2,3]', []],
  ['malformed input gives up quietly', '{"a":1,"a":', ['a']],
  ['unterminated string', '{"a":"abc', []],
];

describe('scanJsonText: duplicates', () => {
  for (const [name, text, want] of cases) {
    it(name, () => assert.deepEqual(scanJsonText(text).duplicates, want));
  }

  it('agrees with JSON.parse on what it parses: a large body with no duplicates', () => {
    const body = JSON.stringify({ spec: { request: 'A'.repeat(100_000), usages: ['a', 'b'] }, metadata: { annotations: Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`k${i}`, `"v${i}\\`])) } });
    assert.deepEqual(scanJsonText(body).duplicates, []);
  });
});
