// The audit families of 1.32's pkg/audit/metrics.go on /metrics, counted where upstream counts
// them: apiserver_audit_level_total for every request the policy evaluates (None too),
// apiserver_audit_event_total for every event handed to the backends, apiserver_audit_error_total
// for the events a backend (here truncation) lost, apiserver_audit_requests_rejected_total for the
// requests refused because a blocking-strict backend failed their RequestReceived.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tapAuditBackend, type Plugin } from '../../core/plugin-api.js';
import { silentLogger } from '../../core/log.js';
import type { Client } from '../helpers/plat.js';
import { startInProcess, tempDir } from '../helpers/plat.js';
import { eventsOf, startAudited, writePolicy } from '../audit/support.js';

// /metrics itself is not audited, so that scraping does not move what is measured.
const POLICY = 'apiVersion: audit.platform/v1\nkind: Policy\nrules:\n- level: None\n  nonResourceURLs: ["/metrics", "/healthz"]\n- level: Metadata\n';

async function scrape(client: Client): Promise<{ text: string; value: (sample: string) => number }> {
  const r = await client.get('/metrics');
  assert.equal(r.status, 200);
  const values = new Map<string, number>();
  for (const m of r.text.matchAll(/^([^#\s]\S*) (\S+)$/gm)) values.set(m[1]!, Number(m[2]));
  return { text: r.text, value: (sample) => values.get(sample) ?? 0 };
}

describe('plat apiserver audit metrics', () => {
  it('counts each request\'s level and each event sent, with upstream\'s help texts', async () => {
    const a = await startAudited(POLICY);
    try {
      const before = await scrape(a.plat.admin);
      for (const l of [
        '# HELP apiserver_audit_event_total [ALPHA] Counter of audit events generated and sent to the audit backend.',
        '# TYPE apiserver_audit_event_total counter',
        '# HELP apiserver_audit_level_total [ALPHA] Counter of policy levels for audit events (1 per request).',
        '# HELP apiserver_audit_requests_rejected_total [ALPHA] Counter of apiserver requests rejected due to an error in audit logging backend.',
        'apiserver_audit_requests_rejected_total 0',
      ]) assert.ok(before.text.split('\n').includes(l), `missing: ${l}`);
      for (const id of ['m-1', 'm-2']) {
        assert.equal((await a.plat.admin.get('/version', { 'audit-id': id })).status, 200);
        await eventsOf(a.log, id);
      }
      assert.equal((await a.plat.admin.get('/healthz')).status, 200);
      const after = await scrape(a.plat.admin);
      const grew = (s: string) => after.value(s) - before.value(s);
      assert.equal(grew('apiserver_audit_level_total{level="Metadata"}'), 2);
      // /healthz and the second scrape.
      assert.equal(grew('apiserver_audit_level_total{level="None"}'), 2);
      // RequestReceived and ResponseComplete of each /version.
      assert.equal(grew('apiserver_audit_event_total'), 4);
      assert.ok(!after.text.includes('apiserver_audit_error_total{'), 'no backend failed');
    } finally {
      await a.plat.stop();
    }
  });

  it('counts the events truncation had to drop under plugin="truncate"', async () => {
    const a = await startAudited(POLICY, ['--audit-log-truncate-enabled', '--audit-log-truncate-max-event-size=10']);
    try {
      assert.equal((await a.plat.admin.get('/version')).status, 200);
      const s = await scrape(a.plat.admin);
      // Every event is larger than 10 bytes: each one sent is one lost, in the same step.
      assert.ok(s.value('apiserver_audit_event_total') >= 1);
      // A vector is shown once it has a series, as upstream's.
      assert.ok(s.text.includes('\n# HELP apiserver_audit_error_total [ALPHA] Counter of audit events that failed to be audited properly. Plugin identifies the plugin affected by the error.\n'));
      assert.equal(s.value('apiserver_audit_error_total{plugin="truncate"}'), s.value('apiserver_audit_event_total'));
    } finally {
      await a.plat.stop();
    }
  });

  it('counts the requests a failing blocking-strict backend refused', async () => {
    const failing: Plugin = {
      name: 'FailingAuditBackend',
      apply(host) {
        tapAuditBackend(host, 'FailingAuditBackend', { processEvents: () => false }, {
          mode: 'blocking-strict', apiVersion: 'audit.platform/v1',
          batch: { bufferSize: 1, maxBatchSize: 1, maxBatchWait: 0, throttleEnable: false, throttleQPS: 0, throttleBurst: 0 },
        }, silentLogger);
      },
    };
    const policy = writePolicy(tempDir('plat-audit-metrics-'), POLICY);
    const plat = await startInProcess({ args: ['--controllers=', '--audit-policy-file', policy], plugins: [failing] });
    try {
      for (let i = 0; i < 2; i++) assert.equal((await plat.admin.get('/version')).status, 500);
      const s = await scrape(plat.admin);
      assert.equal(s.value('apiserver_audit_requests_rejected_total'), 2);
      assert.equal(s.value('apiserver_audit_event_total'), 2);
      assert.equal(s.value('apiserver_audit_level_total{level="Metadata"}'), 2);
    } finally {
      await plat.stop();
    }
  });
});
