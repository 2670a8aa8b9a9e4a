// The certificate managers' metrics of a real agent (booted in-process, rotation jitter fixed at
// 0.7) against `plat all` without its auto-approver, certificates living 2m20s (+5 min backdated):
// a denied client or serving CSR counts one renewal error of its manager and leaves its TTL +Inf;
// once approved, the TTL is the seconds to the stored certificate's NotAfter (checked against the
// test's own clock readings around the scrape, not against any speed); the serving certificate's
// rotation 8 s later observes the age of the one it replaced. Scraped on the read-only port, the
// whole exposition read by the strict parser.
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { until } from '../../controller-manager/support.js';
import { createBootstrapToken } from '../../helpers/bootstrap-token.js';
import { parseExposition, sampleValue, type ParsedFamily } from '../../helpers/exposition-parser.js';
import { agentDirs, hostIpv4 } from '../../helpers/nodeagent-process.js';
import { startAgentInProcess, type InProcessAgent } from '../../helpers/nodeagent-inprocess.js';
import { freePort, startInProcess, tempDir, type RunningPlat } from '../../helpers/plat.js';
import { identityPlugin } from '../../../plugins/nodeagent-identity/index.js';
import { request } from '../server/support.js';

const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';
const CLIENT_SIGNER = 'platform/apiserver-client-nodeagent';
const SERVING_SIGNER = 'platform/nodeagent-serving';
const CLIENT_TTL = 'nodeagent_certificate_manager_client_ttl_seconds';
const CLIENT_ERRORS = 'nodeagent_certificate_manager_client_expiration_renew_errors';
const SERVER_TTL = 'nodeagent_certificate_manager_server_ttl_seconds';
const SERVER_ERRORS = 'nodeagent_server_expiration_renew_errors';
const ROTATION = 'nodeagent_certificate_manager_server_rotation_seconds';

