// The signing pool's workers start with the signing controller, not with a fresh cluster's first
// CSR, which used to wait for a thread, core/crypto's modules and the WASM compile (1-3 s at a
// load of 10 on 2 cores); started early, the pool still holds no process open and still closes.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { silentLogger } from '../../core/log.js';
import type { Plugin } from '../../core/plugin.js';
import { SigningPool } from '../../core/signing-pool/pool.js';
import { caSigner } from '../../plugins/csrsigning/ca-signer.js';
import { APISERVER_CLIENT_SIGNER, CaProvider } from '../../plugins/csrsigning/index.js';
import { makeCa } from '../helpers/certs.js';
import { repoRoot, startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { makeCsr, startSigning, submitApproved, until, waitForCertificate, writeCaFiles, type RunningSigning } from './support.js';

const PLUGIN_NAME = 'PoolOfItsOwn';

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

describe('the signing controller starts the cluster CA\'s workers', () => {
  let plat: RunningPlat;
  let signing: RunningSigning;
  const pool = new SigningPool({ size: 2 });

  before(async () => {
    plat = await startInProcess({ args: ['--controllers='] });
    const files = writeCaFiles(tempDir(), makeCa({ commonName: 'warm-ca' }));
    const provider = new CaProvider(files.certFile, files.keyFile, silentLogger);
    // The cluster CA's signer, with a pool the test can look at.
    const signer: Plugin = {
      name: PLUGIN_NAME,
      apply(host) {
        host.hooks.sign.for(APISERVER_CLIENT_SIGNER).tapPromise(PLUGIN_NAME, caSigner({ signer: APISERVER_CLIENT_SIGNER, provider, maxTtlMs: 3_600_000, pool: () => pool }));
      },
    };
    signing = await startSigning(plat, [], { plugins: [signer] });
  });
  after(async () => { await signing?.stop(); await plat?.stop(); await pool.close(); });

  it('when it starts the signer\'s lane, before any CSR; the first CSR starts none', async () => {
    await until(() => signing.logs.has('Caches are synced for certificate-csrsigning-plat-apiserver-client'), 'the lane to run');
    assert.equal(pool.stats.workersStarted, 2);
    assert.equal(pool.stats.batches, 0, 'no CSR yet');
    await submitApproved(plat.admin, 'first', makeCsr({ cn: 'first' }), APISERVER_CLIENT_SIGNER, ['client auth']);
    await waitForCertificate(plat.admin, 'first');
    assert.deepEqual(pool.stats, { batches: 1, issued: 1, largestBatch: 1, workersStarted: 2 });
  });
});
