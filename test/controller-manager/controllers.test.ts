// Which controllers `plat controller-manager` runs and how it stops them, with real controllers
// (test/controller-manager/fixtures) against a real plat: --controllers as upstream reads it (seen
// from the API: the enabled markers label the Namespaces; and from /healthz?verbose: exactly the
// built controllers have a check), a controller that cannot be built ends the process, and one
// that ignores the stop signal gets --controller-shutdown-timeout, then the stop gives up.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { freePort, startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import testControllers, { labelOf, MARKERS } from './fixtures/test-controllers.js';
import { startControllerManager, until, adminKubeconfig, writeKubeconfig, type RunningControllerManager } from './support.js';

describe('controllers run by plat controller-manager', () => {
  let plat: RunningPlat;
  let admin: string;
  before(async () => {
    plat = await startInProcess();
    admin = adminKubeconfig(plat);
  });
  after(async () => { await plat?.stop(); });

  const start = async (id: string, args: string[]) => startControllerManager(
    ['--platconfig', admin, '--leader-elect=false', '--bind-address', '127.0.0.1', '--secure-port', String(await freePort()), ...args],
    [testControllers({ id })],
  );
  const builtChecks = async (cm: RunningControllerManager): Promise<string> => {
    let checks = '';
    await until(async () => (checks = (await cm.anonymous.get('/healthz?verbose')).text).includes('[+]certificatesigningrequest-approving-controller ok'), 'the approver built');
    return checks;
  };
  const labels = async (): Promise<Record<string, string>> => (await plat.admin.get('/api/v1/namespaces/default')).json.metadata.labels ?? {};

  // `*` is every on-by-default controller; the first item naming a controller decides.
  const selections: { controllers?: string; runs: string[] }[] = [
    { runs: ['marker-a', 'marker-b'] },
    { controllers: '*,marker-c', runs: ['marker-a', 'marker-b', 'marker-c'] },
    { controllers: '*,-marker-a', runs: ['marker-b'] },
    { controllers: '-marker-a,*', runs: ['marker-b'] },
    { controllers: 'marker-c', runs: ['marker-c'] },
    { controllers: 'marker-a,-marker-a', runs: ['marker-a'] },
    { controllers: '-marker-b,marker-b,*', runs: ['marker-a'] },
  ];
  selections.forEach(({ controllers, runs }, i) => {
    it(`--controllers=${controllers ?? '(default *)'} runs ${runs.join(', ')}`, async () => {
      const id = `selection-${i}`;
      const cm = await start(id, controllers === undefined ? [] : [`--controllers=${controllers}`]);
      try {
        await until(async () => { const l = await labels(); return runs.every((c) => l[labelOf(c)] === id); }, `labels of ${runs.join(', ')}`);
        const checks = (await cm.anonymous.get('/healthz?verbose')).text;
        const built = MARKERS.filter((m) => checks.includes(`[+]${m} ok`));
        assert.deepEqual(built, runs, checks);
        for (const m of MARKERS.filter((x) => !runs.includes(x))) {
          assert.ok(cm.logs.some((l) => l.includes('Warning: controller is disabled') && l.includes(`controller="${m}"`)), `${m} reported disabled`);
        }
      } finally {
        await cm.stop();
      }
    });
  });

  it('skips csrsigning, health check and all, when nothing signs (no CA files, no signer plugin)', async () => {
    for (const [args, signs] of [
      [[], false],
      [['--cluster-signing-cert-file', path.join(plat.dataDir, 'pki', 'ca.crt'), '--cluster-signing-key-file', path.join(plat.dataDir, 'pki', 'ca.key')], true],
    ] as const) {
      const cm = await start(`signing-${signs}`, [...args]);
      try {
        // The checks come with the controllers, once the API server's /healthz has answered.
        const checks = await builtChecks(cm);
        // Upstream's controller names (cmd/kube-controller-manager/names), not the short aliases.
        assert.equal(checks.includes('[+]certificatesigningrequest-signing-controller ok'), signs, checks);
        assert.equal(cm.logs.some((l) => l.includes('Warning: skipping controller') && l.includes('controller="certificatesigningrequest-signing-controller"')), !signs);
      } finally {
        await cm.stop();
      }
    }
  });

  it('starts and stops the CA loader of each signer\'s controller, saying so by the loader\'s name, as upstream', async () => {
    const [cert, key] = [path.join(plat.dataDir, 'pki', 'ca.crt'), path.join(plat.dataDir, 'pki', 'ca.key')];
    const cm = await start('loaders', ['--cluster-signing-cert-file', cert, '--cluster-signing-key-file', key]);
    const line = (what: string) => `${what} name="csr-controller::${cert}::${key}"`;
    try {
      await until(async () => cm.logs.filter((l) => l.includes(line('Starting controller'))).length === 4, "one loader per signer");
    } finally {
      await cm.stop();
    }
    assert.equal(cm.logs.filter((l) => l.includes(line('Shutting down controller'))).length, 4, cm.logs.join('\n'));
  });

  it('reads the signing CA files only when csrsigning runs (upstream reads them in its start function)', async () => {
    const missing = path.join(tempDir(), 'missing.crt');
    const files = ['--cluster-signing-cert-file', missing, '--cluster-signing-key-file', path.join(plat.dataDir, 'pki', 'ca.key')];
    const on = await start('ca-on', files);
    try {
      const exit = await on.exit;
      assert.equal(exit.code, 1);
      assert.ok(exit.reason?.endsWith(`error reading CA cert file "${missing}": open ${missing}: no such file or directory`), exit.reason);
    } finally {
      await on.stop();
    }
    // The short names are aliases of upstream's: -csrsigning is -certificatesigningrequest-signing-controller.
    for (const off of ['-csrsigning', '-certificatesigningrequest-signing-controller']) {
      const cm = await start('ca-off', [`--controllers=*,${off}`, ...files]);
      try {
        const checks = await builtChecks(cm);
        assert.ok(!checks.includes('signing-controller'), checks);
        assert.ok(!cm.logs.some((l) => l.includes('signing with the cluster CA')), 'no CA loaded');
      } finally {
        await cm.stop();
      }
    }
    // The flag combinations are still checked, as upstream's Validate does.
    await assert.rejects(start('ca-half', ['--controllers=*,-csrsigning', '--cluster-signing-cert-file', missing]), /cannot specify cert without key/);
  });

  it('refuses names that are no controller, in one aggregated line as upstream\'s Validate', async () => {
    await assert.rejects(start('x', ['--controllers=marker-a,-nope,bogus']), (e: Error & { exitCode?: number }) => {
      assert.equal(e.exitCode, 2);
      assert.equal(e.message, '["nope" is not in the list of known controllers, "bogus" is not in the list of known controllers]');
      return true;
    });
  });

  it('ends the process when a controller cannot be built', async () => {
    const cm = await start('broken', ['--controllers=broken']);
    try {
      assert.deepEqual(await cm.exit, { code: 1, reason: 'error initializing controller "broken": broken on purpose' });
    } finally {
      await cm.stop();
    }
  });

  it('gives a controller that does not stop --controller-shutdown-timeout, then gives up naming it', async () => {
    const cm = await start('stuck', ['--controllers=stuck,marker-a', '--controller-shutdown-timeout=300ms', '-v=1']);
    await until(async () => cm.logs.some((l) => l.includes('Starting controller') && l.includes('controller="stuck"')), 'stuck starts');
    await assert.rejects(cm.stop(), /^Error: controllers did not stop within --controller-shutdown-timeout=300ms \(still running: stuck\)$/);
    const timedOut = cm.logs.findIndex((l) => l.includes('Controller shutdown timeout reached') && l.includes('runningControllers=["stuck"]'));
    assert.ok(timedOut >= 0, cm.logs.join('\n'));
    // Upstream's RunControllers says every third of the timeout (here 100ms) whom the stop waits for.
    const waiting = cm.logs.findIndex((l) => /^I.*\] Still waiting for some controllers to terminate\.\.\. runningControllers=\[(.*,)?"stuck"\]$/.test(l));
    assert.ok(waiting >= 0 && waiting < timedOut, cm.logs.join('\n'));
    assert.ok(cm.logs.some((l) => l.includes('Controller terminated') && l.includes('controller="marker-a"')), 'the well-behaved one stopped');
  });

  it('stops well-behaved controllers within the timeout', async () => {
    const cm = await start('clean', ['-v=1']);
    await until(async () => (await labels())[labelOf('marker-a')] === 'clean', 'marker-a runs');
    await cm.stop();
    for (const m of ['marker-a', 'marker-b']) assert.ok(cm.logs.some((l) => l.includes('Controller terminated') && l.includes(`controller="${m}"`)), m);
    assert.ok(cm.logs.some((l) => l.includes('All controllers terminated')));
  });
  it('--controller-start-interval starts the controllers one after another, each at least an interval after the last', async () => {
    const cm = await start('stagger', ['--controllers=marker-a,marker-b,marker-c', '--controller-start-interval=400ms', '-v=1']);
    try {
      const started = () => cm.logs.filter((l) => l.includes('Starting controller'));
      await until(async () => started().length === 3, 'all three start');
      // klog's stamp: Immdd hh:mm:ss.uuuuuu; the gaps are lower bounds (a sleep never ends early).
      const at = started().map((l) => {
        const [, h, m, sec] = /^I\d{4} (\d\d):(\d\d):(\d\d\.\d+)/.exec(l)!;
        return (Number(h) * 3600 + Number(m) * 60 + Number(sec)) * 1000;
      });
      assert.deepEqual(started().map((l) => /controller="([^"]+)"/.exec(l)![1]), ['marker-a', 'marker-b', 'marker-c']);
      for (let i = 1; i < at.length; i++) assert.ok(at[i]! - at[i - 1]! >= 390, `controller ${i} started ${at[i]! - at[i - 1]!} ms after the one before`);
    } finally {
      await cm.stop();
    }
  });
  it('waits up to 10s for the API server\'s /healthz, then ends the process: nothing listening, or credentials refused', async () => {
    // Port 1, not a freed port: a test file running beside this one may listen on a port freePort
    // gave back during the 10 s this waits; nothing listens on 1.
    const nobody = 'https://127.0.0.1:1';
    const badToken = writeKubeconfig(plat, path.join(tempDir(), 'bad-token.conf'), { token: 'not-a-token' });
    const cms = await Promise.all([
      startControllerManager(['--master', nobody, '--leader-elect=false', '--secure-port=0'], [testControllers({ id: 'no-server' })]),
      startControllerManager(['--platconfig', badToken, '--leader-elect=false', '--secure-port=0'], [testControllers({ id: 'bad-token' })]),
    ]);
    try {
      // Bounded: a controller manager that never gives up must fail the test, not hang it.
      const gaveUp = (cm: RunningControllerManager) => Promise.race([cm.exit, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('still running after 30s')), 30_000).unref())]);
      const [down, refused] = await Promise.all(cms.map(gaveUp));
      // Upstream: "failed to wait for apiserver being healthy: " + wait's timeout error + the last poll's.
      assert.equal(down!.code, 1);
      // client-go's url.Error for the refused dial (WaitForAPIServer prints result.Error()), not Node's text.
      assert.equal(down!.reason, 'failed to wait for apiserver being healthy: timed out waiting for the condition: failed to get apiserver /healthz status: Get "https://127.0.0.1:1/healthz": dial tcp 127.0.0.1:1: connect: connection refused');
      assert.deepEqual(refused, { code: 1, reason: 'failed to wait for apiserver being healthy: timed out waiting for the condition: failed to get apiserver /healthz status: Unauthorized' });
      for (const cm of cms) {
        assert.ok(cm.logs.some((l) => l.startsWith('E') && l.includes('Error building controller context')));
        assert.ok(!cm.logs.some((l) => l.includes('Starting controller')), 'no controller ran');
      }
    } finally {
      await Promise.all(cms.map((cm) => cm.stop()));
    }
  });
  it('--master replaces the kubeconfig\'s server and drops its tls-server-name, as clientcmd', async () => {
    const file = adminKubeconfig(plat);
    // The file's own server is nowhere; its tls-server-name names a host the serving certificate does not.
    writeFileSync(file, readFileSync(file, 'utf8').replace(/server: .*/, `server: https://127.0.0.1:${await freePort()}\n    tls-server-name: wrong.example`));
    const cm = await startControllerManager(['--platconfig', file, '--master', plat.url, '--leader-elect=false', '--secure-port=0', '--controllers=marker-c'], [testControllers({ id: 'master' })]);
    try {
      await until(async () => (await labels())[labelOf('marker-c')] === 'master', 'marker-c runs through --master');
    } finally {
      await cm.stop();
    }
  });
});
