// The webhook backend (plugins/audit-webhook) against a real HTTPS audit sink on loopback: the
// EventLists it posts, batch mode's batches and its flush at shutdown, upstream's retries (every
// failure, from --audit-webhook-initial-backoff, 5 attempts), blocking-strict failing the request
// when the sink keeps failing and blocking only logging it, both backends at once, and its flags
// and config file refused as upstream refuses them.
import assert from 'node:assert/strict';
import path from 'node:path';
import { writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { createLogger } from '../../core/log.js';
import { bootRefusal } from '../helpers/boot-refusal.js';
import { logLines } from '../helpers/log-lines.js';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { waitUntil } from '../helpers/watch-stream.js';
import { eventsOf, writePolicy } from './support.js';
import { startAuditSink, type Answer, type AuditSink } from './webhook-sink.js';

// /version only: plat's own start-up requests are not audited into the batches a test counts.
const VERSION_ONLY = 'apiVersion: audit.platform/v1\nkind: Policy\nrules:\n- level: Metadata\n  nonResourceURLs: [/version]\n';

interface Running { plat: RunningPlat; sink: AuditSink; dir: string; logs: ReturnType<typeof logLines> }

async function startWithSink(args: string[], answer?: (attempt: number) => Answer | Promise<Answer>, policy = true): Promise<Running> {
  const dir = tempDir('plat-audit-webhook-');
  const sink = await startAuditSink(dir, answer);
  const logs = logLines();
  try {
    const plat = await startInProcess({
      args: ['--controllers=', ...(policy ? ['--audit-policy-file', writePolicy(dir, VERSION_ONLY)] : []), '--audit-webhook-config-file', sink.kubeconfig, ...args],
      logger: createLogger({ write: logs.write, verbosity: 2 }),
    });
    return { plat, sink, dir, logs };
  } catch (e) {
    await sink.close();
    throw e;
  }
}

async function stop(r: Running): Promise<void> {
  try { await r.plat.stop(); } finally { await r.sink.close(); }
}

const FAST_RETRIES = '--audit-webhook-initial-backoff=1ms';

describe('audit webhook backend', () => {
  it('posts each event as an EventList to the config file\'s server, with its token', async () => {
    const r = await startWithSink(['--audit-webhook-mode=blocking']);
    try {
      assert.equal((await r.plat.admin.get('/version', { 'audit-id': 'to-webhook' })).status, 200);
      // Blocking: RequestReceived was sent before the request went on. The sink's empty 200 is
      // success (Do(ctx).Error() reads no answer), neither retried nor logged.
      assert.equal(r.logs.lines.filter((l) => l.includes('Error in audit plugin')).length, 0);
      const evs = await r.sink.eventsOf('to-webhook');
      assert.deepEqual(evs.map((e) => e.stage), ['RequestReceived', 'ResponseComplete']);
      assert.equal(evs[1].responseStatus.code, 200);
      assert.equal(evs[1].user.username, 'plat-admin');
      const post = r.sink.received.find((p) => p.list.items.some((e: any) => e.auditID === 'to-webhook'))!;
      assert.equal(post.list.kind, 'EventList');
      assert.equal(post.list.apiVersion, 'audit.platform/v1');
      assert.deepEqual(post.list.metadata, {});
      assert.equal(post.list.items.length, 1, 'blocking: one event a post');
      assert.equal(post.list.items[0].kind, undefined, 'items carry no kind of their own');
      assert.equal(post.url, '/audit?timeout=30s');
      assert.equal(post.headers['content-type'], 'application/json');
      assert.equal(post.headers['authorization'], 'Bearer audit-token');
    } finally {
      await stop(r);
    }
  });

  it('blocking: the answer waits for the ResponseComplete post (a client that has it knows the event was taken)', async () => {
    // A slow sink: upstream's deferred event is processed before net/http writes the answer.
    const r = await startWithSink(['--audit-webhook-mode=blocking'], async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      return { status: 200 };
    });
    try {
      for (const id of ['waits-1', 'waits-2']) {
        assert.equal((await r.plat.admin.get('/version', { 'audit-id': id })).status, 200);
        const stages = r.sink.received.flatMap((p) => p.list.items).filter((e: any) => e.auditID === id).map((e: any) => e.stage);
        assert.deepEqual(stages, ['RequestReceived', 'ResponseComplete'], id);
      }
    } finally {
      await stop(r);
    }
  });

  it('batch mode posts --audit-webhook-batch-max-size events at once, and what is left at shutdown', async () => {
    const r = await startWithSink(['--audit-webhook-batch-max-size=4', '--audit-webhook-batch-max-wait=1h']);
    let stopped = false;
    try {
      for (const id of ['batch-1', 'batch-2', 'batch-3']) assert.equal((await r.plat.admin.get('/version', { 'audit-id': id })).status, 200);
      await r.sink.eventsOf('batch-2');
      assert.deepEqual(r.sink.received.map((p) => p.list.items.map((e: any) => `${e.auditID}/${e.stage}`)), [
        ['batch-1/RequestReceived', 'batch-1/ResponseComplete', 'batch-2/RequestReceived', 'batch-2/ResponseComplete'],
      ]);
      await r.plat.stop();
      stopped = true;
      assert.equal(r.sink.received.length, 2);
      assert.deepEqual(r.sink.received[1]!.list.items.map((e: any) => `${e.auditID}/${e.stage}`), ['batch-3/RequestReceived', 'batch-3/ResponseComplete']);
    } finally {
      if (!stopped) await r.plat.stop();
      await r.sink.close();
    }
  });

  it('batch mode sends a batch without waiting for the one before it (upstream\'s AsyncDelegate)', async () => {
    // The sink answers the first batch only once the second has come: batches sent one after the other never get there.
    let release!: () => void;
    const second = new Promise<void>((resolve) => { release = resolve; });
    const r = await startWithSink(['--audit-webhook-batch-max-size=2', FAST_RETRIES], async (n) => {
      if (n === 1) await second;
      else release();
      return { status: 200 };
    });
    try {
      for (const id of ['async-1', 'async-2']) assert.equal((await r.plat.admin.get('/version', { 'audit-id': id })).status, 200);
      await r.sink.eventsOf('async-1');
      await r.sink.eventsOf('async-2');
      assert.equal(r.sink.received.length, 2);
    } finally {
      release();
      await stop(r);
    }
  });

  it('retries any failure (a 503 too) until the sink takes the events, logging nothing', async () => {
    // The first two attempts fail: 503 is no error DefaultShouldRetry retries, upstream's audit webhook retries all.
    const r = await startWithSink(['--audit-webhook-mode=blocking', FAST_RETRIES], (n) => (n <= 2 ? { status: 503, body: 'busy' } : { status: 200 }));
    try {
      assert.equal((await r.plat.admin.get('/version', { 'audit-id': 'retried' })).status, 200);
      await r.sink.eventsOf('retried');
      const rr = r.sink.items().filter((e) => e.auditID === 'retried' && e.stage === 'RequestReceived');
      assert.equal(rr.length, 3, 'two failed attempts and the one taken');
      assert.equal(r.logs.lines.filter((l) => l.includes('Error in audit plugin')).length, 0);
    } finally {
      await stop(r);
    }
  });

  for (const [mode, status] of [['blocking-strict', 500], ['blocking', 200]] as const) {
    it(`${mode}: a sink that answers 500 to all 5 attempts ${status === 500 ? 'fails the request' : 'is only logged'}`, async () => {
      const r = await startWithSink([`--audit-webhook-mode=${mode}`, FAST_RETRIES], () => ({ status: 500, body: 'sink down' }));
      try {
        const res = await r.plat.admin.get('/version', { 'audit-id': mode });
        assert.equal(res.status, status);
        if (status === 500) assert.equal(res.text, 'Internal Server Error: "/version": failed to store audit event\n');
        const attempts = r.sink.items().filter((e) => e.auditID === mode && e.stage === 'RequestReceived');
        assert.equal(attempts.length, 5, 'DefaultRetryBackoffWithInitialDelay: 5 steps');
        const line = await waitUntil(() => r.logs.lines.find((l) => l.includes('Error in audit plugin \'webhook\'') && l.includes(`id="${mode}"`)), 'the error line');
        assert.match(line, /^E.* Error in audit plugin 'webhook' affecting 1 audit events: an error on the server \("sink down"\) has prevented the request from succeeding\nImpacted events:\n.* AUDIT: id="blocking(-strict)?" stage="RequestReceived"/);
        // Counted as the webhook's loss (upstream's HandlePluginError): /metrics itself is not audited.
        const metrics = await r.plat.admin.get('/metrics');
        const lost = Number(/^apiserver_audit_error_total\{plugin="webhook"\} (\d+)$/m.exec(metrics.text)?.[1] ?? 0);
        assert.ok(lost >= 1, 'apiserver_audit_error_total{plugin="webhook"}');
      } finally {
        await stop(r);
      }
    });
  }

  it('with --audit-log-path too, every event reaches both backends', async () => {
    const dir = tempDir('plat-audit-both-');
    const log = path.join(dir, 'audit.log');
    const r = await startWithSink(['--audit-webhook-mode=blocking', '--audit-log-path', log]);
    try {
      assert.equal((await r.plat.admin.get('/version', { 'audit-id': 'both' })).status, 200);
      const atSink = await r.sink.eventsOf('both');
      const inLog = await eventsOf(log, 'both');
      assert.deepEqual(atSink.map((e) => e.stage), ['RequestReceived', 'ResponseComplete']);
      assert.deepEqual(inLog.map((e) => e.stage), ['RequestReceived', 'ResponseComplete']);
      assert.deepEqual(atSink.map((e) => e.stageTimestamp), inLog.map((e) => e.stageTimestamp));
    } finally {
      await stop(r);
    }
  });

  it('without --audit-policy-file nothing is sent, and the config file is not read', async () => {
    const r0 = tempDir('plat-audit-no-policy-');
    const r = await startWithSink(['-v=2', '--audit-webhook-config-file', path.join(r0, 'missing.conf')], undefined, false);
    try {
      assert.equal((await r.plat.admin.get('/version', { 'audit-id': 'no-policy' })).status, 200);
      assert.ok(r.logs.lines.some((l) => l.includes('No audit policy file provided, no events will be recorded for webhook backend')));
    } finally {
      await stop(r);
    }
    assert.deepEqual(r.sink.received, []);
  });

  it('refuses bad values as upstream\'s Validate, all at once (exit 2), only with --audit-webhook-config-file', async () => {
    const dir = tempDir('plat-audit-webhook-flags-');
    const base = ['--secure-port', '0', '--data-dir', dir];
    const conf = path.join(dir, 'webhook.conf');
    const r = await bootRefusal('apiserver', [...base, '--audit-webhook-config-file', conf, '--audit-webhook-mode', 'sometimes',
      '--audit-webhook-truncate-max-event-size', '10', '--audit-webhook-truncate-max-batch-size', '5', '--audit-webhook-version', 'a/b/c']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /plat apiserver: \[invalid audit webhook mode sometimes, allowed modes are "batch,blocking,blocking-strict", invalid audit truncate webhook max batch size 5, must be greater than max event size \(10\), unexpected GroupVersion string: a\/b\/c\]\n$/);
    const batch = await bootRefusal('apiserver', [...base, '--audit-webhook-config-file', conf, '--audit-webhook-batch-throttle-burst', '0']);
    assert.match(batch.stderr, /plat apiserver: invalid audit batch webhook throttle burst 0, must be a positive number\n$/);
    const buffer = await bootRefusal('apiserver', [...base, '--audit-webhook-config-file', conf, '--audit-webhook-batch-buffer-size', '0', '--audit-log-path', path.join(dir, 'a.log'), '--audit-log-format', 'xml']);
    assert.match(buffer.stderr, /plat apiserver: \[invalid audit log format xml, allowed formats are "legacy,json", invalid audit batch webhook buffer size 0, must be a positive number\]\n$/);
    // Without the config file the values are not looked at: start-up goes on to the next problem.
    const ignored = await bootRefusal('apiserver', [...base, '--audit-webhook-mode', 'sometimes', '--audit-log-path', path.join(dir, 'b.log'), '--audit-log-maxage', '-1']);
    assert.match(ignored.stderr, /plat apiserver: --audit-log-maxage -1 can't be a negative number\n$/);
  });

  it('a missing or broken config file stops start-up (exit 1), as upstream\'s "initializing audit webhook"', async () => {
    const dir = tempDir('plat-audit-webhook-conf-');
    const base = ['--secure-port', '0', '--data-dir', dir, '--audit-policy-file', writePolicy(dir, VERSION_ONLY)];
    const missing = path.join(dir, 'missing.conf');
    const r = await bootRefusal('apiserver', [...base, '--audit-webhook-config-file', missing]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, new RegExp(`plat apiserver: initializing audit webhook: stat ${missing}: no such file or directory\\n$`));
    const broken = path.join(dir, 'broken.conf');
    writeFileSync(broken, 'clusters: [{name: c, cluster: {server: "https://127.0.0.1:1", certificate-authority-data: "bm90IGEgY2VydA=="}}]\n');
    const b = await bootRefusal('apiserver', [...base, '--audit-webhook-config-file', broken]);
    assert.equal(b.code, 1);
    assert.match(b.stderr, /plat apiserver: initializing audit webhook: .+\n$/);
  });
});
