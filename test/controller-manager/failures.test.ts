// `plat controller-manager` and the API server as real processes, under failure, against one
// LMDB data directory: the API server killed with SIGKILL while the controller manager is issuing
// a burst and started again on the same directory and port; the controller manager killed with
// SIGKILL mid-batch, or stopped with SIGTERM mid-burst, and started again. Either way every CSR ends issued exactly once: one
// certificate each, unique serials, no Failed condition, and a certificate once written is never
// replaced; the controller manager rides out the API server's absence.
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { APISERVER_CLIENT_SIGNER } from '../../plugins/csrsigning/index.js';
import { Client, freePort, tempDir } from '../helpers/plat.js';
import { startPlat, type Background } from '../helpers/run-plat.js';
import { CSRS, approve, createCsrObject, csrBody, makeCsr } from '../csrsigning/support.js';
import { until } from './support.js';

const N = 120;

const exited = (p: Background) => new Promise<void>((resolve) => {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return resolve();
  p.child.once('exit', () => resolve());
});

describe('the controller manager and the API server killed mid-burst', () => {
  const dataDir = tempDir();
  let port = 0;
  let api: Background | undefined;
  const cms: Background[] = [];
  let admin: Client;

  const startApi = async () => {
    api = await startPlat(['all', '--data-dir', dataDir, '--secure-port', String(port), '--controllers='], /plat is serving at/, { cwd: dataDir });
  };
  const startCm = async () => {
    const pki = path.join(dataDir, 'pki');
    const cm = await startPlat(['controller-manager', '--platconfig', path.join(dataDir, 'admin.conf'), '--secure-port=0', '--leader-elect=false',
      '--controllers=csrsigning', `--cluster-signing-cert-file=${path.join(pki, 'ca.crt')}`, `--cluster-signing-key-file=${path.join(pki, 'ca.key')}`, '-v=2'],
    /Caches are synced/, { cwd: tempDir() });
    cms.push(cm);
    return cm;
  };
  /** name -> status.certificate of the burst's issued CSRs. */
  const certificates = async (prefix: string): Promise<Map<string, string>> => {
    const r = await admin.get(CSRS);
    assert.equal(r.status, 200, r.text);
    return new Map((r.json.items as any[]).filter((o) => o.metadata.name.startsWith(`${prefix}-`) && o.status?.certificate)
      .map((o) => [o.metadata.name, o.status.certificate]));
  };
  /** Starts a controller manager, creates and approves the burst, and returns once a quarter of it is issued. */
  const cmMidBurst = async (prefix: string): Promise<Background> => {
    const cm = await startCm();
    await burst(prefix);
    const seen = await until(async () => { const n = (await certificates(prefix)).size; return n >= N / 4 && n; }, 'a quarter issued', 300, 20);
    assert.ok(seen < N, 'the burst is not over yet');
    return cm;
  };
  const burst = async (prefix: string) => {
    const csrs = Array.from({ length: N }, (_, i) => makeCsr({ cn: `${prefix}-${i}` }));
    let next = 0;
    await Promise.all(Array.from({ length: 8 }, async () => {
      while (next < N) {
        const i = next++;
        await createCsrObject(admin, csrBody(`${prefix}-${i}`, csrs[i]!, APISERVER_CLIENT_SIGNER, ['digital signature', 'client auth']));
        await approve(admin, `${prefix}-${i}`);
      }
    }));
  };
  /** Every CSR of the burst issued once, and the ones in `before` still carry the certificate they had. */
  const issuedOnce = async (prefix: string, before: Map<string, string>) => {
    await until(async () => (await certificates(prefix)).size === N, `all ${N} certificates`, 300, 100);
    const items = ((await admin.get(CSRS)).json.items as any[]).filter((o) => o.metadata.name.startsWith(`${prefix}-`));
    const serials = new Set<string>();
    for (const o of items) {
      assert.deepEqual(o.status.conditions.map((c: any) => c.type), ['Approved'], `${o.metadata.name}: no Failed condition`);
      const pem = Buffer.from(o.status.certificate, 'base64').toString('utf8');
      assert.equal(pem.match(/-----BEGIN CERTIFICATE-----/g)?.length, 1);
      serials.add(new X509Certificate(pem).serialNumber);
      const had = before.get(o.metadata.name);
      if (had !== undefined) assert.equal(o.status.certificate, had, `${o.metadata.name}: its certificate was replaced`);
    }
    assert.equal(serials.size, N, 'unique serials');
  };

  before(async () => {
    port = await freePort();
    await startApi();
    const pki = path.join(dataDir, 'pki');
    admin = new Client(`https://127.0.0.1:${port}`, {
      ca: readFileSync(path.join(pki, 'ca.crt'), 'utf8'), cert: readFileSync(path.join(pki, 'admin.crt'), 'utf8'), key: readFileSync(path.join(pki, 'admin.key'), 'utf8'),
    });
  });
  after(async () => {
    for (const p of [...cms, ...(api ? [api] : [])]) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    await Promise.all([...cms, ...(api ? [api] : [])].map(exited));
  });

  it('SIGKILL the API server during a burst and start it again: the controller manager watches (or lists) again and issues every CSR once', async () => {
    const cm = await cmMidBurst('api-kill');
    api!.child.kill('SIGKILL');
    await exited(api!);
    await startApi();
    // What the killed server had committed (and whatever was written since): none of it may change.
    const before = await certificates('api-kill');
    await issuedOnce('api-kill', before);
    assert.equal(cm.child.exitCode, null, 'the controller manager is still running');
    // As the reflector's, the broken watch ended as a closed one and the refused connection was
    // retried after a backoff, which is no warning.
    cm.child.kill('SIGTERM');
    await exited(cm);
    assert.equal(cm.child.exitCode, 0, cm.output());
  });

  it('SIGKILL the controller manager mid-batch and start it again: what was issued stays, the rest is issued once', async () => {
    const first = await cmMidBurst('cm-kill');
    first.child.kill('SIGKILL');
    await exited(first);
    const before = await certificates('cm-kill');
    const second = await startCm();
    await issuedOnce('cm-kill', before);
    const issuedBySecond = [...second.output().matchAll(/issued a certificate csr="(cm-kill-\d+)"/g)].map((m) => m[1]!);
    assert.ok(issuedBySecond.length > 0 && issuedBySecond.length <= N - before.size, `the new one issued ${issuedBySecond.length} of the ${N - before.size} left`);
    assert.deepEqual(issuedBySecond.filter((n) => before.has(n)), [], 'issued again by the new one');
    second.child.kill('SIGTERM');
    await exited(second);
  });

  it('SIGTERM mid-burst: exits 0 within --controller-shutdown-timeout, logs no failure; the next one issues the rest once', async () => {
    const first = await cmMidBurst('cm-term');
    first.child.kill('SIGTERM');
    await exited(first);
    assert.equal(first.child.exitCode, 0, first.output());
    assert.match(first.output(), /All controllers terminated/);
    // Status writes in flight were abandoned, which is no failure (and the timeout was not needed).
    assert.deepEqual(first.output().split('\n').filter((l) => /^E\d{4}/.test(l)), []);
    const before = await certificates('cm-term');
    const second = await startCm();
    await issuedOnce('cm-term', before);
    second.child.kill('SIGTERM');
    await exited(second);
  });
});
