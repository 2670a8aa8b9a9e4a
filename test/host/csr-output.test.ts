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
