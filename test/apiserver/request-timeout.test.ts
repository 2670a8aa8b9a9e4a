// --request-timeout as upstream's WithRequestDeadline and WithTimeoutForNonLongRunningRequests: a
// request that takes longer (here: a validating admission plugin that does not answer) gets 504
// Timeout while the work goes on (its write refused once the deadline has passed, as etcd's client
// refuses a call whose context has expired), counted in apiserver_request_terminations_total; the URL's `timeout=` shortens it (what kubectl --request-timeout
// sends), a bad one is 400; watches are long-running and not cut. Seen by fetch and by kubectl.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseDuration } from '../../core/flags/duration.js';
import { createLogger } from '../../core/log.js';
import { requestTimeoutMs } from '../../core/server/request-deadline.js';
import { fixtures } from '../certificates/fixtures.js';
import { csrObject, csrPath, CSR_PATH } from '../admission/support.js';
import { Kubectl } from '../helpers/kubectl.js';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { WatchStream } from '../helpers/watch-stream.js';
import { logLines } from '../helpers/log-lines.js';
import { holdingPlugin } from './holding-admission.js';

const SIGNER = 'example.com/slow';
// Upstream's baseTimeoutWriter: the Status without kind and apiVersion, sniffed as text/plain.
const TIMEOUT_STATUS = {
  metadata: {}, status: 'Failure',
  message: 'Timeout: request did not complete within the allotted timeout', reason: 'Timeout', details: {}, code: 504,
};

describe('--request-timeout', () => {
  let plat: RunningPlat;
  const hold = holdingPlugin();
  const fx = fixtures();
  const logs = logLines();
  before(async () => { plat = await startInProcess({ args: ['--request-timeout=1s'], plugins: [hold.plugin], logger: createLogger({ write: logs.write }) }); });
  after(async () => { hold.release(); await plat?.stop(); });

  it('answers 504 Timeout past the flag\'s time; the work goes on, but past the deadline it writes nothing', async () => {
    const r = await plat.admin.post(CSR_PATH, csrObject('hold-1', SIGNER, fx.ecCsrPem));
    assert.equal(r.status, 504, r.text);
    assert.deepEqual(JSON.parse(r.text), TIMEOUT_STATUS);
    assert.ok(r.text.endsWith('}\n'), 'encoded as json.Encoder encodes it');
    assert.equal(r.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal((await plat.admin.get(csrPath('hold-1'))).status, 404, 'still held in admission');
    // RecordRequestTermination, as upstream's timeout filter records it.
    const terminated = (await plat.admin.get('/metrics')).text.split('\n').find((l) => l.startsWith('apiserver_request_terminations_total{'));
    assert.equal(terminated, 'apiserver_request_terminations_total{code="504",component="apiserver",group="certificates.platform",resource="certificatesigningrequests",scope="resource",subresource="",verb="POST",version="v1"} 1');
    hold.release();
    // Upstream's handler goes on, but its etcd call carries the request's context, whose deadline
    // has passed: etcd's client refuses it (DeadlineExceeded), nothing is stored. A client that
    // retries a generateName create after its 504 would otherwise get two objects.
    for (let i = 0; i < 20; i++) {
      assert.equal((await plat.admin.get(csrPath('hold-1'))).status, 404, 'stored after the deadline');
      await new Promise((res) => setTimeout(res, 50));
    }
    // As upstream logs it (utilruntime.HandleError): the timeout filter's line once the handler has
    // returned (at once: FinishRequest stops waiting for the work when the context ends), then
    // FinishRequest's once the work ends, with the storage call's refusal.
    assert.match(await logs.waitFor('post-timeout activity - time-elapsed', 'the timeout filter'),
      /^post-timeout activity - time-elapsed: [0-9.]+[µm]?s, POST "\/apis\/certificates\.platform\/v1\/certificatesigningrequests" result: <nil>$/);
    assert.match(await logs.waitFor('FinishRequest: post-timeout activity', 'FinishRequest'),
      /^FinishRequest: post-timeout activity - time-elapsed: [0-9.]+[µm]?s, panicked: false, err: context deadline exceeded, panic-reason: <nil>$/);
    assert.ok(logs.lines.filter((l) => l.includes('post-timeout activity')).every((l) => l.startsWith('E') && l.includes('Unhandled Error')), logs.lines.join('\n'));
    // The same request in time is stored (the plugin lets it through at once now).
    const again = await plat.admin.post(CSR_PATH, csrObject('in-time', SIGNER, fx.ecCsrPem));
    assert.equal(again.status, 201, again.text);
  });

  it('takes a shorter timeout from the URL, and refuses one that does not parse', async () => {
    const r = await plat.admin.post(`${CSR_PATH}?timeout=200ms`, csrObject('hold-2', SIGNER, fx.ecCsrPem));
    assert.equal(r.status, 504, r.text);
    assert.deepEqual(JSON.parse(r.text), TIMEOUT_STATUS);
    hold.release();
    const bad = await plat.admin.get(`${CSR_PATH}?timeout=soon`);
    assert.equal(bad.status, 400, bad.text);
    assert.equal(bad.json.reason, 'BadRequest');
    assert.equal(bad.json.message, 'invalid timeout specified in the request URL - time: invalid duration "soon"');
    // Requests that finish in time are untouched.
    assert.equal((await plat.admin.get(`${CSR_PATH}?timeout=30s`)).status, 200);
  });

  it('does not cut a watch, which is long-running', async () => {
    const w = await WatchStream.open(plat.admin, `${CSR_PATH}?watch=true&timeoutSeconds=4&resourceVersion=0`);
    try {
      await new Promise((r) => setTimeout(r, 1500)); // longer than --request-timeout
      const created = await plat.admin.post(CSR_PATH, csrObject('after-a-while', SIGNER, fx.ecCsrPem));
      assert.equal(created.status, 201, created.text);
      await w.waitFor((e) => e.type === 'ADDED' && e.object.metadata.name === 'after-a-while', 'the watch to deliver the create');
    } finally {
      w.close();
    }
  });

  it('ends a watch with a negative timeoutSeconds at once: only none or 0 takes the random --min-request-timeout', async () => {
    const bound = new Promise<'bound'>((r) => setTimeout(() => r('bound'), 10_000).unref());
    const answer = await Promise.race([plat.admin.get(`${CSR_PATH}?watch=true&timeoutSeconds=-1`), bound]);
    assert.notEqual(answer, 'bound', 'the watch was still open after 10s');
    assert.equal(answer === 'bound' ? 0 : answer.status, 200);
  });

  it('kubectl shows the server\'s Timeout', async () => {
    const file = path.join(tempDir(), 'csr.json');
    writeFileSync(file, JSON.stringify(csrObject('hold-kubectl', SIGNER, fx.ecCsrPem)));
    const r = await new Kubectl(plat.kubeconfig).run(['create', '-f', file]);
    hold.release();
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /Error from server \(Timeout\): error when creating ".*csr\.json": the server was unable to return a response in the time allotted, but may still be processing the request \(post certificatesigningrequests\.certificates\.platform\)\n$/);
  });

  it('the URL\'s timeout: 0 or above the flag\'s means the flag\'s (table)', () => {
    const q = (t?: string) => new URLSearchParams(t === undefined ? '' : `timeout=${t}`);
    for (const [asked, want] of [[undefined, 60_000], ['', 60_000], ['0s', 60_000], ['-5s', 60_000], ['2m', 60_000], ['1m', 60_000], ['59s', 59_000], ['250ms', 250]] as const) {
      assert.equal(requestTimeoutMs(q(asked), parseDuration('1m')), want, `timeout=${asked}`);
    }
  });
});