describe('node agent certificate manager metrics', () => {
  let plat: RunningPlat;
  let agent: InProcessAgent | undefined;
  const root = tempDir('plat-agent-cert-metrics-');
  before(async () => {
    plat = await startInProcess({ args: ['--enable-bootstrap-token-auth', '--controllers=*,-csrapproving', '--cluster-signing-duration', '2m20s'] });
  });
  after(async () => { await agent?.stop(); await plat?.stop(); });

  it('counts denied CSRs, reports TTLs from the certificates\' NotAfter, and observes the serving rotation', { timeout: 120_000 }, async () => {
    const readOnlyPort = await freePort();
    const dirs = await agentDirs(path.join(root, 'm1'), plat.url, path.join(plat.dataDir, 'pki', 'ca.crt'), await createBootstrapToken(plat.admin),
      { serverTLSBootstrap: true, readOnlyPort });
    agent = await startAgentInProcess(['--config', dirs.config, '--hostname-override', 'm1', '--node-ip', hostIpv4(), '--cert-dir', dirs.certDir,
      '--platconfig', dirs.kubeconfig, '--bootstrap-kubeconfig', dirs.bootstrap], { cwd: dirs.dir, identity: identityPlugin({ random: () => 0 }) });

    const scrape = async (): Promise<Map<string, ParsedFamily>> => {
      const res = await request(readOnlyPort, '/metrics');
      assert.equal(res.status, 200, res.text);
      return parseExposition(res.text);
    };
    const decided = new Set<string>();
    /** The next CSR of `signer` no one has decided on yet. */
    const nextCsr = (signer: string) => until(async () => ((await plat.admin.get(CSRS)).json.items as any[])
      .find((c) => c.spec.signerName === signer && !decided.has(c.metadata.name)), `a ${signer} CSR`, 300);
    const decide = async (csr: any, type: 'Approved' | 'Denied') => {
      decided.add(csr.metadata.name);
      const res = await plat.admin.patch(`${CSRS}/${csr.metadata.name}/approval`,
        [{ op: 'add', path: '/status', value: { conditions: [{ type, status: 'True', reason: 'Test', message: 'by the test' }] } }], 'application/json-patch+json');
      assert.equal(res.status, 200, res.text);
    };
    /** The TTL against the stored certificate: between its NotAfter minus the clock after the scrape, and minus the clock before. */
    const ttlMatches = async (family: string, file: string) => {
      const notAfter = Date.parse(new X509Certificate(readFileSync(path.join(dirs.certDir, file), 'utf8')).validTo);
      const before = Date.now();
      const ttl = sampleValue(await scrape(), family)!;
      const after = Date.now();
      assert.ok(ttl >= Math.trunc((notAfter - after) / 1000) - 1 && ttl <= Math.trunc((notAfter - before) / 1000), `${family} ${ttl}, NotAfter ${new Date(notAfter).toISOString()}`);
      return ttl;
    };

    // The client's bootstrap CSR, denied: one renewal error, no certificate.
    await decide(await nextCsr(CLIENT_SIGNER), 'Denied');
    const afterDenial = await until(async () => { const m = await scrape(); return (sampleValue(m, CLIENT_ERRORS) ?? 0) >= 1 && m; }, 'a client renewal error');
    assert.equal(sampleValue(afterDenial, CLIENT_ERRORS), 1);
    assert.equal(sampleValue(afterDenial, CLIENT_TTL), Infinity);
    assert.equal(afterDenial.get(CLIENT_TTL)!.help, '[ALPHA] Gauge of the TTL (time-to-live) of the node agent\'s client certificate. The value is in seconds until certificate expiry (negative if already expired). If client certificate is invalid or unused, the value will be +INF.');
    assert.equal(afterDenial.get(CLIENT_ERRORS)!.type, 'counter');
    assert.equal(sampleValue(afterDenial, SERVER_TTL), Infinity, 'no serving certificate yet');

    // The retry (2 s later), approved: the TTL is the issued certificate's.
    await decide(await nextCsr(CLIENT_SIGNER), 'Approved');
    await until(async () => Number.isFinite(sampleValue(await scrape(), CLIENT_TTL)) || undefined, 'a finite client TTL', 300);
    assert.ok(await ttlMatches(CLIENT_TTL, 'nodeagent-client-current.pem') > 60);

    // The serving CSR (sent once the node has its client), denied, then its retry approved.
    await decide(await nextCsr(SERVING_SIGNER), 'Denied');
    await until(async () => sampleValue(await scrape(), SERVER_ERRORS) === 1 || undefined, 'a serving renewal error', 300);
    await decide(await nextCsr(SERVING_SIGNER), 'Approved');
    await until(async () => Number.isFinite(sampleValue(await scrape(), SERVER_TTL)) || undefined, 'a finite serving TTL', 300);
    const servingFile = path.join(dirs.certDir, 'nodeagent-server-current.pem');
    const first = new X509Certificate(readFileSync(servingFile, 'utf8'));
    await ttlMatches(SERVER_TTL, 'nodeagent-server-current.pem');
    assert.equal(sampleValue(await scrape(), `${ROTATION}`, {}, `${ROTATION}_count`), 0, 'the first certificate replaced none');

    // Its rotation, at 70% of its life (8 s after issuance), approved: the age of the one replaced.
    await decide(await nextCsr(SERVING_SIGNER), 'Approved');
    const rotated = await until(async () => { const m = await scrape(); return sampleValue(m, ROTATION, {}, `${ROTATION}_count`) === 1 && m; }, 'the rotation observed', 300);
    const stored = Date.now();
    const age = sampleValue(rotated, ROTATION, {}, `${ROTATION}_sum`)!;
    assert.ok(age > 0 && age <= (stored - Date.parse(first.validFrom)) / 1000, `age ${age}`);
    assert.equal(sampleValue(rotated, ROTATION, { le: '60' }, `${ROTATION}_bucket`), 0, 'over 5 minutes (NotBefore is backdated)');
    assert.equal(sampleValue(rotated, ROTATION, { le: '3600' }, `${ROTATION}_bucket`), 1);
    assert.deepEqual(rotated.get(ROTATION)!.samples.filter((s) => s.name.endsWith('_bucket')).map((s) => s.labels['le']),
      ['60', '3600', '14400', '86400', '604800', '2.592e+06', '7.776e+06', '1.5552e+07', '3.1104e+07', '1.24416e+08', '+Inf']);
    assert.equal(sampleValue(rotated, SERVER_ERRORS), 1, 'the approved ones counted no error');
    await ttlMatches(SERVER_TTL, 'nodeagent-server-current.pem');
    assert.notEqual(new X509Certificate(readFileSync(servingFile, 'utf8')).serialNumber, first.serialNumber);
  });
});
