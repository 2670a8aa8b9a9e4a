// Hostile input for the crypto entry points, bounded for `npm test` (`npm run fuzz` runs longer):
// the regression corpus, then mutated CSRs and certificates (bit flips, truncation, length
// inflation, huge lengths, deep nesting, PEM damage). Every case must return a result or throw
// CryptoError — no other exception, no abort of the WASM core, no unbounded memory.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { wasm } from '../../core/crypto/wasm/instance.js';
import { campaign } from './campaign.js';
import { runTarget } from './targets.js';

const corpusDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../test/fuzz/corpus');

describe('fuzzing the crypto entry points', () => {
  it('the regression corpus', () => {
    const files = readdirSync(corpusDir).filter((f) => f.endsWith('.bin'));
    assert.ok(files.length > 0, 'the corpus has cases');
    for (const f of files) {
      const target = f.startsWith('csr-') ? 'csr' : 'certificate-pem';
      const finding = runTarget(target, new Uint8Array(readFileSync(path.join(corpusDir, f))));
      assert.equal(finding, undefined, `${f}: ${String(finding?.error)}`);
    }
  });

  it('3000 mutated inputs', () => {
    const findings: string[] = [];
    const { runs } = campaign(0xf022, 3000, (f) => findings.push(`#${f.iteration} ${f.target}: ${(f.error as Error)?.stack ?? String(f.error)}`));
    assert.equal(runs, 3000);
    assert.deepEqual(findings, []);
    assert.ok(wasm().memory.buffer.byteLength <= 64 * 1024 * 1024, 'the WASM arena stays bounded');
  });
});
