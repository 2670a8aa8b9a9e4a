// Deadlines that must fire even when the garbage collector runs: on Node 20 a signal of
// AbortSignal.timeout held only by AbortSignal.any can be collected before it fires
// (nodejs/node#57736), so a node agent's one-minute wait for its API server never ended and a
// webhook call could outlive its timeout. Each case runs in a child `node --expose-gc` that
// collects every 50 ms, against a peer that never answers.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';

const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Runs `body` (an ES module's text) in `node --expose-gc`; its stdout. */
function runWithGc(body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', '--input-type=module', '-e', `setInterval(() => globalThis.gc(), 50).unref();\n${body}`], { cwd: DIST });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => { out += c; });
    child.stderr.on('data', (c) => { err += c; });
    // The child's own bound: past it, the deadline under test never fired.
    const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.on('exit', (code, sig) => {
      clearTimeout(kill);
      if (code === 0) resolve(out.trim());
      else reject(new Error(`child ${sig ?? code}: ${err || out}`));
    });
  });
}

describe('timeouts under garbage collection', () => {
  it('the node agent\'s wait for its API server ends at its deadline', async () => {
    const out = await runWithGc(`
      const { waitForServer } = await import('${DIST}/plugins/nodeagent-identity/wait-for-server.js');
      const log = { info() {}, v: () => ({ info() {} }) };
      const client = { request: async () => { throw new Error('Unauthorized'); } };
      const t0 = Date.now();
      const ok = await waitForServer(client, log, new AbortController().signal, { deadlineMs: 1000, random: () => 0 });
      console.log(JSON.stringify({ ok, ms: Date.now() - t0 }));
    `);
    const { ok, ms } = JSON.parse(out);
    assert.equal(ok, false);
    assert.ok(ms < 6000, `${ms} ms`);
  });

  it("a webhook call with a caller's context ends at its timeout", async () => {
    const out = await runWithGc(`
      const http = await import('node:http');
      const { WebhookClient } = await import('${DIST}/core/client/webhook-client.js');
      const server = http.createServer(() => {});
      await new Promise((r) => server.listen(0, '127.0.0.1', r));
      const client = new WebhookClient({ connection: { server: new URL('http://127.0.0.1:' + server.address().port + '/'), insecureSkipTlsVerify: false },
        backoff: { initialMs: 1, factor: 1, jitter: 0, steps: 1 }, timeoutMs: 500 });
      const t0 = Date.now();
      let err = '';
      try { await client.post('{}', new AbortController().signal); } catch (e) { err = e.message; }
      console.log(JSON.stringify({ err, ms: Date.now() - t0 }));
      server.closeAllConnections();
      server.close();
    `);
    const { err, ms } = JSON.parse(out);
    assert.match(err, /deadline exceeded|Timeout/i);
    assert.ok(ms < 6000, `${ms} ms`);
  });
});
