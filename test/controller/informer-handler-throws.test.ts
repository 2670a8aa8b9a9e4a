// A handler that throws (a controller plugin's bug) is logged and passed over, as client-go's
// processorListener passes over a notification its handler panicked on: the other handlers still
// get every event and the cache still syncs (thrown through, the list failed and was retried for
// ever, and every controller waiting for the cache waited for ever).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RestClient } from '../../core/client/rest-client.js';
import { ExponentialBackoff } from '../../core/controller/backoff.js';
import { Informer } from '../../core/controller/informer.js';
import { createLogger } from '../../core/log.js';
import { eventually } from '../helpers/kubectl.js';
import { hang, json, startScriptedServer, type ScriptedServer } from '../client/scripted-server.js';

const CSRS = { group: 'certificates.platform', version: 'v1', plural: 'certificatesigningrequests' };
const csr = (name: string) => ({ apiVersion: 'certificates.platform/v1', kind: 'CertificateSigningRequest', metadata: { name, resourceVersion: '5' } });

describe('Informer handlers that throw', () => {
  let server: ScriptedServer;
  let client: RestClient;
  before(async () => { server = await startScriptedServer(); client = new RestClient({ server: server.url }); });
  after(async () => { client.close(); await server.close(); });

  it('are logged and passed over: the other handlers get every object and the cache syncs', async () => {
    server.script(json(200, { metadata: { resourceVersion: '5' }, items: [csr('a'), csr('b')] }), hang);
    const lines: string[] = [];
    const seen: string[] = [];
    const inf = new Informer({
      client, resource: CSRS, backoff: new ExponentialBackoff({ initialMs: 10, jitter: 0 }),
      logger: createLogger({ write: (l) => lines.push(l) }),
      handlers: { add: (o) => { if (o.metadata.name === 'a') throw new Error('plugin bug'); } },
    });
    inf.addHandlers({ add: (o) => seen.push(o.metadata.name ?? '') });
    const stop = new AbortController();
    const running = inf.run(stop.signal);
    try {
      await eventually(() => inf.hasSynced, 'the cache to sync');
      assert.deepEqual(seen, ['a', 'b']);
      assert.equal(server.seen.filter((s) => !s.url.includes('watch=true')).length, 1, 'listed once');
      assert.ok(lines.some((l) => /^E.* Observed a panic panic="plugin bug" panicGoValue="Error\{message:\\"plugin bug\\"\}" stacktrace="Error: plugin bug/.test(l)), lines.join('\n'));
    } finally {
      stop.abort();
      await running;
    }
  });
});
