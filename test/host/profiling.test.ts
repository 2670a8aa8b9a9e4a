// --profiling (default on) of the API server and the controller manager: upstream's debugging
// handlers behind each endpoint's authentication and authorization — /debug/pprof/ with V8's
// profiles, /debug/pprof redirecting there, PUT /debug/flags/v and the /debug/flags index — gone
// with --profiling=false;
// --contention-profiling (Go's block profile) is refused. One table for both components.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { endpoints } from './endpoints.js';

describe('--profiling: the debugging handlers', () => {
  let plat: RunningPlat;
  const running: { stop(): Promise<void> }[] = [];
  before(async () => { plat = await startInProcess({ args: ['--profiling=false', '--authorization-mode=RBAC'] }); });
  after(async () => {
    for (const r of running) await r.stop();
    await plat?.stop();
  });

  for (const c of endpoints(() => plat, running)) {
    it(`${c.name}: on by default, for those allowed`, async () => {
      const { admin, nobody } = await c.start([]);
      const index = await admin.get('/debug/pprof/');
      assert.equal(index.status, 200, index.text);
      assert.match(index.text, /<title>\/debug\/pprof\/<\/title>/);
      const redirect = await admin.get('/debug/pprof');
      // Go's http.Redirect with 302 Found, as routes.Profiling's redirectTo.
      assert.equal(redirect.status, 302);
      assert.equal(redirect.headers.location, '/debug/pprof/');
      assert.equal(redirect.headers['content-type'], 'text/html; charset=utf-8');
      assert.equal(redirect.text, '<a href="/debug/pprof/">Found</a>.\n\n');
      for (const p of ['/debug/flags', '/debug/flags/', '/debug/flags/x']) {
        const index = await admin.get(p);
        assert.equal(index.status, 200, `${p}: ${index.text}`);
        assert.equal(index.headers['content-type'], 'text/html; charset=utf-8', p);
        assert.equal(index.text, '<html>\n<head>\n<title>/debug/flags/</title>\n</head>\n<body>\n/debug/flags/<br>\n<br>\nflags:<br>\n'
          + '<table>\n\n<tr>v<br>\n\n</table>\n<br>\nfull flags configurable<br>\n</body>\n</html>\n', p);
      }
      const cpu = await admin.get('/debug/pprof/profile?seconds=1');
      assert.equal(cpu.status, 200, cpu.text);
      assert.match(String(cpu.headers['content-disposition']), /filename="profile\.cpuprofile"/);
      assert.ok(Array.isArray(cpu.json?.nodes) && cpu.json.nodes.length > 0, 'a V8 CPU profile');
      const heap = await admin.get('/debug/pprof/heap');
      assert.equal(heap.status, 200);
      assert.ok(heap.json?.head, 'a V8 sampling heap profile');
      assert.equal((await admin.get('/debug/pprof/goroutine')).text, 'Unknown profile\n');

      const set = await admin.put('/debug/flags/v', '5');
      assert.equal(set.status, 200, set.text);
      assert.equal(set.text, 'successfully set klog.logging.verbosity to 5\n');
      assert.equal((await admin.put('/debug/flags/v', '4')).status, 200);
      assert.equal((await admin.put('/debug/flags/v', 'x')).status, 400);

      const denied = await nobody.get('/debug/pprof/heap');
      assert.equal(denied.status, 403);
      assert.match(denied.text, /User \\"nobody\\" cannot get path \\"\/debug\/pprof\/heap\\"/);
    });

    it(`${c.name}: --profiling=false serves none of them; --contention-profiling is refused`, async () => {
      const { admin } = await c.start(['--profiling=false']);
      for (const p of ['/debug/pprof/', '/debug/pprof/heap', '/debug/flags/v', '/debug/flags']) {
        const r = await admin.get(p);
        assert.equal(r.status, 404, `${p}: ${r.text}`);
        assert.match(r.text, c.notFound, p);
      }
      await assert.rejects(c.start(['--contention-profiling']), /--contention-profiling.*not supported: block profiling is Go's/);
    });
  }
});
