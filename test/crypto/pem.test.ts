// PEM decoding must find exactly the blocks Go's encoding/pem.Decode finds.
import test from 'node:test';
import assert from 'node:assert/strict';
import { decodeFirstPemBlock, decodePemBlocks, encodePem } from '../../core/crypto/index.js';

const body = 'AQIDBA=='; // 01 02 03 04
const block = (label: string, b64 = body): string => `-----BEGIN ${label}-----\n${b64}\n-----END ${label}-----\n`;

test('encodePem writes 64-column lines and round-trips', () => {
  const der = new Uint8Array(100).map((_, i) => i);
  const pem = encodePem('CERTIFICATE', der);
  const lines = pem.trimEnd().split('\n');
  assert.equal(lines[0], '-----BEGIN CERTIFICATE-----');
  assert.equal(lines[1]!.length, 64);
  assert.equal(lines.at(-1), '-----END CERTIFICATE-----');
  const [b] = decodePemBlocks(pem);
  assert.deepEqual(b, { label: 'CERTIFICATE', headers: {}, der });
  assert.equal(encodePem('X', new Uint8Array(0)), '-----BEGIN X-----\n-----END X-----\n');
  assert.throws(() => encodePem('A\nB', der), TypeError);
});

// Each vector: input, expected blocks (label + hex of DER), id for failure reports.
const vectors: { id: string; input: string; want: { label: string; hex: string; headers?: Record<string, string> }[] }[] = [
  { id: 'plain', input: block('A'), want: [{ label: 'A', hex: '01020304' }] },
  { id: 'junk before and after', input: `hello\nworld ${'x'}\n${block('A')}trailing text\n`, want: [{ label: 'A', hex: '01020304' }] },
  { id: 'BEGIN not at line start is not a block', input: `junk -----BEGIN A-----\n${body}\n-----END A-----\n`, want: [] },
  { id: 'CRLF line ends', input: block('A').replace(/\n/g, '\r\n'), want: [{ label: 'A', hex: '01020304' }] },
  { id: 'spaces and tabs in base64', input: `-----BEGIN A-----\n AQ ID\tBA==  \n-----END A-----\n`, want: [{ label: 'A', hex: '01020304' }] },
  { id: 'base64 over several lines', input: `-----BEGIN A-----\nAQID\nBA==\n-----END A-----\n`, want: [{ label: 'A', hex: '01020304' }] },
  { id: 'trailing spaces after END', input: `-----BEGIN A-----\n${body}\n-----END A-----  \t\n`, want: [{ label: 'A', hex: '01020304' }] },
  { id: 'no final newline', input: `-----BEGIN A-----\n${body}\n-----END A-----`, want: [{ label: 'A', hex: '01020304' }] },
  {
    id: 'headers',
    input: `-----BEGIN A-----\nProc-Type: 4,ENCRYPTED\nDEK-Info : x \n\n${body}\n-----END A-----\n`,
    want: [{ label: 'A', hex: '01020304', headers: { 'Proc-Type': '4,ENCRYPTED', 'DEK-Info': 'x' } }],
  },
  { id: 'empty block', input: '-----BEGIN A-----\n-----END A-----\n', want: [{ label: 'A', hex: '' }] },
  { id: 'mismatched END label skipped', input: `-----BEGIN A-----\n${body}\n-----END B-----\n${block('C')}`, want: [{ label: 'C', hex: '01020304' }] },
  { id: 'bad base64 skipped', input: `-----BEGIN A-----\nAQID!A==\n-----END A-----\n${block('C')}`, want: [{ label: 'C', hex: '01020304' }] },
  { id: 'missing padding skipped', input: `-----BEGIN A-----\nAQIDBA\n-----END A-----\n`, want: [] },
  { id: 'text after END on the same line skipped', input: `-----BEGIN A-----\n${body}\n-----END A----- x\n`, want: [] },
  { id: 'BEGIN line without closing dashes skipped', input: `-----BEGIN A\n${body}\n-----END A-----\n${block('C')}`, want: [{ label: 'C', hex: '01020304' }] },
  { id: 'two blocks, text between', input: `${block('A')}between\n${block('B', 'BQY=')}`, want: [{ label: 'A', hex: '01020304' }, { label: 'B', hex: '0506' }] },
  { id: 'nothing after BEGIN line', input: '-----BEGIN A-----\n', want: [] },
];

for (const v of vectors) {
  test(`decodePemBlocks vector ${v.id}`, () => {
    const got = decodePemBlocks(v.input).map((b) => ({ label: b.label, hex: Buffer.from(b.der).toString('hex'), headers: b.headers }));
    assert.deepEqual(got, v.want.map((w) => ({ headers: {}, ...w })), `vector ${v.id}`);
    // Bytes and strings decode alike.
    assert.equal(decodePemBlocks(Buffer.from(v.input)).length, v.want.length, `vector ${v.id} (bytes)`);
  });
}

test('decodeFirstPemBlock returns the rest after the END line', () => {
  const found = decodeFirstPemBlock(`${block('A')}rest of it`);
  assert.ok(found);
  assert.equal(Buffer.from(found.rest).toString(), 'rest of it');
  assert.equal(decodeFirstPemBlock('no pem here'), undefined);
});

test('a header named __proto__ stays a plain key', () => {
  const [b] = decodePemBlocks(`-----BEGIN A-----\n__proto__: x\n\n${body}\n-----END A-----\n`);
  assert.ok(b);
  assert.equal(Object.getPrototypeOf(b.headers), Object.prototype);
  assert.equal(b.headers['__proto__'], 'x');
});
