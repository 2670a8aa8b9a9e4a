// Pieces of the legacy TLS bootstrap (k8s-behaviour §5.1, §5.4 item 5) that the end-to-end test
// does not reach: keyutil.LoadOrGenerateKeyFile's key file (made 0600 as SEC1, read back as it is,
// a file holding no key refused in upstream's words) and waitForServer, which gives up on an API
// server that never answers with upstream's lines and no error. No server is started.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { loadOrGenerateKeyFile } from '../../../core/client/certificate/key-file.js';
import { RestClient } from '../../../core/client/rest-client.js';
import { createLogger } from '../../../core/log.js';
import { waitForServer } from '../../../plugins/nodeagent-identity/wait-for-server.js';

describe('legacy bootstrap key file (LoadOrGenerateKeyFile)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'plat-legacy-key-'));

  it('makes a P-256 key 0600 (SEC1) in a new private directory, then reads the same one back', () => {
    const file = path.join(dir, 'pki', 'nodeagent-client.key.tmp');
    const made = loadOrGenerateKeyFile(file);
    assert.equal(made.generated, true);
    assert.match(made.keyPem, /^-----BEGIN EC PRIVATE KEY-----/);
    assert.equal(made.key.asymmetricKeyDetails?.namedCurve, 'prime256v1');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(statSync(path.dirname(file)).mode & 0o777, 0o700);
    const again = loadOrGenerateKeyFile(file);
    assert.equal(again.generated, false);
    assert.equal(again.keyPem, readFileSync(file, 'utf8'));
    assert.equal(again.keyPem, made.keyPem);
  });

  it('refuses a file that holds no key, as upstream (its nil error printed as <nil>)', () => {
    const file = path.join(dir, 'garbage.key.tmp');
    writeFileSync(file, 'not a key\n');
    assert.throws(() => loadOrGenerateKeyFile(file), { message: `error loading key from ${file}: <nil>` });
    assert.equal(readFileSync(file, 'utf8'), 'not a key\n', 'left as it was');
  });
});

describe('legacy bootstrap waitForServer', () => {
  it('logs each failed /healthz and gives up at the deadline without an error', async () => {
    const lines: string[] = [];
    const log = createLogger({ verbosity: 2, write: (l) => lines.push(l) });
    // Port 1: nothing listens there (not a port just freed, which another test may take).
    const client = new RestClient({ server: new URL('https://127.0.0.1:1'), insecureSkipTlsVerify: true }, { qps: 0 });
    try {
      const ok = await waitForServer(client, log, new AbortController().signal, { deadlineMs: 300, random: () => 0 });
      assert.equal(ok, false);
    } finally {
      client.close();
    }
    assert.ok(lines.some((l) => l.includes('Failed to connect to apiserver err="Get \\"https://127.0.0.1:1/healthz?timeout=1s\\": dial tcp 127.0.0.1:1: connect: connection refused"')), lines.join('\n'));
    assert.match(lines.at(-1) ?? '', /Error waiting for apiserver to come up err="timed out waiting to connect to apiserver"/);
  });

  it('stops at once, saying nothing, when the agent stops', async () => {
    const lines: string[] = [];
    const client = new RestClient({ server: new URL('https://127.0.0.1:1'), insecureSkipTlsVerify: true }, { qps: 0 });
    const stop = new AbortController();
    stop.abort();
    try {
      assert.equal(await waitForServer(client, createLogger({ write: (l) => lines.push(l) }), stop.signal), false);
    } finally {
      client.close();
    }
    assert.deepEqual(lines, []);
  });
});
