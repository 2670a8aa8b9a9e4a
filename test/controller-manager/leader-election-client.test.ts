// Leader election keeps its own API client, as kube-controller-manager's "leader-election" client:
// the controllers using up --plat-api-qps/--plat-api-burst (a burst of approved CSRs: one status
// write each) must not queue the Lease renewals behind their requests, or the leader loses its
// Lease under load, exits, and a restarted one meets the same backlog.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import type http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Host } from '../../core/host.js';
import type { Plugin } from '../../core/plugin.js';
import { makeServingCert } from '../helpers/certs.js';
import { freePort, startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { startControllerManager, until, adminKubeconfig, platCa, writeKubeconfig } from './support.js';

const LEASE = '/apis/coordination.platform/v1/namespaces/plat-system/leases/plat-controller-manager';

/** A controller that queues far more requests than the client's rate limit lets through for a minute. */
function flooding(state: { flooding: boolean }): Plugin {
  return {
    name: 'FloodingController',
    apply(host: Host) {
      host.hooks.controllers.tap('FloodingController', (registry) => registry.register('flooding', (ctx) => ({
        async run(signal: AbortSignal) {
          const namespaces = { group: '', version: 'v1', plural: 'namespaces' };
          const requests = Array.from({ length: 200 }, () => ctx.client.list(namespaces, {}, { signal }).catch(() => undefined));
          state.flooding = true;
          await Promise.all(requests);
        },
      })));
    },
  };
}

describe('leader election under a controller using up the client rate limit', () => {
  let plat: RunningPlat;
  let admin: string;
  before(async () => {
    plat = await startInProcess();
    admin = adminKubeconfig(plat);
  });
  after(async () => { await plat?.stop(); });

  it('renews its Lease while the controllers wait for the rate limiter', async () => {
    const state = { flooding: false };
    const cm = await startControllerManager([
      '--platconfig', admin, '--controllers=flooding', '--bind-address', '127.0.0.1', '--secure-port', String(await freePort()),
      '--plat-api-qps=3', '--plat-api-burst=3',
      '--leader-elect-lease-duration=4s', '--leader-elect-renew-deadline=3s', '--leader-elect-retry-period=1s',
    ], [flooding(state)]);
    let exited = false;
    void cm.exit.then(() => { exited = true; });
    try {
      await until(async () => state.flooding, 'the flood starts');
      const renewTime = async () => (await plat.admin.get(LEASE)).json.spec?.renewTime as string | undefined;
      const first = await until(renewTime, 'the Lease');
      const second = await until(async () => { const t = await renewTime(); return t !== first && t; }, 'a renewal during the flood');
      await until(async () => { const t = await renewTime(); return t !== second && t; }, 'another renewal during the flood');
      assert.equal(exited, false, cm.logs.filter((l) => l.includes('lease')).join('\n'));
      assert.ok(!cm.logs.some((l) => l.includes('leaderelection lost')));
    } finally {
      await cm.stop();
    }
  });
});

/**
 * A TLS front for plat that answers for the admin: everything is passed on, except the Lease
 * renewals chosen by `hold`, which are read and never answered (a request lost on the way).
 */
async function holdingFront(plat: RunningPlat, hold: (req: http.IncomingMessage) => boolean): Promise<{ url: string; held: string[]; close: () => void }> {
  const pki = path.join(plat.dataDir, 'pki');
  const upstream = { ca: readFileSync(path.join(pki, 'ca.crt')), cert: readFileSync(path.join(pki, 'admin.crt')), key: readFileSync(path.join(pki, 'admin.key')) };
  const target = new URL(plat.url);
  const serving = makeServingCert(platCa(plat), [], ['127.0.0.1']);
  const held: string[] = [];
  // The front's own connections to plat, ended with it: a watch passed on through the default
  // agent would stay open, and plat's stop would wait out the request timeout for it.
  const agent = new https.Agent({ keepAlive: true });
  const server = https.createServer({ cert: serving.certificatePem, key: serving.privateKeyPem }, (req, res) => {
    if (hold(req)) { held.push(req.url ?? ''); req.resume(); return; }
    const headers = { ...req.headers };
    delete headers.authorization;
    const out = https.request({ ...upstream, agent, hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    held,
    close: () => { server.closeAllConnections(); server.close(); agent.destroy(); },
  };
}

describe('leader election with one renewal lost on the way', () => {
  let plat: RunningPlat;
  before(async () => { plat = await startInProcess(); });
  after(async () => { await plat?.stop(); });

  // resourcelock.NewFromKubeconfig: the lock's client times out at max(1s, renewDeadline/2)
  // "to keep a single hung request from forcing a leader loss"; the renewal is tried again.
  it('gives the hung request up after half the renew deadline and renews within the deadline', async () => {
    let renewals = 0;
    const front = await holdingFront(plat, (req) => req.method === 'PUT' && (req.url ?? '').startsWith(LEASE) && ++renewals === 2);
    const kubeconfig = writeKubeconfig(plat, path.join(tempDir(), 'front.conf'), 'admin');
    writeFileSync(kubeconfig, readFileSync(kubeconfig, 'utf8').replace(plat.url, front.url));
    const cm = await startControllerManager([
      '--platconfig', kubeconfig, '--controllers=csrcleaner', '--bind-address', '127.0.0.1', '--secure-port', String(await freePort()),
      '--leader-elect-lease-duration=8s', '--leader-elect-renew-deadline=6s', '--leader-elect-retry-period=1s',
    ]);
    let exited = false;
    void cm.exit.then(() => { exited = true; });
    try {
      await until(async () => front.held.length === 1, 'a renewal held', 100);
      assert.match(front.held[0]!, /[?&]timeout=3s(&|$)/);
      const renewTime = async () => (await plat.admin.get(LEASE)).json.spec?.renewTime as string | undefined;
      const atHold = await renewTime();
      await until(async () => { const t = await renewTime(); return t !== atHold && t; }, 'a renewal after the held one', 100);
      assert.equal(exited, false, cm.logs.filter((l) => l.includes('lease')).join('\n'));
      assert.ok(!cm.logs.some((l) => l.includes('leaderelection lost')), cm.logs.join('\n'));
      // klog.Errorf's line of 1.32's fast path, typo and all.
      assert.ok(cm.logs.some((l) => /^E.*\] Failed to update lock optimitically: .+, falling back to slow path$/.test(l)), cm.logs.filter((l) => l.includes('lock')).join('\n'));
    } finally {
      await cm.stop();
      front.close();
    }
  });
});
