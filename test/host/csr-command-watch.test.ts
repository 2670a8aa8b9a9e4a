// `plat csr get NAME -w` and `plat csr list -w` (the real process) against an in-process `plat
// all`: what kubectl get -w prints when the object is older than the store's watch window, and how
// the watch ends (an interrupt, a closed stdout).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { baseCsr, fixtures } from '../certificates/fixtures.js';
import { platBin, startInProcess, type RunningPlat } from '../helpers/plat.js';
import { cliCollectionGets } from './cli-requests.js';
import { getApiServer } from '../../plugins/apiserver/index.js';

const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';

describe('plat csr get|list -w', () => {
  let plat: RunningPlat;
  const fx = fixtures();
  const cliGets = cliCollectionGets();
  const until = async (check: () => boolean, what: string) => {
    for (let i = 0; i < 150; i++) {
      if (check()) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.fail(`timed out waiting for ${what}`);
  };
  const start = (args: string[]) => {
    const child = spawn(process.execPath, [platBin, 'csr', ...args, '--kubeconfig', plat.kubeconfig], { stdio: ['ignore', 'pipe', 'pipe'] });
    const w = { child, stdout: '', stderr: '', exited: new Promise<number | null>((r) => child.once('exit', (code) => r(code))) };
    child.stdout.on('data', (d: Buffer) => { w.stdout += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { w.stderr += d.toString(); });
    return w;
  };
  async function approve(name: string): Promise<void> {
    const obj = (await plat.admin.get(`${CSRS}/${name}`)).json;
    obj.status = { conditions: [{ type: 'Approved', status: 'True', reason: 'TestApprove', message: 'approved by the test' }] };
    assert.equal((await plat.admin.put(`${CSRS}/${name}/approval`, obj)).status, 200);
  }

  before(async () => { plat = await startInProcess({ plugins: [cliGets.plugin] }); });
  after(async () => { await plat?.stop(); });

  it('get NAME -w of a CSR older than the watch window: one row, then a row per change (as kubectl get NAME -w)', async () => {
    assert.equal((await plat.admin.post(CSRS, baseCsr(fx, 'old'))).status, 201);
    assert.equal((await plat.admin.post(CSRS, baseCsr(fx, 'newer'))).status, 201);
    const storage = getApiServer(plat.host!)!.storage;
    await storage.compact(await storage.currentRevision());
    const watches = cliGets.count();
    const w = start(['get', 'old', '-w']);
    try {
      await until(() => cliGets.count() > watches && w.stdout.includes('Pending'), 'the row and the watch');
      await approve('old');
      await until(() => w.stdout.includes('Approved'), 'the changed row');
      // Long enough for a re-list after a 410 to print its row again.
      await new Promise((r) => setTimeout(r, 300));
    } finally {
      w.child.kill('SIGINT');
    }
    await w.exited;
    assert.match(w.stdout, /^NAME +AGE +SIGNERNAME +REQUESTOR +REQUESTEDDURATION +CONDITION\nold +\S+ +\S+ +\S+ +\S+ +Pending\nold +\S+ +\S+ +\S+ +\S+ +Approved\n$/, w.stdout);
  });

  it('a termination signal ends get -w, list -w and wait with exit 1 and nothing said, as kubectl/pkg/util/interrupt', async () => {
    assert.equal((await plat.admin.post(CSRS, baseCsr(fx, 'pending'))).status, 201);
    // With the collection GETs that come before the watch is under way: list -w lists, then
    // watches; wait lists inside its critical section.
    for (const [args, signal, gets] of [
      [['get', 'pending', '-w'], 'SIGINT', 1], [['list', '-w'], 'SIGTERM', 2], [['list', '-w', '-o', 'name'], 'SIGHUP', 2],
      [['wait', 'pending'], 'SIGINT', 1], [['wait', 'pending', '--timeout', '1h'], 'SIGTERM', 1],
    ] as const) {
      const watches = cliGets.count();
      const w = start([...args]);
      try {
        await until(() => cliGets.count() >= watches + gets, `${args.join(' ')} watching`);
      } finally {
        w.child.kill(signal);
      }
      assert.equal(await w.exited, 1, `${args.join(' ')} ${signal}: ${w.stderr}`);
      assert.equal(w.stderr, '', `${args.join(' ')} ${signal}`);
    }
  });

  it('--request-timeout ends list -w and get NAME -w then, with exit 0, as it bounds kubectl get -w\'s watch request', async () => {
    assert.equal((await plat.admin.post(CSRS, baseCsr(fx, 'timed'))).status, 201);
    await Promise.all([['list', '-w', '--request-timeout', '1s'], ['get', 'timed', '-w', '--request-timeout=1'], ['list', '-w', '--timeout', '1h', '--request-timeout', '1s']].map(async (args) => {
      const w = start(args);
      const code = await Promise.race([w.exited, new Promise((r) => setTimeout(() => r('still running'), 10_000))]);
      w.child.kill('SIGKILL');
      assert.equal(code, 0, `${args.join(' ')}: ${w.stderr}`);
      assert.equal(w.stderr, '', args.join(' '));
      assert.match(w.stdout, /timed/, args.join(' '));
    }));
  });

  it('list -w whose reader went away (| head -1) exits 1 on the next change, quietly, not with an EPIPE stack trace', async () => {
    assert.equal((await plat.admin.post(CSRS, baseCsr(fx, 'before-close'))).status, 201);
    const watches = cliGets.count();
    const w = start(['list', '-w']);
    try {
      await until(() => cliGets.count() >= watches + 2 && w.stdout !== '', 'the table and the watch');
      // As `head -1` after its line: the read end of the pipe is closed.
      w.child.stdout.destroy();
      assert.equal((await plat.admin.post(CSRS, baseCsr(fx, 'after-close'))).status, 201);
      const code = await Promise.race([w.exited, new Promise((r) => setTimeout(() => r('still running'), 10_000))]);
      assert.equal(code, 1, w.stderr);
      assert.equal(w.stderr, '');
    } finally {
      w.child.kill('SIGKILL');
    }
  });
});
