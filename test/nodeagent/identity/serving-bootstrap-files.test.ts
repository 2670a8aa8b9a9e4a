// serverTLSBootstrap with tlsCertFile/tlsPrivateKeyFile, as upstream's NewMainKubelet takes them:
// the certificate manager wins, and the given files are only its store's fallback pair. The port
// serves that pair first; since it does not fit the node's template (CN system:node:<name>, the
// node's IP) a serving CSR is sent at once, and once it is approved the port serves the issued
// certificate. Real processes (`plat` in-process, `plat nodeagent` as a child) on 127.0.0.1.
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { until } from '../../controller-manager/support.js';
import { createBootstrapToken } from '../../helpers/bootstrap-token.js';
import { makeCa, makeServingCert, writeCertKeyFiles } from '../../helpers/certs.js';
import { agentDirs, hostIpv4, startAgent, type AgentProcess } from '../../helpers/nodeagent-process.js';
import { startInProcess, tempDir, type RunningPlat } from '../../helpers/plat.js';
import { runPlatAsync } from '../../helpers/run-plat.js';
import { servedCertificate } from '../../helpers/tls-probe.js';

const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';

describe('node agent serving certificate: serverTLSBootstrap with tlsCertFile and tlsPrivateKeyFile', () => {
  let plat: RunningPlat;
  let agent: AgentProcess | undefined;
  before(async () => { plat = await startInProcess({ args: ['--enable-bootstrap-token-auth'] }); });
  after(async () => { await agent?.stop(); await plat?.stop(); });

  it('serves the given pair until a serving CSR is approved, then the issued certificate', { timeout: 120_000 }, async () => {
    const root = tempDir('plat-serving-bootstrap-files-');
    const ca = makeCa({ commonName: 'operator-ca' });
    const given = makeServingCert(ca, ['localhost'], ['127.0.0.1']);
    const [certFile, keyFile] = writeCertKeyFiles(root, 'operator', given).split(',') as [string, string];
    const dirs = await agentDirs(path.join(root, 'sb1'), plat.url, path.join(plat.dataDir, 'pki', 'ca.crt'), await createBootstrapToken(plat.admin),
      { serverTLSBootstrap: true, tlsCertFile: certFile, tlsPrivateKeyFile: keyFile });
    agent = startAgent(dirs, 'sb1', ['--node-ip', hostIpv4()]);

    const first = await until(() => servedCertificate(dirs.port), 'the secure port to serve');
    assert.equal(first.fingerprint256, new X509Certificate(given.certificatePem).fingerprint256, 'the given pair is served first');

    const serving = await until(async () => ((await plat.admin.get(CSRS)).json.items as any[])
      .find((c) => c.spec.signerName === 'platform/nodeagent-serving' && c.spec.username === 'system:node:sb1'), 'a serving CSR', 600);
    // FileStore.Current's second place, logged as it is read.
    assert.match(agent.output(), new RegExp(`Loading cert/key pair from \\(\\\\?"${certFile}\\\\?", \\\\?"${keyFile}\\\\?"\\)`));
    const approve = await runPlatAsync(['csr', 'approve', serving.metadata.name, '--kubeconfig', plat.kubeconfig]);
    assert.equal(approve.code, 0, approve.stderr);

    const issued = await until(async () => {
      const c = await servedCertificate(dirs.port);
      return c.subject.includes('CN=system:node:sb1') && c;
    }, 'the issued certificate on the same port', 300);
    assert.ok((issued.subjectAltName ?? '').includes(`IP Address:${hostIpv4()}`), issued.subjectAltName);
    assert.ok(existsSync(path.join(dirs.certDir, 'nodeagent-server-current.pem')), 'the issued pair is stored in --cert-dir');
  });
});
