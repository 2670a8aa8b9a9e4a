// The signing pool's workers start with the csrsigning controller (built once the process leads),
// not with a fresh cluster's first CSR, which used to wait for a thread, core/crypto's modules and
// the WASM compile (1-3 s at a load of 10 on 2 cores); started early, the pool still holds no
// process open and still closes.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import os from 'node:os';
import { SigningPool } from '../../core/signing-pool/pool.js';
import { APISERVER_CLIENT_SIGNER } from '../../plugins/csrsigning/index.js';
import { adminKubeconfig, heldLease, startControllerManager } from '../controller-manager/support.js';
import { makeCa } from '../helpers/certs.js';
import { repoRoot, startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { makeCsr, submitApproved, until, waitForCertificate, writeCaFiles } from './support.js';


describe('a warm signing pool', () => {
  it('start() starts every worker before any request; requests after it start none', async () => {
    const pool = new SigningPool({ size: 2 });
    try {
      pool.start();
      assert.equal(pool.stats.workersStarted, 2);
      pool.start();
      assert.equal(pool.stats.workersStarted, 2, 'started once');
    } finally {
      await pool.close();
    }
    pool.start();
    assert.equal(pool.stats.workersStarted, 2, 'a closed pool starts nothing');
  });

  it('a started pool holds no process open, and closes while its workers start', () => {
    // In a process of its own: its event loop has to end on its own with idle workers, and
    // close() has to settle on workers still loading.
    const pool = JSON.stringify(pathToFileURL(path.join(repoRoot, 'dist/core/signing-pool/pool.js')).href);
    const script = `
      import { SigningPool } from ${pool};
      const closing = new SigningPool({ size: 2 });
      closing.start();
      await closing.close();
      console.log('closed:', closing.stats.workersStarted);
      const idle = new SigningPool({ size: 2 });
      idle.start();
      console.log('started:', idle.stats.workersStarted);
    `;
    // A file, not --eval: the pool's workers inherit the process's execArgv.
    const file = path.join(tempDir(), 'warm.mjs');
    writeFileSync(file, script);
    const r = spawnSync(process.execPath, [file], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.signal, null, `ended on its own, not by the timeout: ${r.stderr}`);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(r.stdout.trim().split('\n'), ['closed: 2', 'started: 2']);
  });
});

describe('the cluster CA\'s workers start when the csrsigning controller does', () => {
  let plat: RunningPlat;
  before(async () => { plat = await startInProcess({ args: ['--controllers='] }); });
  after(async () => { await plat?.stop(); });

  it('once the controller manager leads, before any CSR; not while it waits for the Lease; the first CSR starts none', async () => {
    const held = await heldLease(plat, 'warm-standby');
    const files = writeCaFiles(tempDir(), makeCa({ commonName: 'warm-ca' }));
    const cm = await startControllerManager(['--platconfig', adminKubeconfig(plat), '--secure-port=0',
      '--cluster-signing-cert-file', files.certFile, '--cluster-signing-key-file', files.keyFile,
      '--leader-elect-resource-name=warm-standby', '--leader-elect-retry-period=200ms', '--v=4']);
    const started = () => cm.logs.filter((l) => l.includes('Started a signing worker'));
    try {
      await until(() => cm.logs.some((l) => l.includes('attempting to acquire leader lease')), 'the election started');
      await new Promise((r) => setTimeout(r, 1000)); // a few tries at the held Lease
      assert.deepEqual(started(), [], 'a standby starts no workers');

      await held.release();
      const size = os.availableParallelism();
      await until(() => started().length === size, 'the workers started', 200, 100);
      await submitApproved(plat.admin, 'first', makeCsr({ cn: 'first' }), APISERVER_CLIENT_SIGNER, ['client auth']);
      await waitForCertificate(plat.admin, 'first');
      assert.equal(started().length, size, cm.logs.join('\n'));
    } finally {
      await cm.stop();
    }
  });
});
