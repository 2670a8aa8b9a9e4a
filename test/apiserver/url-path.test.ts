// Request paths as Go's servers see them (req.URL.Path): escapes decoded before routing and
// authorization, a malformed escape refused with net/http's bare 400.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { unescapeGoPath } from '../../core/server/url-path.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';

describe('unescapeGoPath (net/url, path mode)', () => {
  it('decodes every escape, keeps "+", refuses malformed ones', () => {
    const cases: Array<[string, string | undefined]> = [
      ['/healthz', '/healthz'],
      ['/heal%74hz', '/healthz'],
      ['/api/v1/namespaces%2Fdefault', '/api/v1/namespaces/default'],
      ['/a+b%20c', '/a+b c'],
      ['/%E2%9C%93', '/\u2713'],
      ['/%e2%9c%93', '/\u2713'],
      ['/%25', '/%'],
      ['/%zz', undefined],
      ['/a%', undefined],
      ['/a%4', undefined],
    ];
    for (const [raw, want] of cases) assert.equal(unescapeGoPath(raw), want, raw);
  });
});

describe('the API server routes and authorizes the decoded path', () => {
  let plat: RunningPlat;
  // plat all turns anonymous requests off and allows everything; here they meet RBAC's default policy.
  before(async () => { plat = await startInProcess({ args: ['--anonymous-auth=true', '--authorization-mode=Node,RBAC'] }); });
  after(async () => { await plat?.stop(); });

  it('an escaped public path is the public path', async () => {
    const anonymous = plat.admin.with({ anonymous: true });
    const health = await anonymous.get('/heal%74hz');
    assert.equal(health.status, 200, health.text);
    assert.equal(health.text, 'ok');
    const metrics = await anonymous.get('/metr%69cs');
    assert.equal(metrics.status, 403, metrics.text);
    assert.equal(metrics.json.message, 'forbidden: User "system:anonymous" cannot get path "/metrics"');
  });

  it('an escaped slash separates segments, as in Go', async () => {
    const r = await plat.admin.get('/api/v1/namespaces%2Fdefault');
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.kind, 'Namespace');
    assert.equal(r.json.metadata.name, 'default');
  });

  it('a malformed escape: 400 before authentication', async () => {
    for (const p of ['/api%zz', '/api/v1/namespaces/%']) {
      const r = await plat.admin.with({ anonymous: true }).get(p);
      assert.equal(r.status, 400, p);
      assert.equal(r.text, '400 Bad Request');
      assert.equal(r.headers['content-type'], 'text/plain; charset=utf-8');
    }
  });
});
