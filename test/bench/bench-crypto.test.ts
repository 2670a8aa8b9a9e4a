// `plat bench crypto` as a user runs it, briefly: it exits 0, prints the table and issue 3's target
// ratios, writes JSON rows of the documented shape (a positive rate on every available row) and a
// well-formed SVG with one bar per available row. No timing assertions: figures vary by machine.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { platBin, repoRoot, tempDir } from '../helpers/plat.js';

interface Row {
  op: string;
  impl: string;
  keyType: string;
  opsPerSec: number | null;
  usPerOp: number | null;
  workers?: number;
  backend: string;
  unavailable?: string;
}

const OPS = ['parse', 'verify', 'pem-validate', 'sign', 'issue'];

function bench(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [platBin, 'bench', 'crypto', ...args], { cwd: repoRoot, encoding: 'utf8', timeout: 180_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Well-formedness, enough for our own output: balanced tags, quoted attributes, escaped text. */
function assertWellFormedXml(xml: string): void {
  const body = xml.replace(/^<\?xml [^?]*\?>\s*/, '');
  const stack: string[] = [];
  const token = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>|([^<]+)|(<)/g;
  let roots = 0;
  for (const m of body.matchAll(token)) {
    const [, close, name, , selfClose, text, stray] = m;
    if (stray !== undefined) assert.fail(`malformed tag at ${m.index}: ${body.slice(m.index, m.index + 40)}`);
    if (text !== undefined) {
      assert.ok(stack.length > 0 || text.trim() === '', `text outside the root element: ${text.slice(0, 40)}`);
      assert.doesNotMatch(text, /&(?!(amp|lt|gt|quot|apos|#\d+);)/, `unescaped & in ${text.slice(0, 40)}`);
      continue;
    }
    if (close) {
      assert.equal(stack.pop(), name, `</${name}> closes the wrong element`);
    } else if (!selfClose) {
      if (stack.length === 0) roots++;
      stack.push(name!);
    } else if (stack.length === 0) {
      roots++;
    }
  }
  assert.deepEqual(stack, [], 'unclosed elements');
  assert.equal(roots, 1, 'one root element');
}

function checkRows(rows: Row[]): Row[] {
  assert.ok(Array.isArray(rows) && rows.length > 0, 'a non-empty array');
  for (const r of rows) {
    const id = `${r.op} ${r.impl} ${r.keyType}`;
    assert.ok(OPS.includes(r.op), `op of ${id}`);
    assert.ok(['p256', 'ed25519'].includes(r.keyType), `keyType of ${id}`);
    assert.equal(typeof r.impl, 'string');
    if (r.unavailable === undefined) {
      assert.ok(typeof r.opsPerSec === 'number' && r.opsPerSec > 0, `opsPerSec of ${id}: ${r.opsPerSec}`);
      assert.ok(typeof r.usPerOp === 'number' && r.usPerOp > 0, `usPerOp of ${id}`);
      assert.ok(r.backend.length > 0, `backend of ${id}`);
    } else {
      assert.equal(r.opsPerSec, null, id);
      assert.equal(r.usPerOp, null, id);
      assert.ok(r.unavailable.length > 0, id);
    }
  }
  return rows.filter((r) => r.unavailable === undefined);
}

describe('plat bench crypto', () => {
  it('measures every op and implementation, prints the ratios, writes JSON and SVG', () => {
    const dir = tempDir();
    const json = path.join(dir, 'bench.json');
    const svg = path.join(dir, 'bench.svg');
    const r = bench(['--seconds', '0.05', '--json', json, '--svg', svg]);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /\[[#.]{30}\]/, 'no progress bar when stderr is not a terminal');
    assert.match(r.stdout, /\| op +\| impl +\| key +\| +ops\/s \| +µs\/op \| backend +\|/);
    for (const label of ['wasm on one core / OpenSSL limit', '@peculiar/x509 + webcrypto', 'wasm / asn1js', 'P-256 sign, wasm / OpenSSL']) {
      assert.match(r.stdout, new RegExp(`${label.replace(/[/+.]/g, '\\$&')}: ratio (\\d+\\.\\d\\d \\(target [\\d.]+\\) (met|missed)|n/a \\(target [\\d.]+\\) not measured)`));
    }

    const rows = JSON.parse(readFileSync(json, 'utf8')) as Row[];
    const available = checkRows(rows);
    for (const op of OPS) {
      for (const keyType of ['p256', 'ed25519']) {
        assert.ok(available.some((x) => x.op === op && x.impl === 'native' && x.keyType === keyType), `native ${op} ${keyType} measured`);
      }
    }
    for (const impl of ['wasm', 'peculiar-x509', 'noble', 'asn1js']) assert.ok(rows.some((x) => x.impl === impl), `${impl} rows present`);
    assert.ok(rows.every((x) => x.workers === undefined), 'no worker rows without --workers');

    const chart = readFileSync(svg, 'utf8');
    assertWellFormedXml(chart);
    assert.match(chart, /<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    assert.equal(chart.match(/<rect class="bar"/g)?.length ?? 0, available.length, 'one bar per available row');
  });

  it('--workers adds summed worker-pool rows for issue; --ops and --impls select rows', () => {
    const dir = tempDir();
    const json = path.join(dir, 'pool.json');
    const r = bench(['--seconds', '0.05', '--workers', '2', '--ops', 'issue', '--impls', 'wasm,native', '--json', json]);
    assert.equal(r.code, 0, r.stderr);
    const rows = JSON.parse(readFileSync(json, 'utf8')) as Row[];
    checkRows(rows);
    assert.ok(rows.every((x) => x.op === 'issue' && (x.impl === 'wasm' || x.impl === 'native')));
    const pooled = rows.filter((x) => x.workers === 2);
    assert.equal(pooled.length, 4, 'wasm and native (as selected), P-256 and Ed25519');
    assert.ok(pooled.some((x) => x.impl === 'native' && x.opsPerSec !== null && x.opsPerSec > 0));
  });

  it('refuses unknown ops and implementations with exit code 2', () => {
    const r = bench(['--ops', 'parse,frobnicate']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /frobnicate/);
    assert.equal(bench(['--impls', 'libressl']).code, 2);
  });
});
