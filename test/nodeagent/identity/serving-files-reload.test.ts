// tlsCertFile/tlsPrivateKeyFile are watched while the agent runs with ReloadKubeletServerCertificateFile
// on (its default; upstream's NewKubeletServerCertificateDynamicFileManager): a rewritten pair is
// served to new handshakes on the same port, a mismatched one is logged and the current pair kept.
// With the gate off they are read once. The identity and server subsystems run together on
// 127.0.0.1 with real files; waits are bounded, nothing is timed.
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { Flags } from '../../../core/flags/flag-set.js';
import { runServingIdentity } from '../../../plugins/nodeagent-identity/serving-identity.js';
import { makeCa, makeServingCert, writeCertKeyFiles, type TestCredential } from '../../helpers/certs.js';
import { tempDir } from '../../helpers/plat.js';
import { servedCertificate } from '../../helpers/tls-probe.js';
import { Logs, until } from '../../csrsigning/support.js';
import { serverConfig, startServer, waitForPort, type RunningServer } from '../server/support.js';

describe('node agent identity: tlsCertFile and tlsPrivateKeyFile changed while running', () => {
  const ca = makeCa({ commonName: 'serving-ca' });
  const [first, second, third] = [0, 1, 2].map(() => makeServingCert(ca, ['localhost'], ['127.0.0.1'])) as [TestCredential, TestCredential, TestCredential];
  const stops: (() => Promise<void>)[] = [];
  after(async () => { for (const s of stops) await s(); });

  /** The server and identity subsystems on one context; `identity` settles when runServingIdentity returns. */
  async function start(featureGates: Record<string, boolean> = {}) {
    const dir = tempDir();
    const [certFile, keyFile] = writeCertKeyFiles(dir, 'serving', first).split(',') as [string, string];
    const flags = new Flags();
    flags.define({ name: 'cert-dir', type: 'string', section: '', help: '' });
    const logs = new Logs();
    const server: RunningServer = await startServer({
      flags, logger: logs.logger, config: await serverConfig({ tlsCertFile: certFile, tlsPrivateKeyFile: keyFile, featureGates }),
    });
    const stop = new AbortController();
    let returned = false;
    const identity = runServingIdentity(server.ctx, {}, stop.signal).then(() => { returned = true; });
    stops.push(async () => { stop.abort(); await identity; await server.stop(); });
    await waitForPort(server.port, server.done);
    const serves = async (cred: TestCredential) => (await servedCertificate(server.port)).fingerprint256 === new X509Certificate(cred.certificatePem).fingerprint256;
    const rewrite = (cred: TestCredential) => {
      writeFileSync(keyFile, cred.privateKeyPem);
      writeFileSync(certFile, cred.certificatePem);
    };
    return { certFile, keyFile, logs, identity, returned: () => returned, serves, rewrite };
  }

  it('serves a rewritten pair to new handshakes and keeps it when the files are rewritten mismatched', async () => {
    const a = await start();
    assert.ok(await a.serves(first), 'the first pair is served');
    const loads = () => a.logs.loads('Loaded a new cert/key pair', `nodeagent-server-cert-files::${a.certFile}::${a.keyFile}`);
    assert.equal(loads(), 1, `the start-up pair is logged as loaded:\n${a.logs.lines.join('\n')}`);
    a.rewrite(second);
    await until(() => a.serves(second), 'the rewritten pair to be served');
    assert.ok(loads() >= 2, a.logs.lines.join('\n'));

    writeFileSync(a.keyFile, third.privateKeyPem);
    await until(() => a.logs.has('key failed with : tls: private key does not match public key'), 'the mismatched pair to be refused');
    assert.ok(await a.serves(second), 'the current pair is still served');
    writeFileSync(a.certFile, third.certificatePem);
    await until(() => a.serves(third), 'the pair made whole again to be served');
    assert.equal(a.returned(), false, 'the identity subsystem keeps watching');
  });

  it('reads the files once with ReloadKubeletServerCertificateFile off', async () => {
    const a = await start({ ReloadKubeletServerCertificateFile: false });
    await a.identity;
    assert.ok(a.returned(), 'nothing is left running to watch the files');
    a.rewrite(second);
    assert.ok(await a.serves(first));
  });
});
