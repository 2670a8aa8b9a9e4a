// The URL a token or authorization webhook is POSTed to, as client-go's Request.URL builds it from
// the kubeconfig's server: NewRESTClient drops the query and fragment, NewRequest's
// path.Join("/", base.Path) cleans the path (no trailing or doubled slash), and the client's
// timeout is the whole query. A webhook routing the exact path (Go's ServeMux "/authorize") must
// see what it sees from kube-apiserver.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebhookClient } from '../../core/client/webhook-client.js';
import { freePort } from '../helpers/plat.js';

const once = { initialMs: 1, factor: 1, jitter: 0, steps: 1 };

describe('WebhookClient request URL', () => {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.url ?? '');
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  });
  after(async () => { server.closeAllConnections(); await new Promise((r) => server.close(r)); });

  it('sends the server path cleaned as path.Join, without the kubeconfig query or fragment', async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    for (const [written, sent] of [
      ['/authorize/?tenant=a#x', '/authorize?timeout=30s'],
      ['//hooks//authorize/', '/hooks/authorize?timeout=30s'],
      ['', '/?timeout=30s'],
    ] as const) {
      const client = new WebhookClient({ connection: { server: new URL(`http://127.0.0.1:${port}${written}`), insecureSkipTlsVerify: false }, backoff: once });
      try {
        await client.post('{}');
      } finally {
        client.close();
      }
      assert.equal(seen.at(-1), sent, `server ${written}`);
    }
  });

  it('names that URL in a refused connection, as Go\'s url.Error', async () => {
    const port = await freePort();
    const client = new WebhookClient({ connection: { server: new URL(`http://127.0.0.1:${port}/authorize/#frag`), insecureSkipTlsVerify: false }, backoff: once, timeoutMs: 5000 });
    try {
      await assert.rejects(client.post('{}'), (e: Error) => {
        assert.match(e.message, new RegExp(`^Post "http://127\\.0\\.0\\.1:${port}/authorize\\?timeout=5s": dial tcp 127\\.0\\.0\\.1:${port}: connect: connection refused$`));
        return true;
      });
    } finally {
      client.close();
    }
  });
});
