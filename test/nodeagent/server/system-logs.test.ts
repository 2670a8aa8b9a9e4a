// /logs/ on the secure port, over a real log directory: net/http's FileServer listing and files,
// traversal refused (`..`, encoded or not, and symbolic links leading out), and the node log query
// (enableSystemLogQuery) with upstream's parameter errors, its service heuristics (a service that
// is no journald unit is read from <service>.log) and single-file mode.
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { journalctlArgs, parseNodeLogQuery } from '../../../plugins/nodeagent-server/node-log-query.js';
import { tempDir } from '../../helpers/plat.js';
import { request, selfSignedPair, serverConfig, startServer, type RequestOptions, type RunningServer } from './support.js';

describe('node agent /logs/', () => {
  const root = tempDir('plat-nasrv-logs-');
  const outside = tempDir('plat-nasrv-outside-');
  const pair = selfSignedPair();
  let files: RunningServer;
  let query: RunningServer;
  const on = (s: RunningServer) => (p: string, o: RequestOptions = {}) => request(s.port, p, { ca: pair.cert, ...o });

  before(async () => {
    writeFileSync(path.join(root, 'syslog'), 'line one\nline two\n');
    writeFileSync(path.join(root, 'plat-test-svc.log'), 'service log\n');
    writeFileSync(path.join(root, '<odd>&name.txt'), 'odd\n');
    mkdirSync(path.join(root, 'pods'));
    writeFileSync(path.join(root, 'pods', 'web.log'), 'web\n');
    writeFileSync(path.join(outside, 'secret'), 'not for you\n');
    symlinkSync(path.join(outside, 'secret'), path.join(root, 'leak'));
    symlinkSync(outside, path.join(root, 'leakdir'));
    const options = { systemLogDir: root };
    files = await startServer({ config: await serverConfig(), pair, options });
    query = await startServer({ config: await serverConfig({ enableSystemLogQuery: true }), pair, options });
  });
  after(async () => { await files?.stop(); await query?.stop(); });

  it('lists the directory and serves files as net/http\'s FileServer', async () => {
    const get = on(files);
    const list = await get('/logs/');
    assert.equal(list.status, 200);
    assert.equal(list.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(list.text, '<!doctype html>\n<meta name="viewport" content="width=device-width">\n<pre>\n'
      + '<a href="%3Codd%3E&name.txt">&lt;odd&gt;&amp;name.txt</a>\n<a href="leak">leak</a>\n<a href="leakdir">leakdir</a>\n'
      + '<a href="plat-test-svc.log">plat-test-svc.log</a>\n<a href="pods/">pods/</a>\n<a href="syslog">syslog</a>\n</pre>\n');
    const f = await get('/logs/syslog');
    assert.deepEqual([f.status, f.text, f.headers['content-type']], [200, 'line one\nline two\n', 'text/plain; charset=utf-8']);
    assert.ok(f.headers['last-modified']);
    assert.equal((await get('/logs/pods/web.log')).text, 'web\n');
    const dir = await get('/logs/pods');
    assert.deepEqual([dir.status, dir.headers.location], [301, 'pods/']);
    assert.deepEqual(await get('/logs/nope.log').then((r) => [r.status, r.text]), [404, '404 page not found\n']);
  });

  it('refuses to leave the directory', async () => {
    const get = on(files);
    for (const p of ['/logs/../../../etc/passwd', '/logs/pods/../../x', '/logs/%2e%2e/%2e%2e/etc/passwd', '/logs/pods%2f..%2f..%2fsecret', '/logs/..%5c..%5cetc']) {
      const r = await get(p);
      assert.deepEqual([r.status, r.text], [400, 'invalid URL path\n'], p);
    }
    for (const p of ['/logs/leak', '/logs/leakdir/secret', '/logs/leakdir/']) {
      const r = await get(p);
      assert.equal(r.status, 404, `${p}: a link out of the directory is not followed`);
      assert.ok(!r.text.includes('not for you'));
    }
  });

  it('without enableSystemLogQuery, query parameters are ignored (the file server answers)', async () => {
    const r = await on(files)('/logs/?query=plat-test-svc');
    assert.match(r.text, /^<!doctype html>/);
  });

  it('the node log query: services by heuristics, one file, and upstream\'s errors', async () => {
    const get = on(query);
    const svc = await get('/logs/?query=plat-test-svc');
    assert.equal(svc.status, 200);
    assert.equal(svc.headers['content-type'], 'text/plain;charset=UTF-8');
    assert.equal(svc.text, 'service log\n');
    const missing = await get('/logs/?query=plat-no-such-svc');
    assert.equal(missing.text, '\nlog not found for plat-no-such-svc\n');
    const raw = await new Promise<Buffer>((resolve, reject) => {
      https.get({ host: '127.0.0.1', port: query.port, path: '/logs/?query=plat-test-svc', ca: pair.cert, servername: 'localhost', headers: { 'accept-encoding': 'gzip' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(Buffer.concat(chunks)));
      }).on('error', reject);
    });
    assert.equal(gunzipSync(raw).toString('utf8'), 'service log\n');
    const opts = await get('/logs/?query=plat-test-svc&tailLines=5');
    assert.equal(opts.text, '\noptions present and query resolved to log files for [plat-test-svc]\ntry without specifying options\n');
    const file = await get('/logs/?query=/pods/web.log');
    assert.equal(file.text, 'web\n');

    const errors: [string, number, string][] = [
      ['/logs/?query=a&query=b/c', 406, 'query: Invalid value: "[b/c], [a]": cannot specify a file and service\n'],
      ['/logs/?query=/a.log&query=/b.log', 406, 'query: Invalid value: []string{"/a.log", "/b.log"}: cannot specify more than one file\n'],
      ['/logs/?query=/syslog&tailLines=3', 406, 'query: Invalid value: []string{"/syslog"}: cannot specify file with options\n'],
      ['/logs/?query=bad%24name', 406, 'query: Invalid value: "bad$name": input contains unsupported characters\n'],
      ['/logs/?query=a&query=b&query=c&query=d&query=e', 406, 'query: Too many: 5: must have at most 4 items\n'],
      ['/logs/?tailLines=3', 406, 'query: Required value: cannot be empty with options\n'],
      ['/logs/?query=a&tailLines=x', 400, 'tailLines: Invalid value: "x": strconv.Atoi: parsing "x": invalid syntax\n'],
      ['/logs/?query=a&tailLines=100001', 406, 'tailLines: Invalid value: 100001: must be between 0 and 100000, inclusive\n'],
      ['/logs/?query=a&boot=1', 406, 'boot: Invalid value: 1: must be less than 1\n'],
      ['/logs/?query=a&sinceTime=yesterday', 400, 'sinceTime: Invalid value: "yesterday": invalid time format\n'],
      ['/logs/?query=%20%20', 400, 'query: Invalid value: []string{"  "}: query cannot be empty\n'],
      ['/logs/pods/web.log?query=a', 406, 'path not allowed in query mode\n'],
    ];
    for (const [p, status, text] of errors) {
      const r = await get(p);
      assert.deepEqual([r.status, r.text], [status, text], p);
    }
    const escape = await get('/logs/?query=/../../etc/passwd');
    assert.equal(escape.status, 406, 'a file query stays inside the log directory');
    assert.match(escape.text, /^query: Invalid value: \[\]string\{"\/\.\.\/\.\.\/etc\/passwd"\}: stat .*\/etc\/passwd: no such file or directory\n$/);
  });

  it('builds journalctl\'s arguments as upstream does', () => {
    const q = parseNodeLogQuery(new URLSearchParams('query=kubelet&query=containerd&sinceTime=2024-01-02T03:04:05Z&tailLines=10&pattern=err.*&boot=-1')).query!;
    assert.deepEqual(journalctlArgs(q, q.services), [
      '--utc', '--no-pager', '--output=short-precise', '--since=2024-1-2 3:4:5', '--pager-end', '--lines=10',
      '--unit=kubelet', '--unit=containerd', '--grep=err.*', '--boot', '-1',
    ]);
    assert.equal(parseNodeLogQuery(new URLSearchParams('')).query, undefined, 'no query parameters: the file server');
  });
});
