// A client that goes away while its write is in flight, as upstream: net/http cancels the
// request's context (HTTP/1.1: the connection's background read sees it close; HTTP/2: the stream
// is reset), so the timeout filter and FinishRequest stop waiting as they do at the deadline, the
// work goes on, its storage call fails with `context canceled` (etcd's client hands back ctx.Err())
// and nothing is stored; both post-timeout lines are logged. The client hears nothing: it is gone.
// A watch, long-running, is not touched by any of it.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import http2 from 'node:http2';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import tls from 'node:tls';
import { createLogger } from '../../core/log.js';
import { fixtures } from '../certificates/fixtures.js';
import { csrObject, csrPath, CSR_PATH } from '../admission/support.js';
import { connectH2 } from '../helpers/http2-client.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { logLines } from '../helpers/log-lines.js';
import { holdingPlugin } from './holding-admission.js';

const SIGNER = 'example.com/slow';

describe('a client that goes away while its create is held in admission', () => {
  let plat: RunningPlat;
  const hold = holdingPlugin();
  const fx = fixtures();
  const logs = logLines();
  let creds: { ca: string; cert: string; key: string };
  before(async () => {
    plat = await startInProcess({ plugins: [hold.plugin], logger: createLogger({ write: logs.write }) });
    const pki = path.join(plat.dataDir, 'pki');
    creds = { ca: readFileSync(path.join(pki, 'ca.crt'), 'utf8'), cert: readFileSync(path.join(pki, 'admin.crt'), 'utf8'), key: readFileSync(path.join(pki, 'admin.key'), 'utf8') };
  });
  after(async () => { hold.release(); await plat?.stop(); });

  const until = async (done: () => boolean, what: string) => {
    for (let i = 0; i < 100 && !done(); i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(done(), `${what} within 5 s`);
  };

  const finishLines = () => logs.lines.filter((l) => l.includes('FinishRequest: post-timeout activity')).map((l) => JSON.parse(l.slice(l.indexOf(' err=') + 5)) as string);
  const filterLines = () => logs.lines.filter((l) => l.includes(' err="post-timeout activity')).map((l) => JSON.parse(l.slice(l.indexOf(' err=') + 5)) as string);

  /**
   * Lets the held create go on once the server has seen its client go (the timeout filter's line;
   * old code never logs it, so the wait is bounded and not asserted: the store's answer is what
   * tells), and waits (bounded) until the create has ended: stored, or its end logged.
   */
  async function releaseAndSettle(name: string, logged: number): Promise<boolean> {
    for (let i = 0; i < 100 && filterLines().length <= logged; i++) await new Promise((r) => setTimeout(r, 50));
    hold.release();
    for (let i = 0; i < 100; i++) {
      if ((await plat.admin.get(csrPath(name))).status === 200) return true;
      if (finishLines().length > logged) return false;
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.fail(`the held create of ${name} neither stored nor logged within 5 s`);
  }

  it('HTTP/1.1, its connection closed: nothing is stored, and what upstream logs is logged', async () => {
    const body = JSON.stringify(csrObject('hold-gone-h1', SIGNER, fx.ecCsrPem));
    const socket = tls.connect({ host: '127.0.0.1', port: Number(new URL(plat.url).port), ...creds, ALPNProtocols: ['http/1.1'] });
    await once(socket, 'secureConnect');
    const heard: Buffer[] = [];
    socket.on('data', (c: Buffer) => heard.push(c));
    socket.write(`POST ${CSR_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    const heldBefore = hold.held();
    await until(() => hold.held() > heldBefore, 'the create held in admission');
    socket.destroy();
    const stored = await releaseAndSettle('hold-gone-h1', 0);
    assert.equal(stored, false, 'stored after its client had gone');
    assert.equal(Buffer.concat(heard).length, 0, 'answered before it went away');
    // The timeout filter's line comes once the handler returns: at once, FinishRequest having
    // stopped waiting; FinishRequest's once the work has ended.
    assert.match(await logs.waitFor('post-timeout activity - time-elapsed', 'the timeout filter'),
      /^post-timeout activity - time-elapsed: [0-9.]+[µm]?s, POST "\/apis\/certificates\.platform\/v1\/certificatesigningrequests" result: <nil>$/);
    assert.deepEqual(finishLines().map((l) => l.replace(/time-elapsed: \S+,/, 'time-elapsed: D,')),
      ['FinishRequest: post-timeout activity - time-elapsed: D, panicked: false, err: context canceled, panic-reason: <nil>']);
    const at = (text: string) => logs.lines.findIndex((l) => l.includes(text));
    assert.ok(at('err="post-timeout activity') < at('FinishRequest: post-timeout activity'), logs.lines.join('\n'));
  });

  it('HTTP/2, its stream reset: nothing is stored, and what upstream logs is logged', async () => {
    const session = await connectH2(plat.url, creds);
    try {
      const before = filterLines().length;
      const heldBefore = hold.held();
      const stream = session.request({ ':method': 'POST', ':path': CSR_PATH, 'content-type': 'application/json' });
      stream.on('error', () => {});
      stream.end(JSON.stringify(csrObject('hold-gone-h2', SIGNER, fx.ecCsrPem)));
      await until(() => hold.held() > heldBefore, 'the create held in admission');
      stream.close(http2.constants.NGHTTP2_CANCEL);
      const stored = await releaseAndSettle('hold-gone-h2', 1);
      assert.equal(stored, false, 'stored after its client had gone');
      assert.equal(filterLines().length, before + 1, logs.lines.join('\n'));
      assert.equal(finishLines()[1]?.replace(/time-elapsed: \S+,/, 'time-elapsed: D,'),
        'FinishRequest: post-timeout activity - time-elapsed: D, panicked: false, err: context canceled, panic-reason: <nil>');
    } finally {
      session.destroy();
    }
  });

  it('a create whose client stays is stored, and a watch whose client goes is logged as nothing', async () => {
    const before = logs.lines.filter((l) => l.includes('post-timeout')).length;
    const socket = tls.connect({ host: '127.0.0.1', port: Number(new URL(plat.url).port), ...creds, ALPNProtocols: ['http/1.1'] });
    await once(socket, 'secureConnect');
    socket.write(`GET ${CSR_PATH}?watch=true HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    await once(socket, 'data');
    socket.destroy();
    const created = await plat.admin.post(CSR_PATH, csrObject('stays', SIGNER, fx.ecCsrPem));
    assert.equal(created.status, 201, created.text);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(logs.lines.filter((l) => l.includes('post-timeout')).length, before, logs.lines.join('\n'));
  });
});
