// Admission that refuses plat's own writes does not stop the server, and TokenRequests are
// admitted like any create.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createLogger } from '../../core/log.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';

describe('AlwaysDeny on a fresh data directory', () => {
  let plat: RunningPlat;
  const logs: string[] = [];
  before(async () => {
    plat = await startInProcess({ args: ['--enable-admission-plugins=AlwaysDeny'], logger: createLogger({ verbosity: 0, write: (l) => logs.push(l) }) });
  });
  after(async () => { await plat?.stop(); });

  it('serves, and says why the system namespaces are missing', async () => {
    assert.equal((await plat.admin.get('/readyz')).status, 200);
    assert.equal((await plat.admin.get('/api/v1/namespaces/default')).status, 404);
    assert.ok(logs.some((l) => l.includes('cannot create a system namespace; retrying in a minute') && l.includes('admission control is denying all modifications')), logs.join('\n'));
  });
});

describe('TokenRequest admission', () => {
  let plat: RunningPlat;
  before(async () => {
    const seeded = await startInProcess();
    const dataDir = seeded.dataDir;
    assert.equal((await seeded.admin.post('/api/v1/namespaces/default/serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } })).status, 201);
    await seeded.host!.hooks.shutdown.promise();
    plat = await startInProcess({ dataDir, args: ['--enable-admission-plugins=AlwaysDeny'] });
  });
  after(async () => { await plat?.stop(); });

  it('runs the admission phases on serviceaccounts/token', async () => {
    const r = await plat.admin.post('/api/v1/namespaces/default/serviceaccounts/robot/token', { apiVersion: 'authentication.platform/v1', kind: 'TokenRequest', spec: {} });
    assert.equal(r.status, 403, r.text);
    assert.equal(r.json.message, 'serviceaccounts "robot" is forbidden: admission control is denying all modifications');
  });
});
