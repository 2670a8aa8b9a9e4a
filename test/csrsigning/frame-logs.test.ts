// The lines of upstream's certificate controller frame (certificate_controller.go), which each of its
// signing controllers logs under its own name: the cache sync before the workers start, and at
// V(4) each event handled and each sync finished.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { formatDuration, parseDuration } from '../../core/flags/duration.js';
import { APISERVER_CLIENT_SIGNER } from '../../plugins/csrsigning/index.js';
import { makeCa } from '../helpers/certs.js';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { makeCsr, startSigning, submitApproved, until, waitForCertificate, writeCaFiles, type RunningSigning } from './support.js';

const LANE = 'csrsigning-plat-apiserver-client';

describe('csrsigning logs as upstream\'s certificate controller frame', () => {
  let plat: RunningPlat;
  let signing: RunningSigning;

  before(async () => {
    plat = await startInProcess({ args: ['--controllers='] }); // this test runs its own controllers
    const files = writeCaFiles(tempDir(), makeCa({ commonName: 'frame-logs-ca', days: 30 }));
    signing = await startSigning(plat, ['-v=4', '--cluster-signing-cert-file', files.certFile, '--cluster-signing-key-file', files.keyFile]);
  });
  after(async () => { await signing?.stop(); await plat?.stop(); });

  it('waits for the cache of each signer\'s controller, named certificate-<controller>, before its workers', async () => {
    const { lines } = signing.logs;
    await until(() => lines.some((l) => l.includes(`Caches are synced for certificate-${LANE}`)), 'the cache sync line');
    const starting = lines.findIndex((l) => l.includes(`Starting certificate controller name="${LANE}"`));
    const waiting = lines.findIndex((l) => l.includes(`Waiting for caches to sync for certificate-${LANE}`));
    const synced = lines.findIndex((l) => l.includes(`Caches are synced for certificate-${LANE}`));
    assert.ok(starting >= 0 && starting < waiting && waiting < synced, lines.join('\n'));
    for (const lane of ['csrsigning-nodeagent-serving', 'csrsigning-nodeagent-client', 'csrsigning-legacy-unknown']) {
      await until(() => lines.some((l) => l.includes(`Caches are synced for certificate-${lane}`)), `${lane}'s cache sync line`);
    }
  });

  it('logs each event and each finished sync of a CSR at V(4)', async () => {
    await submitApproved(plat.admin, 'frame-logs', makeCsr({ cn: 'frame-logs' }), APISERVER_CLIENT_SIGNER, ['client auth']);
    await waitForCertificate(plat.admin, 'frame-logs');
    const { logs } = signing;
    // Upstream names the old object under `old` on its update line.
    await until(() => logs.count('Updating certificate request old="frame-logs"') >= 2, 'the approval and the certificate as updates');
    const of = (text: string) => logs.lines.filter((l) => l.includes(`${text} csr="frame-logs"`));
    assert.equal(of('Adding certificate request').length, 1, logs.lines.join('\n'));
    assert.ok(of('Adding certificate request')[0]!.includes(LANE), of('Adding certificate request')[0]);
    await until(() => of('Finished syncing certificate request').length >= 2, 'a finished sync for the approval and for the certificate written');
    // elapsedTime as Go prints a time.Duration (`812.345µs`, `12.5ms`): what parses back to the same text.
    for (const line of of('Finished syncing certificate request')) {
      const elapsed = /elapsedTime="([^"]*)"/.exec(line)?.[1] ?? '';
      assert.equal(formatDuration(parseDuration(elapsed)), elapsed, `elapsedTime="${elapsed}" is not a Go duration`);
    }
  });
});
