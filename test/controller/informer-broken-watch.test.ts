// The reflector's rules for a watch that breaks (client-go tools/cache/reflector.go watch() and
// StreamWatcher): a connection reset mid-stream ends the watch as the server ending it would, and
// the informer watches again from the last version it saw, without listing; a watch refused with
// 429, or whose connection is refused, is opened again after a backoff, also without listing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RestClient } from '../../core/client/rest-client.js';
import { ExponentialBackoff } from '../../core/controller/backoff.js';
import { Informer } from '../../core/controller/informer.js';
import { eventually } from '../helpers/kubectl.js';
import { startScriptedServer, status, type ScriptedServer, type Step } from '../client/scripted-server.js';

const CSRS = { group: 'certificates.platform', version: 'v1', plural: 'certificatesigningrequests' };
const csr = (name: string, rv: string) => ({ apiVersion: 'certificates.platform/v1', kind: 'CertificateSigningRequest', metadata: { name, resourceVersion: rv } });

const list: Step = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ metadata: { resourceVersion: '5' }, items: [csr('a', '5')] }));
};
/** One event, then the connection is reset. */
const addThenReset = (name: string, rv: string): Step => (req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write(`${JSON.stringify({ type: 'ADDED', object: csr(name, rv) })}\n`, () => setTimeout(() => req.socket.destroy(), 20));
};
/** A watch that stays open with one event. */
const addAndStay = (name: string, rv: string): Step => (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write(`${JSON.stringify({ type: 'ADDED', object: csr(name, rv) })}\n`);
};

describe('Informer and a watch that breaks', () => {
  let server: ScriptedServer;
  let client: RestClient;
  before(async () => { server = await startScriptedServer(); client = new RestClient({ server: server.url }); });
  after(async () => { client.close(); await server.close(); });

  const cases: { name: string; watches: Step[]; rewatchFrom: string; names: string[] }[] = [
    { name: 'a reset mid-stream: watched again from the last version, not re-listed', watches: [addThenReset('b', '6'), addAndStay('c', '7')], rewatchFrom: '6', names: ['a', 'b', 'c'] },
    { name: 'a watch refused with 429 (no Retry-After): backed off, watched again, not re-listed', watches: [status(429, 'TooManyRequests', 'slow down'), addAndStay('c', '7')], rewatchFrom: '5', names: ['a', 'c'] },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const watches = [...c.watches];
      server.script((req, res, body) => {
        const step = (req.url ?? '').includes('watch=true') ? (watches.length > 1 ? watches.shift()! : watches[0]!) : list;
        step(req, res, body);
      });
      const inf = new Informer({ client, resource: CSRS, backoff: new ExponentialBackoff({ initialMs: 10, jitter: 0 }) });
      const stop = new AbortController();
      const running = inf.run(stop.signal);
      try {
        await eventually(() => inf.list().length === c.names.length, `the informer has ${c.names.join(', ')}`);
        assert.deepEqual(inf.list().map((o) => o.metadata.name).sort(), c.names);
        const lists = server.seen.filter((s) => !s.url.includes('watch=true'));
        const watched = server.seen.filter((s) => s.url.includes('watch=true')).map((s) => new URL(s.url, 'http://x').searchParams.get('resourceVersion'));
        assert.equal(lists.length, 1, JSON.stringify(server.seen));
        assert.deepEqual(watched, ['5', c.rewatchFrom]);
      } finally {
        stop.abort();
        await running;
      }
    });
  }
});
