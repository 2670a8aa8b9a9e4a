// readBody over a real HTTP/1.1 server: a body that has arrived whole before it is read (taken
// from the stream's buffer) and one still arriving (read through the stream) come out the same,
// and the limit holds either way.
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { once } from 'node:events';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { readBody } from '../../core/server/body.js';

const LIMIT = 64;

interface Seen { complete: boolean; body?: string; code?: number | undefined; atOnce?: boolean }

describe('readBody', () => {
  let server: http.Server;
  let port = 0;
  const seen: Seen[] = [];
  before(async () => {
    server = http.createServer(async (req, res) => {
      // ?wait: read only once the whole body is in (the parser has completed the message).
      if (req.url === '/wait') while (!req.complete) await new Promise((r) => setImmediate(r));
      const s: Seen = { complete: req.complete };
      seen.push(s);
      try {
        // Taken from the buffer, the body is there before the stream could even emit its end.
        let read = false;
        const reading = readBody(req, undefined, LIMIT).finally(() => { read = true; });
        await Promise.resolve(); await Promise.resolve();
        s.atOnce = read;
        s.body = (await reading).toString('latin1');
        res.end(Buffer.from(s.body, 'latin1'));
      } catch (e) {
        s.code = (e as { status?: { code?: number } }).status?.code;
        if (!res.destroyed) { res.statusCode = s.code ?? 500; res.end(); }
      }
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as net.AddressInfo).port;
  });
  after(() => server.close());

  /** Sends `parts` on a fresh connection, `pauseMs` apart; the answer's text, or '' when the connection was cut. */
  async function send(parts: string[], pauseMs = 0): Promise<string> {
    const sock = net.connect(port, '127.0.0.1');
    await once(sock, 'connect');
    let answer = '';
    sock.on('data', (d: Buffer) => { answer += d.toString('latin1'); });
    sock.on('error', () => {});
    for (const [i, p] of parts.entries()) {
      if (i > 0 && pauseMs) await sleep(pauseMs);
      if (!sock.destroyed) sock.write(p, 'latin1');
    }
    await Promise.race([once(sock, 'close'), (async () => { while (!/\r\n\r\n/.test(answer) || !answer.endsWith(bodyOf(answer))) await sleep(5); })()]);
    sock.destroy();
    return answer;
  }
  const bodyOf = (answer: string) => answer.split('\r\n\r\n')[1] ?? '';
  const head = (path: string, extra: string) => `POST ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${extra}\r\n`;
  const chunk = (s: string) => `${Buffer.byteLength(s, 'latin1').toString(16)}\r\n${s}\r\n`;

  it('takes a body that has arrived whole, in one piece or several chunks, byte for byte', async () => {
    const bytes = 'é\u00ff{"a":1}\r\n\u0000end';
    seen.length = 0;
    assert.ok((await send([head('/wait', `Content-Length: ${bytes.length}\r\n`) + bytes])).endsWith(`\r\n\r\n${bytes}`));
    assert.ok((await send([head('/wait', 'Transfer-Encoding: chunked\r\n') + chunk('abc') + chunk('de\r\nf') + chunk('g') + '0\r\n\r\n'])).endsWith('\r\n\r\nabcde\r\nfg'));
    assert.ok((await send([head('/wait', 'Content-Length: 0\r\n')])).includes('\r\n\r\n'));
    assert.deepEqual(seen.map((s) => [s.complete, s.body, s.atOnce]), [[true, bytes, true], [true, 'abcde\r\nfg', true], [true, '', true]]);
  });

  it('reads a body still arriving the same way', async () => {
    seen.length = 0;
    const answer = await send([head('/now', 'Content-Length: 10\r\n') + '01234', '56789'], 50);
    assert.ok(answer.endsWith('\r\n\r\n0123456789'), answer);
    assert.deepEqual(seen.map((s) => [s.complete, s.body, s.atOnce]), [[false, '0123456789', false]]);
  });

  it('refuses a chunked body past the limit with 413, arrived whole or not', async () => {
    seen.length = 0;
    const big = 'x'.repeat(LIMIT + 1);
    await send([head('/wait', 'Transfer-Encoding: chunked\r\n') + chunk(big) + '0\r\n\r\n']);
    await send([head('/now', 'Transfer-Encoding: chunked\r\n') + chunk('x'.repeat(LIMIT)), chunk('y') + '0\r\n\r\n'], 50);
    assert.deepEqual(seen.map((s) => [s.complete, s.code]), [[true, 413], [false, 413]]);
  });

  it('takes a Content-Length body whose bytes are all in before the parser has completed the message, and the stream still ends', async () => {
    // The state plat's handler meets: the body pushed, the message's end not yet.
    const req = new http.IncomingMessage(new net.Socket());
    req.headers = { 'content-length': '5' };
    req.push(Buffer.from('hel'));
    req.push(Buffer.from('lo'));
    const ended = once(req, 'end');
    const body = await Promise.race([readBody(req, undefined, LIMIT), sleep(500).then(() => 'still waiting')]);
    assert.equal(body.toString(), 'hello');
    req.push(null);
    await ended;
  });
});
