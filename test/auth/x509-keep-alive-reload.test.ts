// A keep-alive connection's client certificate is verified once and remembered
// (core/authn/x509/verified-chains.ts); a --client-ca-file rewritten while the connection stays
// open must still decide its next request. Real plat, real TLS on 127.0.0.1, real files; waits are
// bounded, nothing is timed.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { verifiedChains } from '../../core/authn/x509/verified-chains.js';
import { makeCa, makeClientCert, type TestCredential } from '../helpers/certs.js';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { Logs, until } from '../csrsigning/support.js';

interface Answer { readonly status: number; readonly reused: boolean; readonly localPort: number }

/** GET /api over `agent` (one keep-alive socket), presenting `client`. */
function get(port: number, agent: Agent, client: TestCredential): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1', port, path: '/api', method: 'GET', agent, rejectUnauthorized: false,
      cert: client.certificatePem, key: client.privateKeyPem,
    }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, reused: req.reusedSocket, localPort: req.socket?.localPort ?? 0 }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('client CA file rewritten under an open keep-alive connection', () => {
  const dir = tempDir();
  const [caA, caB] = [makeCa({ commonName: 'client-ca-a' }), makeCa({ commonName: 'client-ca-b' })];
  const alice = makeClientCert(caA!, 'alice');
  const bob = makeClientCert(caB!, 'bob');
  const caFile = path.join(dir, 'client-ca.crt');
  writeFileSync(caFile, caA!.certificatePem + caB!.certificatePem);
  const logs = new Logs();
  const agents = [new Agent({ keepAlive: true, maxSockets: 1 }), new Agent({ keepAlive: true, maxSockets: 1 })];
  let plat: RunningPlat;
  let port: number;

  before(async () => {
    plat = await startInProcess({ logger: logs.logger, args: ['--v=2', `--client-ca-file=${caFile}`] });
    port = Number(new URL(plat.url).port);
  });
  after(async () => {
    for (const a of agents) a.destroy();
    await plat.stop();
  });

  it('refuses the next request of the same connection once its CA is taken out, and keeps the other', async () => {
    const [forBob, forAlice] = agents as [Agent, Agent];
    const remembered = verifiedChains.size;
    const first = await get(port, forBob, bob);
    assert.notEqual(first.status, 401, 'bob authenticates while his CA is in the file');
    assert.ok(verifiedChains.size > remembered, 'the connection\'s verified chain is remembered');
    const again = await get(port, forBob, bob);
    assert.ok(again.reused && again.localPort === first.localPort, 'the second request went over the same connection');
    assert.notEqual(again.status, 401);
    assert.notEqual((await get(port, forAlice, alice)).status, 401);

    const loads = () => logs.loads('Loaded a new CA Bundle and Verifier', `client-ca-bundle::${caFile}`);
    const loaded = loads();
    writeFileSync(caFile, caA!.certificatePem);
    await until(() => loads() > loaded, 'the rewritten bundle to be loaded');

    const after = await get(port, forBob, bob);
    assert.ok(after.reused && after.localPort === first.localPort, 'the request after the reload went over the same connection');
    assert.equal(after.status, 401, 'the removed CA no longer authenticates on the open connection');
    const aliceAfter = await get(port, forAlice, alice);
    assert.ok(aliceAfter.reused, 'alice\'s connection stayed open');
    assert.notEqual(aliceAfter.status, 401, 'the CA left in the file still authenticates');
  });
});
