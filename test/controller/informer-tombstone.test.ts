// A delete the informer infers from a relist (the object is in the cache, not in the new list)
// reaches handlers with client-go's DeletedFinalStateUnknown beside the object (delta_fifo.go
// Replace), so a handler can tell it from a watched delete, which carries none.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RestClient } from '../../core/client/rest-client.js';
import { ExponentialBackoff } from '../../core/controller/backoff.js';
import { Informer } from '../../core/controller/informer.js';
import { eventually } from '../helpers/kubectl.js';
import { json, startScriptedServer, status, type ScriptedServer, type Step } from '../client/scripted-server.js';

const CSRS = { group: 'certificates.platform', version: 'v1', plural: 'certificatesigningrequests' };
const csr = (name: string, rv: string) => ({ apiVersion: 'certificates.platform/v1', kind: 'CertificateSigningRequest', metadata: { name, resourceVersion: rv } });

/** The watch deletes a, in its final state, then stays open. */
const deleteA: Step = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write(`${JSON.stringify({ type: 'DELETED', object: csr('a', '9') })}\n`);
};

describe('Informer tombstones', () => {
  let server: ScriptedServer;
  let client: RestClient;
  before(async () => { server = await startScriptedServer(); client = new RestClient({ server: server.url }); });
  after(async () => { client.close(); await server.close(); });

  it('an object a relist lacks is deleted with a tombstone holding its key and last state; a watched delete has none', async () => {
    server.script(
      json(200, { metadata: { resourceVersion: '5' }, items: [csr('a', '5'), csr('b', '5')] }),
      // The watch is refused as expired: the informer lists again, and b is gone from that list.
      status(410, 'Expired', 'too old resource version: 5 (8)'),
      json(200, { metadata: { resourceVersion: '8' }, items: [csr('a', '5')] }),
      deleteA,
    );
    const events: string[] = [];
    const inf = new Informer({
      client, resource: CSRS, backoff: new ExponentialBackoff({ initialMs: 10, jitter: 0 }),
      handlers: {
        delete: (o, tombstone) => events.push(tombstone
          ? `delete ${o.metadata.name}@${o.metadata.resourceVersion} tombstone ${tombstone.key} ${tombstone.obj === o ? 'same' : 'other'}`
          : `delete ${o.metadata.name}@${o.metadata.resourceVersion}`),
      },
    });
    const stop = new AbortController();
    const running = inf.run(stop.signal);
    try {
      await eventually(() => events.length === 2, 'b and a deleted');
      assert.deepEqual(events, ['delete b@5 tombstone b same', 'delete a@9']);
    } finally {
      stop.abort();
      await running;
    }
  });
});
