// A server that answers every watch with 410 (the version expired), as the reflector meets it:
// each list+watch cycle ends in one backoff wait (wait.BackoffUntil), never a re-list at once;
// the lists ask for what client-go's would (resourceVersion 0 and a page limit first, then the
// last version seen unpaged, then the latest paged once that version is gone too).
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { ApiError, RestClient } from '../../core/client/rest-client.js';
import { Informer, isExpiredError, isTooLargeResourceVersionError } from '../../core/controller/informer.js';
import { CSR_RESOURCE as SIGNING_CSR_RESOURCE } from '../../plugins/csrsigning/signing-controller.js';
import { createLogger } from '../../core/log.js';
import { eventually } from '../helpers/kubectl.js';
import { json, startScriptedServer, status, type ScriptedServer, type Step } from '../client/scripted-server.js';
import { RecordingBackoff } from './recording-backoff.js';

const CSRS = { group: 'certificates.platform', version: 'v1', plural: 'certificatesigningrequests', kind: 'CertificateSigningRequest' };
const list = (rv: string): Step => json(200, { metadata: { resourceVersion: rv }, items: [] });
const goneEvent: Step = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(`${JSON.stringify({ type: 'ERROR', object: { kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'too old resource version: 5 (9)', reason: 'Expired', code: 410 } })}\n`);
};
const gone = status(410, 'Expired', 'too old resource version: 5 (9)');

describe('Informer and a server that answers every watch with 410', () => {
  // A server per case: a request the previous case's informer had in flight when it stopped may
  // reach a shared server after the next case began, and be counted there.
  let server: ScriptedServer;
  let client: RestClient;
  beforeEach(async () => { server = await startScriptedServer(); client = new RestClient({ server: server.url }); });
  afterEach(async () => { client.close(); await server.close(); });

  const cases: { name: string; watch: Step; lists: Step[]; listQueries: string[] }[] = [
    { name: 'the watch answered 410', watch: gone, lists: [list('5')], listQueries: ['limit=500&resourceVersion=0', 'resourceVersion=5', 'resourceVersion=5'] },
    { name: 'an ERROR event with code 410', watch: goneEvent, lists: [list('5')], listQueries: ['limit=500&resourceVersion=0', 'resourceVersion=5', 'resourceVersion=5'] },
    {
      name: 'the watch answered 410, then the list from the last version too: listed from the latest at once',
      watch: gone, lists: [list('5'), gone, list('9')], listQueries: ['limit=500&resourceVersion=0', 'resourceVersion=5', '', 'resourceVersion=9'],
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const lists = [...c.lists];
      server.script((req, res, body) => {
        const step = (req.url ?? '').includes('watch=true') ? c.watch : (lists.length > 1 ? lists.shift()! : lists[0]!);
        step(req, res, body);
      });
      const logs: string[] = [];
      const backoff = new RecordingBackoff();
      const inf = new Informer({ client, resource: CSRS, pageSize: 500, backoff, logger: createLogger({ verbosity: 4, write: (l) => logs.push(l) }) });
      const stop = new AbortController();
      const running = inf.run(stop.signal);
      try {
        await eventually(() => server.seen.filter((s) => !s.url.includes('watch=true')).length >= c.listQueries.length, `${c.listQueries.length} lists`);
      } finally {
        stop.abort();
        await running;
      }
      const listed = server.seen.filter((s) => !s.url.includes('watch=true')).map((s) => new URL(s.url, 'http://x').search.slice(1));
      const watches = server.seen.length - listed.length;
      assert.deepEqual(listed.slice(0, c.listQueries.length), c.listQueries);
      // One backoff per list+watch cycle: the list that follows a 410 waits for it.
      assert.ok(backoff.waits.length >= watches - 1 && backoff.waits.length <= watches, `${backoff.waits.length} backoffs for ${watches} watches`);
      assert.deepEqual(backoff.waits.slice(0, 2), [800, 1600]);
      assert.match(logs.join('\n'), /core\/controller\/informer\.ts: watch of \*v1\.CertificateSigningRequest closed with: too old resource version: 5 \(9\)/);
    });
  }
});

// apierrors.IsResourceExpired sees through %w wrappers (errors.As): a list that failed with 410 is
// wrapped in "failed to list ..." and must still be logged as a closed watch at V(4), not as an error.
describe('expired answers seen through wrappers', () => {
  it('isExpiredError and isTooLargeResourceVersionError follow the cause chain', () => {
    const expired = new ApiError(410, 'Expired', 'too old resource version: 1 (5)', {});
    assert.equal(isExpiredError(new Error('failed to list *v1.CertificateSigningRequest', { cause: expired })), true);
    assert.equal(isExpiredError(new Error('outer', { cause: new Error('inner', { cause: expired }) })), true);
    assert.equal(isExpiredError(new Error('failed to list', { cause: new ApiError(500, 'InternalError', 'x', {}) })), false);
    const tooLarge = new ApiError(504, 'Timeout', 'Too large resource version', { message: 'Too large resource version' });
    assert.equal(isTooLargeResourceVersionError(new Error('failed to list', { cause: tooLarge })), true);
  });

  it('the signing controller\'s CSR resource names its kind, so the shared informer it builds first does too', () => {
    assert.equal(SIGNING_CSR_RESOURCE.kind, 'CertificateSigningRequest');
  });
});
