// A backend of a plugin's own (as a webhook backend would be): tapAuditBackend wraps it in the
// mode it names. blocking-strict: a failed RequestReceived fails the request, as upstream's
// WithAudit answers 500 "failed to store audit event"; blocking: the failure is only logged.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tapAuditBackend, type AuditBackend, type AuditEvent, type AuditMode, type Plugin } from '../../core/plugin-api.js';
import { startInProcess, tempDir } from '../helpers/plat.js';
import { silentLogger } from '../../core/log.js';
import { writePolicy } from './support.js';

function failingBackend(mode: AuditMode, seen: AuditEvent[]): Plugin {
  const backend: AuditBackend = { processEvents: (evs) => { seen.push(...evs); return false; } };
  return {
    name: 'FailingAuditBackend',
    apply(host) {
      tapAuditBackend(host, 'FailingAuditBackend', backend, {
        mode, apiVersion: 'audit.platform/v1',
        batch: { bufferSize: 1, maxBatchSize: 1, maxBatchWait: 0, throttleEnable: false, throttleQPS: 0, throttleBurst: 0 },
      }, silentLogger);
    },
  };
}

describe('an audit backend plugin', () => {
  for (const [mode, status] of [['blocking-strict', 500], ['blocking', 200]] as const) {
    it(`${mode}: a backend that fails RequestReceived ${status === 500 ? 'fails the request' : 'is only logged'}`, async () => {
      const dir = tempDir('plat-audit-plugin-');
      const policy = writePolicy(dir, 'apiVersion: audit.platform/v1\nkind: Policy\nrules:\n- level: Metadata\n');
      const seen: AuditEvent[] = [];
      const plat = await startInProcess({ args: ['--controllers=', '--audit-policy-file', policy], plugins: [failingBackend(mode, seen)] });
      try {
        const r = await plat.admin.get('/version', { 'audit-id': 'strict', 'x-forwarded-for': '10.0.0.1, 10.0.0.2' });
        assert.equal(r.status, status);
        if (status === 500) assert.equal(r.text, 'Internal Server Error: "/version": failed to store audit event\n');
        const mine = seen.filter((e) => e.auditID === 'strict');
        assert.equal(mine[0]?.stage, 'RequestReceived');
        // utilnet.SourceIPs: the X-Forwarded-For chain, then the peer.
        assert.deepEqual(mine[0]?.sourceIPs, ['10.0.0.1', '10.0.0.2', '127.0.0.1']);
      } finally {
        await plat.stop();
      }
    });
  }
});
