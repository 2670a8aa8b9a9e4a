// The node agent without tlsCertFile or serverTLSBootstrap: an operator's own pair in --cert-dir
// (nodeagent.crt/.key, made by openssl) is served after a restart and never overwritten; with
// ReloadKubeletServerCertificateFile on (its default) a pair renamed over the files goes to the next
// handshake, as upstream's InitializeTLS names them as kc.TLSCertFile and the dynamic file manager
// follows them; a mismatched pair is an error naming both files. The identity and server subsystems
// on 127.0.0.1 with real files; waits are bounded, nothing is timed.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { Flags } from '../../../core/flags/flag-set.js';
import { runServingIdentity } from '../../../plugins/nodeagent-identity/serving-identity.js';
import { tempDir } from '../../helpers/plat.js';
import { opensslServingPair, pairOnDisk, renameOperatorPair, writeOperatorPair } from '../../helpers/operator-pair.js';
import { servedCertificate } from '../../helpers/tls-probe.js';
import { Logs, until } from '../../csrsigning/support.js';
import { serverConfig, startServer, waitForPort } from '../server/support.js';

const PAIR = 'nodeagent';

describe('node agent identity: an operator\'s pair in --cert-dir', () => {
  const stops: (() => Promise<void>)[] = [];
  after(async () => { for (const s of stops.splice(0)) await s(); });

  /** The server and identity subsystems with --cert-dir `certDir`; `identity` settles when runServingIdentity does. */
  async function start(certDir: string) {
    const flags = new Flags();
    flags.define({ name: 'cert-dir', type: 'string', section: '', help: '' });
    flags.parse(['--cert-dir', certDir]);
    const logs = new Logs();
    const server = await startServer({ flags, logger: logs.logger, config: await serverConfig() });
    const abort = new AbortController();
    const identity = runServingIdentity(server.ctx, {}, abort.signal);
    identity.catch(() => {});
    const stop = async () => { abort.abort(); await identity.catch(() => {}); await server.stop(); };
    stops.push(stop);
    return { port: server.port, logs, identity, ready: () => waitForPort(server.port, Promise.race([server.done, identity])), stop };
  }

  it('is served after a restart, not overwritten, and a pair renamed over it goes to the next handshake', async () => {
    const certDir = tempDir();
    const first = await start(certDir);
    await first.ready();
    await first.stop();
    assert.ok(first.logs.has('Generated self-signed cert ('), first.logs.lines.join('\n'));

    const [a, b] = [opensslServingPair('operator-a.example'), opensslServingPair('operator-b.example')];
    writeOperatorPair(certDir, PAIR, a);
    const agent = await start(certDir);
    await agent.ready();
    assert.deepEqual(pairOnDisk(certDir, PAIR), { cert: a.cert, key: a.key }, 'the operator\'s files are as written');
    assert.equal((await servedCertificate(agent.port)).fingerprint256, a.fingerprint);
    const [crt, key] = [path.join(certDir, `${PAIR}.crt`), path.join(certDir, `${PAIR}.key`)];
    assert.ok(agent.logs.has(`Using serving cert/key pair (${crt}, ${key}) for CN=operator-a.example`), agent.logs.lines.join('\n'));
    assert.ok(!agent.logs.has('Generated self-signed cert'), agent.logs.lines.join('\n'));

    renameOperatorPair(certDir, PAIR, b);
    await until(async () => (await servedCertificate(agent.port)).fingerprint256 === b.fingerprint, 'the renamed pair to be served');
    assert.ok(agent.logs.loads('Loaded a new cert/key pair', `nodeagent-server-cert-files::${crt}::${key}`) >= 2, agent.logs.lines.join('\n'));
  });

  it('whose key does not match its certificate is an error naming both files, which are kept', async () => {
    const certDir = tempDir();
    const mismatched = { cert: opensslServingPair('operator.example').cert, key: opensslServingPair('other.example').key };
    writeOperatorPair(certDir, PAIR, mismatched);
    const [crt, key] = [path.join(certDir, `${PAIR}.crt`), path.join(certDir, `${PAIR}.key`)];
    const agent = await start(certDir);
    await assert.rejects(agent.identity, { message: `${crt} and ${key}: tls: private key does not match public key (a pair plat did not make is never replaced: fix both files or remove them)` });
    assert.deepEqual(pairOnDisk(certDir, PAIR), mismatched);
  });
});
