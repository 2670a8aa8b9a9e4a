// What each request leaves behind on the path every write takes, request after request on one
// server: an authenticator's reject() and warn() (called unbound, as a plugin may pass them on)
// give a 401 carrying the warning's UTF-8 bytes as Go writes them and one error line at the
// default verbosity; the authentication and request metrics count every request under its own
// labels, exactly.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createLogger } from '../../core/log.js';
import type { Plugin } from '../../core/plugin.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';

const WARNING = 'slow down, ünïcode ✓';
const REASON = 'credential refused by ReluctantAuthenticator';

/** With x-reluctant, warns and rejects through the request's functions taken off it. */
const ReluctantAuthenticator: Plugin = {
  name: 'ReluctantAuthenticator',
  apply(host) {
    host.hooks.authenticate.tapPromise({ name: 'ReluctantAuthenticator', stage: -1 }, async (req) => {
      if (!req.headers['x-reluctant']) return undefined;
      const { reject, warn } = req;
      warn?.(WARNING);
      reject(REASON);
      return undefined;
    });
  },
};

const CLUSTER_ROLES = '/apis/rbac.authorization.platform/v1/clusterroles';
const labels = (code: number, verb: string) =>
  `{code="${code}",component="apiserver",dry_run="",group="rbac.authorization.platform",resource="clusterroles",scope="resource",subresource="",verb="${verb}",version="v1"}`;

describe('the request path, request after request', () => {
  let plat: RunningPlat;
  const logs: string[] = [];
  before(async () => {
    plat = await startInProcess({
      // No embedded controllers: the aggregation controller's applies of clusterroles would count too.
      args: ['--anonymous-auth=true', '--controllers='], plugins: [ReluctantAuthenticator],
      logger: createLogger({ verbosity: 0, write: (l) => logs.push(l) }),
    });
  });
  after(async () => { await plat?.stop(); });

  it('answers each rejected request 401 with its warning, logs it once, and counts it as an error', async () => {
    const anonymous = plat.admin.with({ anonymous: true });
    for (let i = 0; i < 3; i++) {
      const r = await anonymous.get(CLUSTER_ROLES, { 'x-reluctant': '1' });
      assert.equal(r.status, 401, 'a rejection is never anonymous');
      assert.equal(r.json.reason, 'Unauthorized');
      // Node reads header bytes as latin1: the UTF-8 of the text, sent once, not encoded twice.
      assert.equal(Buffer.from(String(r.headers['warning']), 'latin1').toString('utf8'), `299 - "${WARNING}"`);
    }
    const errors = logs.filter((l) => l.includes('Unable to authenticate the request'));
    assert.equal(errors.length, 3, logs.join('\n'));
    assert.ok(errors.every((l) => l.includes(REASON)), errors.join('\n'));

    const metrics = await plat.admin.get('/metrics');
    assert.equal(metrics.status, 200);
    const lines = metrics.text.split('\n');
    assert.ok(lines.includes('authentication_attempts{result="error"} 3'), lines.filter((l) => l.startsWith('authentication_attempts')).join('\n'));
  });

  it('counts each create and get under its own verb and code', async () => {
    const admin = plat.admin;
    for (let i = 0; i < 4; i++) {
      const r = await admin.post(CLUSTER_ROLES, { apiVersion: 'rbac.authorization.platform/v1', kind: 'ClusterRole', metadata: { name: `records-${i}` }, rules: [] });
      assert.equal(r.status, 201, r.text);
    }
    for (let i = 0; i < 2; i++) assert.equal((await admin.get(`${CLUSTER_ROLES}/records-${i}`)).status, 200);
    assert.equal((await admin.get(`${CLUSTER_ROLES}/records-none`)).status, 404);
    const lines = (await admin.get('/metrics')).text.split('\n');
    const requests = lines.filter((l) => l.startsWith('apiserver_request_total{') && l.includes('resource="clusterroles"') && !l.includes('verb="LIST"'));
    assert.deepEqual(requests.sort(), [
      `apiserver_request_total${labels(200, 'GET')} 2`,
      `apiserver_request_total${labels(201, 'POST')} 4`,
      `apiserver_request_total${labels(404, 'GET')} 1`,
    ], requests.join('\n'));
  });
});
