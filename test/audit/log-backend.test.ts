// The log backend (plugins/audit-log): the file it writes (0600, one line an event, json or
// legacy), the batch mode's writes and its flush at shutdown, truncation, rotation by size, and
// its flags checked as upstream's AuditLogOptions.Validate checks them.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { csrBody, makeCsr } from '../csrsigning/support.js';
import { bootRefusal } from '../helpers/boot-refusal.js';
import { runPlatAsync } from '../helpers/run-plat.js';
import { startProcess, tempDir } from '../helpers/plat.js';
import { waitUntil } from '../helpers/watch-stream.js';
import { CSRS, eventsOf, readEvents, startAudited, writePolicy } from './support.js';
import { RotatingFile } from '../../plugins/audit-log/rotating-file.js';

const ALL = 'apiVersion: audit.platform/v1\nkind: Policy\nrules:\n- level: RequestResponse\n';
const bigCsr = (name: string, bytes: number) => {
  const body = csrBody(name, makeCsr({ cn: 'x' }), 'example.com/x', ['client auth']) as { metadata: Record<string, unknown> };
  body.metadata['annotations'] = { big: 'x'.repeat(bytes) };
  return body;
};

describe('audit log backend', () => {
  it('creates the log file 0600 (its directory 0700) and writes one JSON line an event', async () => {
    const a = await startAudited(ALL);
    try {
      assert.equal(statSync(a.log).mode & 0o777, 0o600);
      assert.equal(statSync(path.dirname(a.log)).mode & 0o777, 0o700);
      await a.plat.admin.get('/version', { 'audit-id': 'file-mode' });
      const evs = await eventsOf(a.log, 'file-mode');
      assert.equal(evs.length, 2);
      assert.ok(readFileSync(a.log, 'utf8').endsWith('}\n'));
    } finally {
      await a.plat.stop();
    }
  });

  it('--audit-log-format=legacy writes upstream\'s one-line text', async () => {
    const a = await startAudited(ALL, ['--audit-log-format=legacy']);
    try {
      await a.plat.admin.get('/version?x=1', { 'audit-id': 'legacy-1', 'user-agent': 'ua "quoted"' });
      const lines = await waitUntil(() => {
        const l = readFileSync(a.log, 'utf8').split('\n').filter((x) => x.includes('legacy-1'));
        return l.length === 2 ? l : undefined;
      }, 'two legacy lines');
      const re = (stage: string, response: string) => new RegExp(`^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,6})?Z AUDIT: id="legacy-1" stage="${stage}" ip="127.0.0.1" method="get" user="plat-admin" groups="\\\\"system:masters\\\\",\\\\"system:authenticated\\\\"" as="<self>" asgroups="<lookup>" user-agent="ua \\\\"quoted\\\\"" namespace="<none>" uri="/version\\?x=1" response="${response}"$`);
      assert.match(lines[0]!, re('RequestReceived', '<deferred>'));
      assert.match(lines[1]!, re('ResponseComplete', '200'));
    } finally {
      await a.plat.stop();
    }
  });

  it('batch mode writes an incomplete batch after --audit-log-batch-max-wait', async () => {
    const a = await startAudited(ALL, ['--audit-log-mode=batch', '--audit-log-batch-max-size=100', '--audit-log-batch-max-wait=200ms']);
    try {
      await a.plat.admin.get('/version', { 'audit-id': 'batch-wait' });
      const evs = await eventsOf(a.log, 'batch-wait');
      assert.deepEqual(evs.map((e) => e.stage), ['RequestReceived', 'ResponseComplete']);
    } finally {
      await a.plat.stop();
    }
  });

  it('batch mode writes what the buffer holds at shutdown', async () => {
    const a = await startAudited(ALL, ['--audit-log-mode=batch', '--audit-log-batch-max-size=100', '--audit-log-batch-max-wait=1h']);
    let stopped = false;
    try {
      const r = await a.plat.admin.get('/version', { 'audit-id': 'batch-stop' });
      assert.equal(r.status, 200);
      // The ResponseComplete of a request is handed over once its answer ended: wait for the handover, not the write.
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(readEvents(a.log), []);
      await a.plat.stop();
      stopped = true;
      assert.deepEqual(readEvents(a.log).filter((e) => e.auditID === 'batch-stop').map((e) => e.stage), ['RequestReceived', 'ResponseComplete']);
    } finally {
      if (!stopped) await a.plat.stop();
    }
  });

  it('truncation drops the objects of an event larger than --audit-log-truncate-max-event-size', async () => {
    const a = await startAudited(ALL, ['--audit-log-truncate-enabled', '--audit-log-truncate-max-event-size=20000']);
    try {
      const r = await a.plat.admin.post(CSRS, bigCsr('big', 30_000), { 'audit-id': 'truncated' });
      assert.equal(r.status, 201);
      const complete = (await eventsOf(a.log, 'truncated')).find((e) => e.stage === 'ResponseComplete');
      assert.equal(complete.requestObject, undefined);
      assert.equal(complete.responseObject, undefined);
      assert.equal(complete.annotations['audit.platform/truncated'], 'true');
      assert.equal(complete.annotations['authorization.platform/decision'], 'allow');
      assert.deepEqual(complete.responseStatus, { metadata: {}, code: 201 });
    } finally {
      await a.plat.stop();
    }
  });

  it('rotates by size: the old file becomes <name>-<time>.<ext>, gzipped with --audit-log-compress', async () => {
    const a = await startAudited(ALL, ['--audit-log-maxsize=1', '--audit-log-compress']);
    try {
      // Each create's ResponseComplete carries the object twice: ~0.4 MB; the third does not fit in 1 MB.
      for (const name of ['rot-1', 'rot-2', 'rot-3']) {
        const r = await a.plat.admin.post(CSRS, bigCsr(name, 200_000), { 'audit-id': name });
        assert.equal(r.status, 201);
      }
      const backup = await waitUntil(() => readdirSync(path.dirname(a.log)).find((f) => /^audit-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}\.log\.gz$/.test(f)), 'a gzipped backup');
      const old = gunzipSync(readFileSync(path.join(path.dirname(a.log), backup))).toString('utf8');
      assert.ok(old.includes('"auditID":"rot-1"'));
      assert.equal(statSync(a.log).mode & 0o777, 0o600);
      await eventsOf(a.log, 'rot-3');
      assert.ok(statSync(a.log).size <= 1024 * 1024);
    } finally {
      await a.plat.stop();
    }
  });

  it('--audit-log-path=- writes the events to standard output', async () => {
    const dir = tempDir('plat-audit-stdout-');
    const policy = writePolicy(dir, ALL);
    const plat = await startProcess({ args: ['--controllers=', '--audit-policy-file', policy, '--audit-log-path', '-'] });
    try {
      await plat.admin.get('/version', { 'audit-id': 'to-stdout' });
      const line = await waitUntil(() => plat.output().split('\n').find((l) => l.includes('"auditID":"to-stdout"') && l.includes('ResponseComplete')), 'the event on stdout');
      assert.equal(JSON.parse(line).kind, 'Event');
    } finally {
      await plat.stop();
    }
  });

  it('refuses bad values as upstream\'s Validate, all of them at once (exit 2), only with --audit-log-path', async () => {
    const dir = tempDir('plat-audit-flags-');
    const base = ['--secure-port', '0', '--data-dir', dir];
    const r = await bootRefusal('apiserver', [...base, '--audit-log-path', path.join(dir, 'a.log'), '--audit-log-mode', 'sometimes', '--audit-log-truncate-max-event-size', '0',
      '--audit-log-version', 'audit.k8s.io/v1', '--audit-log-format', 'xml', '--audit-log-maxage', '-1', '--audit-log-maxbackup', '-2', '--audit-log-maxsize', '-3']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /plat apiserver: \[invalid audit log mode sometimes, allowed modes are "batch,blocking,blocking-strict", invalid audit truncate log max event size 0, must be a positive number, invalid group version, allowed versions are \["audit\.platform\/v1"\], invalid audit log format xml, allowed formats are "legacy,json", --audit-log-maxage -1 can't be a negative number, --audit-log-maxbackup -2 can't be a negative number, --audit-log-maxsize -3 can't be a negative number\]\n$/);
    const batch = await bootRefusal('apiserver', [...base, '--audit-log-path', path.join(dir, 'b.log'), '--audit-log-mode', 'batch', '--audit-log-batch-throttle-enable', '--audit-log-batch-throttle-qps', '0']);
    assert.match(batch.stderr, /plat apiserver: invalid audit batch log throttle QPS 0, must be a positive number\n$/);
    assert.equal(existsSync(path.join(dir, 'c.log')), false);
  });

  it('a log file that cannot be created stops start-up', async () => {
    const dir = tempDir('plat-audit-enotdir-');
    writeFileSync(path.join(dir, 'file'), '');
    const r = await bootRefusal('apiserver', ['--secure-port', '0', '--data-dir', dir, '--audit-log-path', path.join(dir, 'file', 'logs', 'audit.log')]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /plat apiserver: --audit-log-path: ensureLogFile: mkdir \S+: not a directory\n$/);
    // A directory as the path: os.OpenFile(O_RDWR) fails in the open.
    const isDir = await bootRefusal('apiserver', ['--secure-port', '0', '--data-dir', dir, '--audit-log-path', `${dir}/`]);
    assert.equal(isDir.code, 1);
    assert.ok(isDir.stderr.endsWith(`\nplat apiserver: --audit-log-path: ensureLogFile: open ${dir}/: is a directory\n`), isDir.stderr);
  });

  it('a write that fails is os.File.Write\'s error, naming the file', { skip: !existsSync('/dev/full') && 'needs /dev/full' }, () => {
    const file = new RotatingFile('/dev/full', { maxSize: 0, maxBackups: 0, maxAge: 0, compress: false });
    try {
      assert.throws(() => file.write('{}\n'), { message: 'write /dev/full: no space left on device' });
    } finally {
      file.close();
    }
  });

  // Node's recursive mkdir spins forever under /proc (core/make-dir.ts): a process of its own, bounded.
  it('a log path under /proc stops start-up instead of hanging', { skip: process.platform !== 'linux' && 'needs /proc' }, async () => {
    const dir = tempDir('plat-audit-proc-');
    const r = await runPlatAsync(['apiserver', '--secure-port', '0', '--data-dir', dir, '--audit-log-path', '/proc/plat-audit/logs/audit.log']);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /plat apiserver: --audit-log-path: ensureLogFile: mkdir \/proc\/plat-audit: no such file or directory\n$/);
  });
});
