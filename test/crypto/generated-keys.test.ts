// generateKeyPair's KeyObject survives what the WASM signers do with it, a JWK export, under
// garbage collection: Node 20 deadlocks (the process hangs for ever, a futex in ~KeyGenJob under
// ExportJWK) when the export of a key straight from generateKeyPairSync meets the collection of its
// generation job — within ~1,500 P-256 keys in a loop. A child process, so that a hang is a
// bounded failure, not a hung suite.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { it } from 'node:test';

const keysModule = fileURLToPath(new URL('../../core/crypto/keys.js', import.meta.url));

it('20,000 generated keys exported as JWK under allocation pressure: no deadlock', () => {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', `
    const { generateKeyPair } = await import(${JSON.stringify(keysModule)});
    let junk = [];
    for (let i = 0; i < 20000; i++) {
      generateKeyPair(i % 2 ? 'ecdsa-p256' : 'ed25519').keyObject.export({ format: 'jwk' });
      junk.push(new Array(50).fill(i));
      if (junk.length > 1000) junk = [];
    }
    console.log('done');
  `], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.signal, null, 'the child hung and was killed (deadlock)');
  assert.equal(r.stdout.trim(), 'done', r.stderr);
});
