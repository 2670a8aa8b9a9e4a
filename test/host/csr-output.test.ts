// How `plat csr get|list -o yaml` writes objects: readable back by YAML 1.1 readers (kubectl's
// go-yaml, PyYAML) with every string still a string.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { formatObject } from '../../host/commands/csr-output.js';

describe('plat csr -o yaml', () => {
  it('quotes the strings YAML 1.1 or Go would read as something else', () => {
    const labels = { flag: 'on', ok: 'yes', y: 'n', octal: '0o17', big: '1_000', exp: '1e3', plain: 'team-a' };
    const obj = { metadata: { name: 'x', labels, creationTimestamp: '2026-11-28T04:00:54Z' }, spec: { expirationSeconds: 600 } };
    const text = formatObject(obj, 'yaml');
    assert.deepEqual(parseYaml(text, { version: '1.1' }), obj);
    assert.match(text, /^ {2}creationTimestamp: "2026-11-28T04:00:54Z"$/m);
    assert.match(text, /^ {4}octal: "0o17"$/m);
    assert.match(text, /^ {4}plain: team-a$/m);
    assert.match(text, /^ {2}expirationSeconds: 600$/m);
  });
});

describe('plat csr -o json', () => {
  it('writes what kubectl writes: keys sorted, four spaces, Go\'s escapes', () => {
    const obj = { spec: { usages: ['client auth'], empty: [], request: 'x' }, kind: 'K', metadata: {}, status: { message: 'A<b>&c \u2028 \b\f\u0001 \ud800 é' } };
    assert.equal(formatObject(obj, 'json'), [
      '{',
      '    "kind": "K",',
      '    "metadata": {},',
      '    "spec": {',
      '        "empty": [],',
      '        "request": "x",',
      '        "usages": [',
      '            "client auth"',
      '        ]',
      '    },',
      '    "status": {',
      '        "message": "A\\u003cb\\u003e\\u0026c \\u2028 \\b\\f\\u0001 \ufffd é"',
      '    }',
      '}',
      '',
    ].join('\n'));
  });
});
