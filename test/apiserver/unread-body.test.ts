// A request answered before its body was read (a bad token's 401) with 256 KiB or more still to
// come: the connection is closed after the answer, as net/http closes it, instead of waiting for
// the client to send its declared megabytes a byte at a time.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import tls from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';

describe('a request body left unread', () => {
  let plat: RunningPlat;
  before(async () => { plat = await startInProcess({ args: ['--controllers='] }); });
  after(async () => { await plat?.stop(); });

  /** Sends the head and `sent` bytes of a body of `length`; resolves with the answer and whether the server then closed. */
  async function post(length: number, sent: number): Promise<{ answer: string; closed: boolean }> {
    const u = new URL(plat.url);
    const socket = tls.connect({ host: u.hostname, port: Number(u.port), ca: plat.admin.creds.ca, ALPNProtocols: ['http/1.1'] });
    await once(socket, 'secureConnect');
    let answer = '';
    socket.on('data', (d: Buffer) => { answer += d.toString(); });
    const ended = new Promise<boolean>((resolve) => {
      const t = setTimeout(() => resolve(false), 5000);
      socket.once('close', () => { clearTimeout(t); resolve(true); });
    });
    socket.write([
      'POST /apis/authorization.platform/v1/selfsubjectaccessreviews HTTP/1.1', `Host: ${u.host}`, 'Authorization: Bearer bogus',
      'Content-Type: application/json', `Content-Length: ${length}`, '', '',
    ].join('\r\n'));
    socket.write('x'.repeat(sent));
    for (let i = 0; i < 100 && !answer.includes('\r\n\r\n'); i++) await new Promise((r) => setTimeout(r, 50));
    const closed = await ended;
    socket.destroy();
    return { answer, closed };
  }

  it('with a megabyte still owed: 401, then the connection is closed', async () => {
    const r = await post(1_000_000, 100);
    assert.match(r.answer, /^HTTP\/1\.1 401 /);
    assert.match(r.answer, /\r\nConnection: close\r\n/i);
    assert.equal(r.closed, true);
  });

  it('with less than 256 KiB owed: 401, and the connection is kept for the next request', async () => {
    const r = await post(1000, 100);
    assert.match(r.answer, /^HTTP\/1\.1 401 /);
    assert.doesNotMatch(r.answer, /\r\nConnection: close\r\n/i);
    assert.equal(r.closed, false);
  });
});
