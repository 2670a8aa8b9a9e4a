// A long-lived caller signal (a node agent's, a controller manager's) goes with every request it
// makes, a timeout too (heartbeats, lease renewals): once the requests are over, nothing of them
// may stay registered on that signal. AbortSignal.any (node 20) kept one record per request there
// until the signal aborted, which for a process's own signal is never.
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { after, before, describe, it } from 'node:test';
import { abortDependants as dependants } from '../helpers/abort-dependants.js';
import { linkedAbort } from '../../core/client/linked-abort.js';
import { RestClient } from '../../core/client/rest-client.js';
import { json, startScriptedServer, type ScriptedServer } from './scripted-server.js';

const PATH = '/apis/certificates.platform/v1/certificatesigningrequests/a';
const OBJ = { apiVersion: 'certificates.platform/v1', kind: 'CertificateSigningRequest', metadata: { name: 'a', resourceVersion: '5' } };

describe('REST client: the caller\'s signal after requests with a timeout', () => {
  let server: ScriptedServer;
  let client: RestClient;
  before(async () => { server = await startScriptedServer(); client = new RestClient({ server: server.url }); });
  after(async () => { client.close(); await server.close(); });

  it('holds nothing of 50 finished requests (neither a dependant signal nor a listener)', async () => {
    server.script(json(200, OBJ));
    const lifetime = new AbortController();
    for (let i = 0; i < 50; i++) await client.request('GET', PATH, { signal: lifetime.signal, timeoutMs: 30_000 });
    assert.equal(server.seen.length, 50);
    assert.equal(dependants(lifetime.signal), 0);
    assert.equal(getEventListeners(lifetime.signal, 'abort').length, 0);
  });

  it('still ends a request in flight when it aborts', async () => {
    server.script(() => { /* never answers */ });
    const stop = new AbortController();
    const call = client.request('GET', PATH, { signal: stop.signal, timeoutMs: 30_000 });
    const check = assert.rejects(call, (e: Error) => e.name === 'AbortError' || /aborted/.test(e.message));
    for (let i = 0; i < 100 && server.seen.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    stop.abort();
    await check;
    assert.equal(getEventListeners(stop.signal, 'abort').length, 0);
  });

  it('and its own deadline still says context deadline exceeded', async () => {
    server.script(() => { /* never answers */ });
    const caller = new AbortController();
    await assert.rejects(client.request('GET', PATH, { signal: caller.signal, timeoutMs: 50 }), /context deadline exceeded/);
    assert.equal(caller.signal.aborted, false);
    assert.equal(getEventListeners(caller.signal, 'abort').length, 0);
  });
});

describe('linkedAbort', () => {
  it('follows its source with the source\'s reason, one listener for all followers, none after the last unlink', () => {
    const source = new AbortController();
    const a = linkedAbort(source.signal);
    const b = linkedAbort(source.signal);
    assert.equal(getEventListeners(source.signal, 'abort').length, 1);
    a.unlink();
    assert.equal(getEventListeners(source.signal, 'abort').length, 1);
    source.abort(new Error('stop'));
    assert.equal(a.signal.aborted, false);
    assert.equal(b.signal.aborted, true);
    assert.equal((b.signal.reason as Error).message, 'stop');
    b.unlink();
    const c = linkedAbort(new AbortController().signal);
    c.abort(new Error('own'));
    assert.equal((c.signal.reason as Error).message, 'own');
    c.unlink();
  });

  it('an aborted source: aborted at once; unlinking twice is harmless', () => {
    const source = new AbortController();
    source.abort('gone');
    const a = linkedAbort(source.signal);
    assert.equal(a.signal.reason, 'gone');
    a.unlink();
    const live = new AbortController();
    const b = linkedAbort(live.signal);
    b.unlink();
    b.unlink();
    const c = linkedAbort(live.signal);
    assert.equal(getEventListeners(live.signal, 'abort').length, 1);
    c.unlink();
    assert.equal(getEventListeners(live.signal, 'abort').length, 0);
  });
});
