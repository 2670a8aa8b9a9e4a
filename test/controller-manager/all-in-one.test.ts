// `plat all` runs the controllers in its own process, through its API server with the admin
// credentials of <data-dir>/pki: no leader election (no Lease), no second HTTPS port, and the
// cluster signing flags (when a signing plugin defines them) pointed at the all-in-one CA unless
// the operator chose signing files.
import assert from 'node:assert/strict';
import { ensureCa } from '../../core/pki/index.js';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { boot } from '../../core/boot.js';
import { silentLogger } from '../../core/log.js';
import { profiles } from '../../host/profiles.js';
import { getControllerManagerServing } from '../../plugins/controller-manager-serving/index.js';
import { freePort, startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { runPlat } from '../helpers/run-plat.js';
import testControllers, { labelOf } from './fixtures/test-controllers.js';
import { until } from './support.js';

describe('plat all runs the controller manager', () => {
  let plat: RunningPlat;
  before(async () => { plat = await startInProcess({ plugins: [testControllers({ id: 'all-in-one' })] }); });
  after(async () => { await plat?.stop(); });

  it('runs the enabled controllers through its own API server', async () => {
    await until(async () => {
      const labels = (await plat.admin.get('/api/v1/namespaces/default')).json.metadata.labels ?? {};
      return labels[labelOf('marker-a')] === 'all-in-one' && labels[labelOf('marker-b')] === 'all-in-one';
    }, 'the markers label the namespace');
    const plain = (await plat.admin.get('/api/v1/namespaces/plat-system')).json.metadata.labels ?? {};
    assert.equal(plain[labelOf('marker-c')], undefined, 'off-by-default controllers stay off');
  });

  it('elects no leader and serves no endpoint of its own', async () => {
    const lease = await plat.admin.get('/apis/coordination.platform/v1/namespaces/plat-system/leases/plat-controller-manager');
    assert.equal(lease.status, 404);
    assert.equal(getControllerManagerServing(plat.host!), undefined);
  });

  it('points the cluster signing flags at its CA unless signing files are chosen', async () => {
    const bootAll = async (args: string[]) => {
      const dataDir = tempDir();
      const { host, flags } = await boot({
        profile: { ...profiles['all']!, plugins: profiles['all']!.plugins },
        argv: ['--data-dir', dataDir, '--secure-port', String(await freePort()), ...args], cwd: dataDir, logger: silentLogger, version: '0.0.0-test',
      });
      await host.hooks.shutdown.promise();
      return { flags, pki: path.join(dataDir, 'pki') };
    };
    const defaults = await bootAll([]);
    assert.equal(defaults.flags.get('cluster-signing-cert-file'), path.join(defaults.pki, 'ca.crt'));
    assert.equal(defaults.flags.get('cluster-signing-key-file'), path.join(defaults.pki, 'ca.key'));
    assert.equal(defaults.flags.isSetByOperator('cluster-signing-cert-file'), false);
    // Legacy tokens as kubeadm sets them up: the issuer's key signs them, the CA goes into ca.crt.
    assert.equal(defaults.flags.get('service-account-private-key-file'), path.join(defaults.pki, 'sa.key'));
    assert.equal(defaults.flags.get('root-ca-file'), path.join(defaults.pki, 'ca.crt'));
    const nodeClientCa = await ensureCa(tempDir(), 'nodeagent-client-ca');
    const chosen = await bootAll([`--cluster-signing-nodeagent-client-cert-file=${nodeClientCa.certFile}`, `--cluster-signing-nodeagent-client-key-file=${nodeClientCa.keyFile}`]);
    assert.equal(chosen.flags.get('cluster-signing-cert-file'), '');
    assert.equal(chosen.flags.get('cluster-signing-nodeagent-client-cert-file'), nodeClientCa.certFile);
  });

  it('takes the controller flags but not the controller manager\'s connection or endpoint flags', () => {
    const help = runPlat(['all', '--help']);
    assert.equal(help.code, 0);
    for (const f of ['--controllers', '--leader-elect', '--controller-shutdown-timeout', '--min-resync-period', '--cluster-signing-cert-file']) assert.ok(help.stdout.includes(f), f);
    for (const f of ['--platconfig', '--authorization-kubeconfig', '--authentication-skip-lookup']) assert.ok(!help.stdout.includes(f), f);
    const r = runPlat(['all', '--data-dir', tempDir(), '--platconfig=/x.conf']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /unknown flag: --platconfig/);
  });
});
