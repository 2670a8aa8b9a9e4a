// The client-side rate limit as client-go's: watches do not wait for it (Request.Watch), requests
// that waited over 50ms say so at V(3) with the request's verb and URL (tryThrottleWithInfo).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RestClient } from '../../core/client/rest-client.js';
import { CSR_RESOURCE } from '../../core/certificates/csr-object.js';
import { createLogger } from '../../core/log.js';
import { eventually } from '../helpers/kubectl.js';
import { json, startScriptedServer, type ScriptedServer } from './scripted-server.js';

const LIST = { metadata: { resourceVersion: '5' }, items: [] };

describe('RestClient rate limit', () => {
  let server: ScriptedServer;
  before(async () => { server = await startScriptedServer(); });
  after(async () => { await server.close(); });

  it('opens a watch at once while a list waits for its token; the list that waited logs it at V(3)', async () => {
    server.script((req, res, body) => {
      if ((req.url ?? '').includes('watch=true')) res.writeHead(200, { 'content-type': 'application/json' }).write('');
      else json(200, LIST)(req, res, body);
    });
    const logs: string[] = [];
    // One token, two a second: the second list waits about half a second.
    const client = new RestClient({ server: server.url }, { qps: 2, burst: 1, logger: createLogger({ verbosity: 3, write: (l) => logs.push(l) }) });
    const stop = new AbortController();
    try {
      await client.list(CSR_RESOURCE, { limit: 1 });
      const second = client.list(CSR_RESOURCE, { resourceVersion: '0', limit: 2 });
      const events = client.watch(CSR_RESOURCE, { resourceVersion: '5', signal: stop.signal });
      const watching = events.next().catch(() => undefined);
      await second;
      await eventually(() => server.seen.length === 3, 'the watch and both lists');
      assert.deepEqual(server.seen.map((s) => s.url.includes('watch=true') ? 'watch' : 'list'), ['list', 'watch', 'list']);
      stop.abort();
      await watching;
    } finally {
      stop.abort();
      client.close();
    }
    const waited = logs.filter((l) => l.includes('Waited for'));
    assert.equal(waited.length, 1, logs.join('\n'));
    const path = '/apis/certificates.platform/v1/certificatesigningrequests';
    assert.match(waited[0]!, new RegExp(`^I.* Waited for \\d+(\\.\\d+)?ms due to client-side throttling, not priority and fairness, request: GET:${server.url.origin}${path}\\?limit=2&resourceVersion=0$`));
  });
});
