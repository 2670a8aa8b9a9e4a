// A write whose HTTP/1.1 body is still arriving when its deadline passes gives its max-in-flight
// seat back: the 504 is answered, the body is given up and its connection closed (as Go's server
// closes a connection whose body it did not read), so the handler returns. Before, Node's parser
// let go of the finished request and its body never ended: the seat stayed taken, and with
// --max-mutating-requests-inflight=1 every later write of a user outside system:masters was 429
// until restart.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import tls from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { fixtures } from '../certificates/fixtures.js';
import { csrObject, CSR_PATH } from '../admission/support.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';

const JANE = { 'impersonate-user': 'jane' };

/** POSTs a CSR body of which only the first bytes are sent; resolves with what came back and whether the server closed. */
function slowPost(plat: RunningPlat): Promise<{ head: string; closedByServer: boolean }> {
  const pki = path.join(plat.dataDir, 'pki');
  const url = new URL(plat.url);
  const body = JSON.stringify(csrObject('slow', 'example.com/slow', fixtures().ecCsrPem));
  return new Promise((resolve, reject) => {
    let answer = '';
    const s = tls.connect({
      host: url.hostname, port: Number(url.port), ALPNProtocols: ['http/1.1'],
      ca: readFileSync(path.join(pki, 'ca.crt')), cert: readFileSync(path.join(pki, 'admin.crt')), key: readFileSync(path.join(pki, 'admin.key')),
    }, () => {
      s.write(`POST ${CSR_PATH}?timeout=1s HTTP/1.1\r\nHost: ${url.host}\r\nImpersonate-User: jane\r\nContent-Type: application/json\r\n`
        + `Content-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`);
    });
    // The client never sends the rest; a bound on the test, far past the 1 s deadline.
    const giveUp = setTimeout(() => { s.destroy(); resolve({ head: answer.split('\r\n')[0]!, closedByServer: false }); }, 15_000);
    s.on('data', (d) => { answer += d.toString('latin1'); });
    s.on('error', reject);
    s.on('end', () => { clearTimeout(giveUp); resolve({ head: answer.split('\r\n')[0]!, closedByServer: true }); });
  });
}

describe('--max-mutating-requests-inflight=1 and a body still arriving at the deadline', () => {
  let plat: RunningPlat;
  before(async () => { plat = await startInProcess({ args: ['--enable-priority-and-fairness=false', '--max-mutating-requests-inflight=1', '--controllers='] }); });
  after(async () => { await plat?.stop(); });

  it('answers 504, closes the connection, and the seat is free for the next write', async () => {
    const slow = await slowPost(plat);
    assert.equal(slow.head, 'HTTP/1.1 504 Gateway Timeout');
    assert.ok(slow.closedByServer, 'the server closed the connection whose body it gave up');
    const next = await plat.admin.post(CSR_PATH, csrObject('next', 'example.com/slow', fixtures().ecCsrPem), JANE);
    assert.equal(next.status, 201, `the seat was given back: ${next.text}`);
  });
});
