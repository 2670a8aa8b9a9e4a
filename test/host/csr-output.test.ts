// How `plat csr get|list -o yaml` writes objects: readable back by YAML 1.1 readers (kubectl's
// go-yaml, PyYAML) with every string still a string.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { columnWidths, formatObject, formatRow } from '../../host/commands/csr-output.js';

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

describe('plat csr -o yaml, byte for byte', () => {
  it('quotes exactly the strings go-yaml would read as something else', () => {
    const quoted = ['on', 'Yes', 'n', '~', 'null', '', '0o17', '0x1F', '08', '1_000', '+1', '-1.5e3', '1.', '.5', '.inf',
      '2026-11-28', '2026-11-28T10:00:00Z', '2026-1-2 3:04:05', '1:20', '12:30:45.5'];
    const plain = ['nULL', 'yES', '1e', '._5', '.', '1.0.0', '10.0.0.1', '2026-13-01', '2026-2-30', '<<', 'nan', 'v1', '-a', 'a:b', 'a#b'];
    for (const s of quoted) assert.equal(formatObject({ k: s }, 'yaml'), `k: "${s}"\n`, s);
    for (const s of plain) assert.equal(formatObject({ k: s }, 'yaml'), `k: ${s}\n`, s);
  });

  it('writes what kubectl 1.32 writes (go-yaml v2): key order, quoting, blocks, escapes, folding', () => {
    // The object and the expected text come from `kubectl create --dry-run=client -o yaml -f` of its JSON.
    const obj = {
      kind: 'CertificateSigningRequest', apiVersion: 'certificates.platform/v1',
      metadata: {
        name: 'x', labels: { z10: 'on', z9: '0o17', a: '2026-11-28' },
        annotations: {
          note: 'a: b', tab: 'a\tb', ls: 'a\u2028b', block: 'first\nsecond\n', nel: 'a \u0085 b', bom: '\ufeffab', emoji: '\u{1f600}',
          long: 'this is a rather long message that goes on and on past eighty columns for sure, with more words',
          quoted: 'it\'s a rather long message that goes on and on past eighty columns for sure: with more words',
        },
      },
      spec: { expirationSeconds: 600, usages: [], extra: {}, groups: ['system:masters'], flag: true, none: null, ratio: 0.5, big: 1234567.5 },
    };
    assert.equal(formatObject(obj, 'yaml'), [
      'apiVersion: certificates.platform/v1',
      'kind: CertificateSigningRequest',
      'metadata:',
      '  annotations:',
      '    block: |',
      '      first',
      '      second',
      '    bom: "\\uFEFF\\x61\\x62"',
      '    emoji: "\\U0001F600"',
      '    long: this is a rather long message that goes on and on past eighty columns for',
      '      sure, with more words',
      '    ls: \'a\u2028      b\'',
      '    nel: a b',
      '    note: \'a: b\'',
      '    quoted: \'it\'\'s a rather long message that goes on and on past eighty columns for',
      '      sure: with more words\'',
      '    tab: "a\\tb"',
      '  labels:',
      '    a: "2026-11-28"',
      '    z9: "0o17"',
      '    z10: "on"',
      '  name: x',
      'spec:',
      '  big: 1.2345675e+06',
      '  expirationSeconds: 600',
      '  extra: {}',
      '  flag: true',
      '  groups:',
      '  - system:masters',
      '  none: null',
      '  ratio: 0.5',
      '  usages: []',
      '',
    ].join('\n'));
  });
});

describe('plat csr tables', () => {
  it('count a cell\'s width in code points, as kubectl\'s tabwriter does', () => {
    const rows = [['NAME', 'REQUESTOR', 'CONDITION'], ['x', 'alice\u{1f600}-with-a-long-name', 'Pending']];
    const widths = columnWidths(rows);
    assert.equal(rows.map((r) => formatRow(r, widths)).join(''), 'NAME   REQUESTOR                 CONDITION\nx      alice\u{1f600}-with-a-long-name   Pending\n');
  });
});
