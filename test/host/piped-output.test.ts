// plat's output into a pipe whose reader is slower than plat: all of it arrives. Node writes to a
// pipe asynchronously, and an exit right after the write cut it at the pipe's buffer (64 KiB), so
// `plat all --help | less` lacked its last flags. The reader here starts late, so the pipe is full
// when plat is done writing.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { platBin } from '../helpers/plat.js';
import { runPlat } from '../helpers/run-plat.js';

const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

describe('output into a pipe', () => {
  it('plat all --help arrives whole through a pipe read late', () => {
    const whole = runPlat(['all', '--help']);
    assert.equal(whole.code, 0, whole.stderr);
    assert.ok(Buffer.byteLength(whole.stdout) > 65536, 'more than a pipe buffer of help');
    const piped = spawnSync('sh', ['-c', `${quote(process.execPath)} ${quote(platBin)} all --help | (sleep 0.5; cat)`], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(piped.status, 0, piped.stderr);
    assert.equal(piped.stdout.length, whole.stdout.length);
    assert.equal(piped.stdout, whole.stdout);
  });
});