describe('--request-timeout at start-up', () => {
  it('refuses 0 (upstream takes it and then times out every request); a negative one in upstream\'s words (apiserver/server-run-options)', async () => {
    await assert.rejects(startInProcess({ args: ['--request-timeout=0s'] }), /request-timeout.*must be greater than 0/);
    await assert.rejects(startInProcess({ args: ['--request-timeout=-1s'] }), /--request-timeout can not be negative value/);
  });
});

describe('--request-timeout longer than a Node timer holds (about 24.8 days)', () => {
  let plat: RunningPlat;
  const hold = holdingPlugin();
  const warnings: Error[] = [];
  const onWarning = (w: Error) => { warnings.push(w); };
  before(async () => {
    process.on('warning', onWarning);
    plat = await startInProcess({ args: ['--request-timeout=1000h'], plugins: [hold.plugin] });
  });
  let stopped = false;
  after(async () => { process.removeListener('warning', onWarning); hold.release(); if (!stopped) await plat?.stop(); });

  it('lets a slow request run on instead of answering 504 after 1 ms', async () => {
    let settled = false;
    const created = plat.admin.post(CSR_PATH, csrObject('hold-long', SIGNER, fixtures().ecCsrPem)).finally(() => { settled = true; });
    for (let i = 0; i < 150 && hold.held() === 0 && !settled; i++) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(settled, false, 'answered while admission still held the request');
    hold.release();
    const r = await created;
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(warnings.filter((w) => w.name === 'TimeoutOverflowWarning'), []);
  });

  it('bounds the drain at stop by it too, without a timer that overflows', async () => {
    stopped = true;
    await plat.stop();
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(warnings.filter((w) => w.name === 'TimeoutOverflowWarning'), []);
  });
});
