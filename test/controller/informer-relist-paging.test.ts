// The reflector's paging when the version it relists from is gone (client-go reflector.go list()):
// the pager is set up once, from the first request, so the immediate retry from the latest version
// after a 410 is as unpaginated as the relist from a known version was; a first list the server
// paged stays paged even when its continuation expired and it was listed whole (pager.List reports
// a paginated result once it asked for a second page).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RestClient } from '../../core/client/rest-client.js';
import { ExponentialBackoff } from '../../core/controller/backoff.js';
import { Informer } from '../../core/controller/informer.js';
import { eventually } from '../helpers/kubectl.js';
import { startScriptedServer, status, type ScriptedServer, type Step } from '../client/scripted-server.js';

const CSRS = { group: 'certificates.platform', version: 'v1', plural: 'certificatesigningrequests' };
const csr = (name: string, rv: string) => ({ apiVersion: 'certificates.platform/v1', kind: 'CertificateSigningRequest', metadata: { name, resourceVersion: rv } });
const listAt = (rv: string): Step => (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ metadata: { resourceVersion: rv }, items: [csr('a', rv)] }));
};
const expiredEvent: Step = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(`${JSON.stringify({ type: 'ERROR', object: { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Expired', code: 410, message: 'too old resource version: 5 (8)' } })}\n`);
};
const stayOpen: Step = (_req, res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.write(''); };

describe('Informer relist after an expired version', () => {
  let server: ScriptedServer;
  let client: RestClient;
  before(async () => { server = await startScriptedServer(); client = new RestClient({ server: server.url }); });
  after(async () => { client.close(); await server.close(); });

  /** Runs an informer against the scripted answers until its second watch; each list's query. */
  async function listsUntilSecondWatch(lists: Step[], watches: Step[]): Promise<string[]> {
    server.script((req, res, body) => {
      const queue = (req.url ?? '').includes('watch=true') ? watches : lists;
      (queue.length > 1 ? queue.shift()! : queue[0]!)(req, res, body);
    });
    const inf = new Informer({ client, resource: CSRS, pageSize: 500, backoff: new ExponentialBackoff({ initialMs: 10, jitter: 0 }) });
    const stop = new AbortController();
    const running = inf.run(stop.signal);
    try {
      await eventually(() => server.seen.filter((s) => s.url.includes('watch=true')).length === 2, 'the watch after the relist');
    } finally {
      stop.abort();
      await running;
    }
    return server.seen.filter((s) => !s.url.includes('watch=true')).map((s) => {
      const q = new URL(s.url, 'http://x').searchParams;
      return `resourceVersion=${q.get('resourceVersion') ?? ''} limit=${q.get('limit') ?? ''} continue=${q.get('continue') ?? ''}`;
    });
  }

  it('the retry from the latest keeps the relist\'s page size (none)', async () => {
    const listed = await listsUntilSecondWatch([listAt('5'), status(410, 'Expired', 'too old resource version: 5 (8)'), listAt('9')], [expiredEvent, stayOpen]);
    assert.deepEqual(listed, ['resourceVersion=0 limit=500 continue=', 'resourceVersion=5 limit= continue=', 'resourceVersion= limit= continue=']);
  });

  it('a first list whose continuation expired is still a paginated result: later relists page too', async () => {
    const page1: Step = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ metadata: { resourceVersion: '4', continue: 'tok' }, items: [csr('a', '4')] }));
    };
    const listed = await listsUntilSecondWatch(
      [page1, status(410, 'Expired', 'The provided continue parameter is too old'), listAt('5'), listAt('9')], [expiredEvent, stayOpen]);
    assert.deepEqual(listed, ['resourceVersion=0 limit=500 continue=', 'resourceVersion= limit=500 continue=tok', 'resourceVersion=0 limit= continue=', 'resourceVersion=5 limit=500 continue=']);
  });
});
