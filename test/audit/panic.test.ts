// A request whose handler throws what no handler means to throw (a plain Error from a plugin's
// code): upstream's WithAudit recovers the panic and sends a Panic event (500, InternalError,
// "APIServer panic'd: <value>") in place of ResponseComplete, and WithPanicRecovery answers the
// client 500 with its fixed text, nothing of the error.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Plugin } from '../../core/plugin-api.js';
import { eventsOf, readEvents, startAudited, type AuditedPlat } from './support.js';

const CRASHING: Plugin = {
  name: 'CrashingPathForTest',
  apply(host) {
    host.hooks.resources.tap('CrashingPathForTest', (registry) => {
      registry.registerPath({ path: '/crash', get: () => { throw new Error('the plugin broke: /secret/path'); } });
    });
  },
};

describe('a request that panics', () => {
  let a: AuditedPlat;
  before(async () => {
    a = await startAudited('apiVersion: audit.platform/v1\nkind: Policy\nrules:\n- level: Metadata\n', [], [CRASHING]);
  });
  after(async () => { await a?.plat.stop(); });

  it('answers upstream\'s panic text and is audited at stage Panic, never ResponseComplete', async () => {
    const r = await a.plat.admin.get('/crash', { 'audit-id': 'panics' });
    assert.equal(r.status, 500);
    assert.equal(r.text, 'This request caused apiserver to panic. Look in the logs for details.\n');
    assert.equal(r.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(r.headers['x-content-type-options'], 'nosniff');
    assert.equal(r.headers['audit-id'], 'panics');
    const evs = await eventsOf(a.log, 'panics', 'Panic');
    const panic = evs.find((e) => e.stage === 'Panic');
    assert.deepEqual(panic.responseStatus, { metadata: {}, status: 'Failure', message: "APIServer panic'd: the plugin broke: /secret/path", reason: 'InternalError', code: 500 });
    assert.equal(panic.annotations['authorization.platform/decision'], 'allow');
    // A later request's ResponseComplete in the log: the panicked one's would have come before it.
    await a.plat.admin.get('/version', { 'audit-id': 'after-panic' });
    await eventsOf(a.log, 'after-panic');
    assert.deepEqual(readEvents(a.log).filter((e) => e.auditID === 'panics').map((e) => e.stage), ['RequestReceived', 'Panic']);
  });
});
