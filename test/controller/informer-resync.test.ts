// When the informer resyncs (client-go's reflector startResync): only from the end of a successful
// list until that ListAndWatch returns. While the server refuses every list the handlers get no
// resync of the stale cache; the reflector's lifecycle lines are logged at upstream's levels.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError, type RestClient } from '../../core/client/rest-client.js';
import { Informer } from '../../core/controller/informer.js';
import { createLogger } from '../../core/log.js';
import { eventually } from '../helpers/kubectl.js';
import { RecordingBackoff } from './recording-backoff.js';

const CSRS = { group: 'certificates.platform', version: 'v1', plural: 'certificatesigningrequests', kind: 'CertificateSigningRequest' };
const csr = { apiVersion: 'certificates.platform/v1', kind: 'CertificateSigningRequest', metadata: { name: 'a', resourceVersion: '5' } };

describe('Informer resync', () => {
  it('no resync while lists fail after the watch broke; lifecycle lines as the reflector\'s', async () => {
    let lists = 0;
    const down = {
      list: async () => {
        if (++lists === 1) return { metadata: { resourceVersion: '5' }, items: [csr] };
        throw new ApiError(503, 'ServiceUnavailable', 'the server is currently unable to handle the request');
      },
      watch: async function* () { throw new ApiError(500, 'InternalError', 'watch broke'); },
    } as unknown as RestClient;
    const logs: string[] = [];
    let resyncs = 0;
    const inf = new Informer({
      client: down, resource: CSRS, resyncMs: 20, backoff: new RecordingBackoff(5),
      logger: createLogger({ verbosity: 4, write: (l) => logs.push(l) }),
      handlers: { update: (a, b) => { if (a === b) resyncs++; } },
    });
    const stop = new AbortController();
    const running = inf.run(stop.signal);
    try {
      await eventually(() => lists >= 3, 'lists failing');
      // Several resync periods with the lists failing.
      await new Promise((r) => setTimeout(r, 150));
    } finally {
      stop.abort();
      await running;
    }
    assert.equal(inf.list().length, 1, 'the stale cache is kept');
    assert.equal(resyncs, 0, 'no resync of a cache no list is keeping up to date');
    const lines = logs.map((l) => l.replace(/^[IWE]\d{4} [\d:.]+ [^\]]*\] /, ''));
    const type = '*v1.CertificateSigningRequest';
    assert.equal(lines[0], `Starting reflector ${type} (20ms) from core/controller/informer.ts`);
    assert.equal(lines[1], `Listing and watching ${type} from core/controller/informer.ts`);
    assert.equal(lines[2], `Caches populated for ${type} from core/controller/informer.ts`);
    assert.equal(lines.filter((l) => l.startsWith('Caches populated')).length, 1, 'one list succeeded');
    assert.equal(lines.filter((l) => l.startsWith('Listing and watching')).length, lists);
    assert.equal(lines.at(-1), `Stopping reflector ${type} (20ms) from core/controller/informer.ts`);
  });
});
