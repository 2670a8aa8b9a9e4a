// What a watch's DELETED event reaches the handlers as (client-go's DeltaFIFO.Delete and
// processDeltas): the object as the event carries it (its final state), and nothing at all for an
// object the cache does not hold (already reported gone, by a relist for one).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RestClient } from '../../core/client/rest-client.js';
import { ExponentialBackoff } from '../../core/controller/backoff.js';
import { Informer } from '../../core/controller/informer.js';
import { eventually } from '../helpers/kubectl.js';
import { startScriptedServer, type ScriptedServer, type Step } from '../client/scripted-server.js';

const CSRS = { group: 'certificates.platform', version: 'v1', plural: 'certificatesigningrequests' };
const csr = (name: string, rv: string, labels: Record<string, string> = {}) =>
  ({ apiVersion: 'certificates.platform/v1', kind: 'CertificateSigningRequest', metadata: { name, resourceVersion: rv, labels } });

const list: Step = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ metadata: { resourceVersion: '5' }, items: [csr('a', '5')] }));
};
/** Deletes of an object never listed and of the listed one (in its final state), then stays open. */
const deletes: Step = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  for (const object of [csr('gone', '6'), csr('a', '7', { final: 'yes' })]) res.write(`${JSON.stringify({ type: 'DELETED', object })}\n`);
};

describe('Informer and DELETED events', () => {
  let server: ScriptedServer;
  let client: RestClient;
  before(async () => { server = await startScriptedServer(); client = new RestClient({ server: server.url }); });
  after(async () => { client.close(); await server.close(); });

  it('a delete of an object the cache does not hold reaches no handler; a delete hands over the final state', async () => {
    server.script((req, res, body) => ((req.url ?? '').includes('watch=true') ? deletes : list)(req, res, body));
    const events: string[] = [];
    const inf = new Informer({
      client, resource: CSRS, backoff: new ExponentialBackoff({ initialMs: 10, jitter: 0 }),
      handlers: { delete: (o) => events.push(`delete ${o.metadata.name} final=${o.metadata.labels?.['final'] ?? 'no'}`) },
    });
    const stop = new AbortController();
    const running = inf.run(stop.signal);
    try {
      await eventually(() => events.length > 0 && inf.list().length === 0, 'a is deleted');
      // The watch's events are applied in order: by the time a's delete is seen, gone's was handled.
      assert.deepEqual(events, ['delete a final=yes']);
    } finally {
      stop.abort();
      await running;
    }
  });
});
