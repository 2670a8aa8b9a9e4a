// client-go's retries (rest/with_retry.go) in the REST client: an answer of 429 or 5xx with a
// Retry-After is tried again after that many seconds, at most 10 times, writes too (the body sent
// again); a GET whose connection broke before the answer is tried again; nothing else is. Opening a
// watch is retried alike, and a watch whose connection breaks ends as the server ending it would.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ApiError, RestClient } from '../../core/client/rest-client.js';
import { CSR_RESOURCE } from '../../core/certificates/csr-object.js';
import { createLogger } from '../../core/log.js';
import { json, reset, startScriptedServer, status, type ScriptedServer, type Step } from './scripted-server.js';

const OBJ = { apiVersion: 'certificates.platform/v1', kind: 'CertificateSigningRequest', metadata: { name: 'a', resourceVersion: '5' } };
const ok = json(200, OBJ);
const again = (code: number, reason: string) => status(code, reason, `${reason} now`, { 'retry-after': '0' });

describe('REST client retries', () => {
  let server: ScriptedServer;
  let client: RestClient;
  before(async () => { server = await startScriptedServer(); client = new RestClient({ server: server.url }); });
  after(async () => { client.close(); await server.close(); });

  const cases: { name: string; method: 'GET' | 'PUT' | 'POST'; steps: Step[]; sent: number; fails?: RegExp }[] = [
    { name: '429 with Retry-After, twice, then the answer', method: 'GET', steps: [again(429, 'TooManyRequests'), again(429, 'TooManyRequests'), ok], sent: 3 },
    { name: '503 with Retry-After, then the answer', method: 'GET', steps: [again(503, 'ServiceUnavailable'), ok], sent: 2 },
    { name: 'a write answered 429 with Retry-After is sent again, body and all', method: 'PUT', steps: [again(429, 'TooManyRequests'), ok], sent: 2 },
    { name: '500 without Retry-After is final', method: 'GET', steps: [status(500, 'InternalError', 'boom'), ok], sent: 1, fails: /boom/ },
    { name: '409 with Retry-After is final (only 429 and 5xx wait)', method: 'PUT', steps: [status(409, 'Conflict', 'changed', { 'retry-after': '0' }), ok], sent: 1, fails: /changed/ },
    { name: 'a Retry-After that is a date is no number of seconds: final', method: 'GET', steps: [status(503, 'ServiceUnavailable', 'later', { 'retry-after': 'Wed, 21 Oct 2015 07:28:00 GMT' }), ok], sent: 1, fails: /later/ },
    { name: 'at most 10 retries: 11 requests', method: 'GET', steps: [again(429, 'TooManyRequests')], sent: 11, fails: /TooManyRequests now/ },
    { name: 'a GET whose connection is dropped is sent again', method: 'GET', steps: [reset, ok], sent: 2 },
    { name: 'a POST whose connection is dropped is not (it may have landed)', method: 'POST', steps: [reset, ok], sent: 1, fails: /socket hang up/ },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      server.script(...c.steps);
      const call = c.method === 'GET' ? client.get(CSR_RESOURCE, 'a')
        : c.method === 'PUT' ? client.update(CSR_RESOURCE, OBJ) : client.create(CSR_RESOURCE, OBJ);
      if (c.fails) await assert.rejects(call, c.fails);
      else assert.deepEqual(await call, OBJ);
      assert.equal(server.seen.length, c.sent, JSON.stringify(server.seen));
      if (c.method !== 'GET') for (const s of server.seen) assert.deepEqual(JSON.parse(s.body), OBJ);
    });
  }

  it('says each retry at V(4) as client-go\'s withRetry.Before does', async () => {
    const lines: string[] = [];
    const logged = new RestClient({ server: server.url }, { logger: createLogger({ verbosity: 4, write: (l) => lines.push(l) }) });
    try {
      server.script(again(503, 'ServiceUnavailable'), reset, ok);
      assert.deepEqual(await logged.get(CSR_RESOURCE, 'a'), OBJ);
      const url = new URL('/apis/certificates.platform/v1/certificatesigningrequests/a', server.url).href;
      assert.deepEqual(lines.map((l) => l.replace(/^.*\] /, '')), [
        `Got a Retry-After 0s response for attempt 1 to ${url}`,
        `Got a Retry-After 1s response for attempt 2 to ${url}`,
      ]);
    } finally { logged.close(); }
  });

  it('the wait a server asks for ends when the caller gives up', async () => {
    server.script(status(429, 'TooManyRequests', 'slow down', { 'retry-after': '600' }), ok);
    const stop = new AbortController();
    const call = client.get(CSR_RESOURCE, 'a', undefined, { signal: stop.signal });
    const check = assert.rejects(call, (e: Error) => e.name === 'AbortError' || /aborted/.test(e.message));
    for (let i = 0; i < 100 && server.seen.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    stop.abort();
    await check;
    assert.equal(server.seen.length, 1);
  });

  it('opening a watch: retried after 429 with Retry-After and after a dropped connection', async () => {
    const event = (_req: unknown, res: import('node:http').ServerResponse) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`${JSON.stringify({ type: 'ADDED', object: OBJ })}\n`);
    };
    server.script(again(429, 'TooManyRequests'), reset, event);
    const got = [];
    for await (const ev of client.watch(CSR_RESOURCE, { resourceVersion: '1' })) got.push(ev.type);
    assert.deepEqual(got, ['ADDED']);
    assert.equal(server.seen.length, 3);
  });

  it('a watch whose connection breaks mid-stream ends with what it received, no error', async () => {
    server.script((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`${JSON.stringify({ type: 'ADDED', object: OBJ })}\n{"type":"MODI`, () => setTimeout(() => req.socket.destroy(), 20));
    });
    const got = [];
    for await (const ev of client.watch(CSR_RESOURCE, { resourceVersion: '1' })) got.push(ev.type);
    assert.deepEqual(got, ['ADDED']);
  });

  it('a watch refused with 429 and no Retry-After is the caller\'s to handle', async () => {
    server.script(status(429, 'TooManyRequests', 'slow down'));
    const w = client.watch(CSR_RESOURCE, { resourceVersion: '1' });
    await assert.rejects(w.next(), (e: unknown) => e instanceof ApiError && e.code === 429 && e.reason === 'TooManyRequests');
  });
});
