// generateKeyPair's KeyObject survives what the WASM signers do with it, a JWK export, under
// garbage collection: Node 20 deadlocks (the process hangs for ever, a futex in ~KeyGenJob under
// ExportJWK) when the export of a key straight from generateKeyPairSync meets the collection of its
// generation job — within ~1,500 P-256 keys in a loop. A child process, so that a hang is a
// bounded failure, not a hung suite. A hang is told from a slow machine by progress: the child
// reports every 500 keys, and only a child that reports nothing for a minute is taken as hung
// (20,000 keys take ~20 s of CPU, over 100 s of wall time at a load of 10 on 2 cores).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { it } from 'node:test';

const keysModule = fileURLToPath(new URL('../../core/crypto/keys.js', import.meta.url));
const STALL_MS = 60_000;

it('20,000 generated keys exported as JWK under allocation pressure: no deadlock', async () => {
  const child = spawn(process.execPath, ['--input-type=module', '-e', `
    const { generateKeyPair } = await import(${JSON.stringify(keysModule)});
    let junk = [];
    for (let i = 1; i <= 20000; i++) {
      generateKeyPair(i % 2 ? 'ecdsa-p256' : 'ed25519').keyObject.export({ format: 'jwk' });
      junk.push(new Array(50).fill(i));
      if (junk.length > 1000) junk = [];
      if (i % 500 === 0) console.log(i);
    }
    console.log('done');
  `], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let hung = false;
  let stall = setTimeout(() => { hung = true; child.kill('SIGKILL'); }, STALL_MS);
  child.stdout.setEncoding('utf8').on('data', (s: string) => {
    stdout += s;
    clearTimeout(stall);
    stall = setTimeout(() => { hung = true; child.kill('SIGKILL'); }, STALL_MS);
  });
  child.stderr.setEncoding('utf8').on('data', (s: string) => { stderr += s; });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearTimeout(stall);
  const lines = stdout.trim().split('\n');
  assert.equal(hung, false, `the child stopped making progress after ${lines.at(-1) ?? 0} keys and was killed (deadlock)`);
  assert.equal(code, 0, stderr);
  assert.equal(lines.at(-1), 'done', stderr);
});
