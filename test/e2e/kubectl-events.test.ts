// The machine's kubectl and core/v1 Events: `get events -A`, `get ev -w` (ADDED, then DELETED),
// `kubectl events`, and the Events section of `describe node` and `describe csr`, which kubectl
// finds with /api/v1/events?fieldSelector=involvedObject.uid=... and friends.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Kubectl, eventually } from '../helpers/kubectl.js';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';

const rows = (out: string): string[][] => out.trim().split('\n').map((l) => l.trim().split(/\s{2,}/));

describe('kubectl and Events', () => {
  let plat: RunningPlat;
  let k: Kubectl;
  const ok = async (args: string[], input?: string) => {
    const r = await k.run(args, input);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const eventFor = (name: string, namespace: string, involved: Record<string, string>, reason: string, message: string, type = 'Normal') => JSON.stringify({
    apiVersion: 'v1', kind: 'Event', metadata: { name, namespace }, involvedObject: involved, reason, message, type,
    source: { component: 'e2e-test', host: 'host-1' }, firstTimestamp: new Date(Date.now() - 60_000).toISOString().replace(/\.\d+Z$/, 'Z'),
    lastTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z'), count: 2,
  });

  before(async () => {
    plat = await startInProcess({ args: ['--controllers=-node-lifecycle-controller,*'] });
    k = new Kubectl(plat.kubeconfig);
    await ok(['create', 'namespace', 'ev-test']);
  });
  after(async () => { await plat?.stop(); });

  it('get events -A and get ev -n X list them with printEvent\'s columns', async () => {
    await ok(['create', '-f', '-'], eventFor('first', 'ev-test', { kind: 'Secret', namespace: 'ev-test', name: 'creds' }, 'Rotated', 'credentials rotated'));
    const all = rows(await ok(['get', 'events', '-A']));
    assert.deepEqual(all[0], ['NAMESPACE', 'LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE']);
    const row = all.find((r) => r[0] === 'ev-test')!;
    assert.deepEqual([row[2], row[3], row[4], row[5]], ['Normal', 'Rotated', 'secret/creds', 'credentials rotated']);
    const wide = rows(await ok(['get', 'ev', '-n', 'ev-test', '-o', 'wide']));
    assert.deepEqual(wide[0], ['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'SUBOBJECT', 'SOURCE', 'MESSAGE', 'FIRST SEEN', 'COUNT', 'NAME']);
    // SUBOBJECT is empty: the row goes from OBJECT to SOURCE.
    assert.match(wide[1]!.join('|'), /^\S+\|Normal\|Rotated\|secret\/creds\|e2e-test, host-1\|credentials rotated\|\S+\|2\|first$/);
  });

  it('get ev -w sees an Event added and deleted', async () => {
    const w = k.start(['get', 'ev', '-n', 'ev-test', '-w', '--output-watch-events']);
    try {
      await eventually(() => /ADDED .*Rotated/.test(w.output().replace(/\s+/g, ' ')), 'the initial ADDED');
      await ok(['create', '-f', '-'], eventFor('second', 'ev-test', { kind: 'Secret', namespace: 'ev-test', name: 'creds' }, 'Failed', 'could not rotate', 'Warning'));
      await eventually(() => /ADDED .*Warning Failed secret\/creds could not rotate/.test(w.output().replace(/\s+/g, ' ')), 'the new Event');
      await ok(['delete', 'ev', '-n', 'ev-test', 'second']);
      await eventually(() => /DELETED .*Failed/.test(w.output().replace(/\s+/g, ' ')), 'its deletion');
    } finally {
      await w.stop();
    }
  });

  it('kubectl events lists them, and --types filters', async () => {
    const out = await ok(['events', '-n', 'ev-test']);
    assert.match(out, /^LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+MESSAGE$/m);
    assert.match(out, /Normal\s+Rotated\s+Secret\/creds\s+credentials rotated/);
    await ok(['create', '-f', '-'], eventFor('third', 'ev-test', { kind: 'Secret', namespace: 'ev-test', name: 'creds' }, 'Broken', 'it broke', 'Warning'));
    const warnings = await ok(['events', '-n', 'ev-test', '--types=Warning']);
    assert.match(warnings, /Warning\s+Broken/);
    assert.doesNotMatch(warnings, /Rotated/);
  });

  it('describe node shows the node\'s Events', async () => {
    await ok(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'edge-9' } }));
    const uid = await ok(['get', 'node', 'edge-9', '-o', 'jsonpath={.metadata.uid}']);
    await ok(['create', '-f', '-'], eventFor('edge-9.start', 'default', { kind: 'Node', name: 'edge-9', uid }, 'Starting', 'Starting kubelet.'));
    // An Event of another object of the same name does not show.
    await ok(['create', '-f', '-'], eventFor('edge-9.other', 'default', { kind: 'Node', name: 'edge-9', uid: 'another' }, 'Stale', 'old node'));
    // The node agent's Events name the node by its name as uid (the kubelet's nodeRef): kubectl looks for both.
    await ok(['create', '-f', '-'], eventFor('edge-9.ready', 'default', { kind: 'Node', name: 'edge-9', uid: 'edge-9' }, 'NodeReady', 'Node edge-9 status is now: NodeReady'));
    const out = await ok(['describe', 'node', 'edge-9']);
    assert.match(out, /^Events:\n\s+Type\s+Reason\s+Age\s+From\s+Message\n/m);
    assert.match(out, /Normal\s+Starting\s+\S+ \(x2 over \S+\)\s+e2e-test\s+Starting kubelet\./);
    assert.match(out, /Normal\s+NodeReady\s+\S+ \(x2 over \S+\)\s+e2e-test\s+Node edge-9 status is now: NodeReady/);
    assert.doesNotMatch(out, /Stale/);
  });

  it('describe csr shows the request\'s Events', async () => {
    const work = tempDir('plat-ev-csr-');
    execFileSync('openssl', ['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes',
      '-keyout', path.join(work, 'key.pem'), '-subj', '/CN=bob', '-out', path.join(work, 'csr.pem')], { stdio: 'ignore' });
    await ok(['create', '-f', '-'], JSON.stringify({
      apiVersion: 'certificates.platform/v1', kind: 'CertificateSigningRequest', metadata: { name: 'bob' },
      spec: { request: readFileSync(path.join(work, 'csr.pem')).toString('base64'), signerName: 'example.com/client', usages: ['client auth'] },
    }));
    const uid = await ok(['get', 'csr', 'bob', '-o', 'jsonpath={.metadata.uid}']);
    await ok(['create', '-f', '-'], eventFor('bob.checked', 'default', { kind: 'CertificateSigningRequest', name: 'bob', uid, apiVersion: 'certificates.platform/v1' }, 'Checked', 'request looked at'));
    const out = await ok(['describe', 'csr', 'bob']);
    assert.match(out, /^Events:\n\s+Type\s+Reason\s+Age\s+From\s+Message\n/m);
    assert.match(out, /Normal\s+Checked\s+\S+ \(x2 over \S+\)\s+e2e-test\s+request looked at/);
  });
});
