// A password in staticPodURL never reaches the log: every error of a fetch and the V(1) line naming
// the source say `user:***@`, as Go's client says it in its url.Error (stripPassword), where Go's
// errors name the URL; upstream's own texts, which print the URL as written, are masked the same way.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { stripPassword } from '../../../core/go-strip-password.js';
import { createLogger } from '../../../core/log.js';
import { FeatureGates } from '../../../core/nodeagent/feature-gates.js';
import { createStaticPodsSubsystem } from '../../../plugins/nodeagent-static-pods/index.js';
import { HttpSource } from '../../../plugins/nodeagent-static-pods/http-source.js';
import { nodeAgentTestContext } from '../../helpers/nodeagent-context.js';

describe('a password in staticPodURL', () => {
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((req, res) => {
    if (req.url === '/hang') return; // never answers: the fetch's deadline passes
    if (req.url === '/stall') { res.writeHead(200, { 'content-length': '100000' }).write('a'); return; } // its body never ends
    if (req.url === '/loop') { res.writeHead(302, { location: '/loop' }).end(); return; }
    if (req.url === '/away') { res.writeHead(302, { location: `http://other:OTHERPASS@127.0.0.1:${port}/away` }).end(); return; }
    if (req.url === '/forbidden') { res.writeHead(403).end('no'); return; }
    if (req.url === '/empty') { res.writeHead(200).end(); return; }
    res.writeHead(200).end('not a pod');
  });
  server.on('connection', (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
  let port = 0;
  before(() => new Promise<void>((r) => server.listen(0, '127.0.0.1', () => { port = (server.address() as AddressInfo).port; r(); })));
  after(() => { for (const s of sockets) s.destroy(); server.close(); });

  const base = () => `http://puser:STATICPASS@127.0.0.1:${port}`;
  /** `err` is the whole error text, or with `prefix` its beginning (the decoders' reasons follow). */
  const cases: Array<{ path: string; deadlineMs?: number; prefix?: true; err: () => string }> = [
    { path: '/hang', deadlineMs: 300, err: () => `Get "http://puser:***@127.0.0.1:${port}/hang": context deadline exceeded (Client.Timeout exceeded while awaiting headers)` },
    // Past the headers, the deadline is cancelTimerBody's, which names no URL.
    { path: '/stall', deadlineMs: 300, err: () => 'context deadline exceeded (Client.Timeout or context cancellation while reading body)' },
    { path: '/loop', err: () => 'Get "/loop": stopped after 10 redirects' },
    { path: '/away', err: () => `Get "http://other:***@127.0.0.1:${port}/away": stopped after 10 redirects` },
    { path: '/forbidden', err: () => `http://puser:***@127.0.0.1:${port}/forbidden: 403 Forbidden` },
    { path: '/empty', err: () => `zero-length data received from http://puser:***@127.0.0.1:${port}/empty` },
    { path: '/garbage', prefix: true, err: () => `http://puser:***@127.0.0.1:${port}/garbage: received 'not a pod', but couldn't parse as single` },
  ];
  for (const c of cases) {
    it(`is masked in the error of ${c.path}`, async () => {
      const lines: string[] = [];
      const source = new HttpSource(`${base()}${c.path}`, {}, 'node-1', FeatureGates.defaults(), createLogger({ write: (l) => lines.push(l) }));
      await source.poll(c.deadlineMs === undefined ? undefined : AbortSignal.timeout(c.deadlineMs));
      assert.equal(lines.length, 1, lines.join('\n'));
      const field = `Failed to read pods from URL err=${JSON.stringify(c.err())}`;
      if (c.prefix) assert.ok(lines[0]!.includes(field.slice(0, -1)), lines[0]);
      else assert.ok(lines[0]!.endsWith(field), lines[0]);
      assert.doesNotMatch(lines[0]!, /STATICPASS|OTHERPASS/);
    });
  }

  it('is masked in the V(1) line naming the source', async () => {
    const lines: string[] = [];
    const ctx = nodeAgentTestContext({
      standalone: true, logger: createLogger({ verbosity: 1, write: (l) => lines.push(l) }),
      config: { staticPodURL: `${base()}/empty`, httpCheckFrequency: '1h' },
    });
    const stop = new AbortController();
    const done = createStaticPodsSubsystem(ctx).run(stop.signal);
    try {
      for (let i = 0; i < 400 && !ctx.staticPods.isSet(); i++) await new Promise((r) => setTimeout(r, 25));
      assert.ok(lines.some((l) => l.endsWith(` Watching URL URL="http://puser:***@127.0.0.1:${port}/empty"`)), lines.join('\n'));
      assert.doesNotMatch(lines.join('\n'), /STATICPASS/);
    } finally {
      stop.abort();
      await done;
    }
  });

  it('is masked as Go\'s stripPassword masks it', () => {
    const table: Array<[string, string]> = [
      ['http://u:p@h/x', 'http://u:***@h/x'],
      ['https://u%40corp:p%3Aq@h:1/x?a=b@c', 'https://u@corp:***@h:1/x?a=b@c'],
      ['http://u:p@x@h/', 'http://u:***@h/'],
      ['http://u:@h/', 'http://u:***@h/'],
      ['http://u@h/', 'http://u@h/'],
      ['http://h/a:b@c', 'http://h/a:b@c'],
      ['/relative', '/relative'],
    ];
    assert.deepEqual(table.map(([u]) => [u, stripPassword(u)]), table);
  });
});
