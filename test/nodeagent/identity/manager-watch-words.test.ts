// The certificate manager's lines for its CSR wait's failures after the first list, as client-go
// v1.32's reflector (DefaultWatchErrorHandler through utilruntime.HandleError) writes them, in
// client-go's words for a request that got no answer: a failed watch is `Unhandled Error
// err="<reflector>: Failed to watch *v1.CertificateSigningRequest: Get \"<url>\": dial tcp ..."`,
// a failed relist is warned of (`<reflector>: failed to list ...`) and then the same line with
// `failed to list *v1.CertificateSigningRequest: ...` as its error. Not Node's text, nor a
// `Failed to watch` of plat's own.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CertificateManager } from '../../../core/client/certificate/manager.js';
import { FileStore } from '../../../core/client/certificate/store.js';
import type { RestClient } from '../../../core/client/rest-client.js';
import { createLogger } from '../../../core/log.js';
import { eventually } from '../../helpers/kubectl.js';
import { tempDir } from '../../helpers/plat.js';

const API = 'https://10.0.0.1:6443';
const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';
/** A request that got no answer, as the REST client rejects: its code, method and URL. */
const noRoute = (method: string, url: string) =>
  Object.assign(new Error('connect EHOSTUNREACH 10.0.0.1:6443'), { code: 'EHOSTUNREACH', syscall: 'connect', method, url });

/** Creates the CSR and lists it once (not issued); every later list and every watch fails. */
function failingAfterFirstList(): RestClient {
  const csr = { metadata: { name: 'csr-1', uid: 'uid-1', resourceVersion: '1' }, status: {} };
  let lists = 0;
  return {
    request: async (method: string) => {
      if (method === 'POST') return csr;
      if (lists++ === 0) return { items: [csr], metadata: { resourceVersion: '1' } };
      throw noRoute('GET', `${API}${CSRS}?fieldSelector=metadata.name%3Dcsr-1`);
    },
    async *watch() { throw noRoute('GET', `${API}${CSRS}?watch=true`); },
  } as unknown as RestClient;
}

describe('certificate manager, its CSR wait failing after the first list', () => {
  it('logs the reflector\'s lines in client-go\'s words', async () => {
    const lines: string[] = [];
    const stop = new AbortController();
    const manager = new CertificateManager({
      store: new FileStore({ dir: tempDir('plat-manager-'), prefix: 'nodeagent-client' }), signerName: 'platform/apiserver-client-nodeagent', use: 'client',
      logger: createLogger({ verbosity: 2, write: (l) => lines.push(l) }),
      template: () => ({ commonName: 'system:node:n1', organizations: ['system:nodes'], dnsNames: [], ipAddresses: [] }),
      client: () => failingAfterFirstList(), sleep: async () => { stop.abort(); },
    });
    const running = manager.run(stop.signal);
    const watchFailed = 'Unhandled Error err="core/certificates/csr-wait.ts: Failed to watch *v1.CertificateSigningRequest: '
      + `Get \\"${API}${CSRS}?watch=true\\": dial tcp 10.0.0.1:6443: connect: no route to host"`;
    const listFailed = `core/certificates/csr-wait.ts: failed to list *v1.CertificateSigningRequest: Get "${API}${CSRS}?fieldSelector=metadata.name%3Dcsr-1": dial tcp 10.0.0.1:6443: connect: no route to host`;
    try {
      await eventually(() => lines.some((l) => l.includes('failed to list')), 'a failed relist', 60, 100);
    } finally {
      stop.abort();
      await running;
    }
    assert.ok(lines.some((l) => /^E/.test(l) && l.endsWith(`] ${watchFailed}`)), lines.join('\n'));
    assert.ok(lines.some((l) => /^W/.test(l) && l.endsWith(`] ${listFailed}`)), lines.join('\n'));
    assert.ok(lines.some((l) => /^E/.test(l) && l.endsWith(`] Unhandled Error err=${JSON.stringify(`core/certificates/csr-wait.ts: Failed to watch *v1.CertificateSigningRequest: ${listFailed.replace('core/certificates/csr-wait.ts: ', '')}`)}`)), lines.join('\n'));
    assert.ok(!lines.some((l) => l.includes('EHOSTUNREACH')), lines.join('\n'));
  });
});

/**
 * Lists the unissued CSR; each watch ends with the ERROR event `events` gives for it (in turn),
 * then the watch after them hangs until stopped. Counts lists and watches and their versions.
 */
function watchEndingWith(events: object[], counts: { lists: number; watchVersions: string[] }): RestClient {
  const csr = { metadata: { name: 'csr-1', uid: 'uid-1', resourceVersion: '1' }, status: {} };
  return {
    request: async (method: string) => {
      if (method === 'POST') return csr;
      counts.lists++;
      return { items: [csr], metadata: { resourceVersion: String(counts.lists) } };
    },
    async *watch(_r: unknown, o: { resourceVersion: string; signal: AbortSignal }) {
      counts.watchVersions.push(o.resourceVersion);
      const ev = events[counts.watchVersions.length - 1];
      if (ev) { yield { type: 'ERROR', object: ev }; return; }
      await new Promise((r) => o.signal.addEventListener('abort', r, { once: true }));
    },
  } as unknown as RestClient;
}

describe('certificate manager, its CSR wait\'s watch ended by an ERROR event', () => {
  const status = (code: number, reason: string, message: string) => ({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code, reason, message });

  it('warns as the reflector\'s watch loop does (no error handler), backs off a 429 and lists again after anything else', async () => {
    const lines: string[] = [];
    const counts = { lists: 0, watchVersions: [] as string[] };
    const stop = new AbortController();
    const manager = new CertificateManager({
      store: new FileStore({ dir: tempDir('plat-manager-'), prefix: 'nodeagent-client' }), signerName: 'platform/apiserver-client-nodeagent', use: 'client',
      logger: createLogger({ verbosity: 2, write: (l) => lines.push(l) }),
      template: () => ({ commonName: 'system:node:n1', organizations: ['system:nodes'], dnsNames: [], ipAddresses: [] }),
      client: () => watchEndingWith([status(429, 'TooManyRequests', 'too many requests'), status(500, 'InternalError', 'etcdserver: request timed out')], counts),
      sleep: async () => {},
    });
    const running = manager.run(stop.signal);
    try {
      await eventually(() => counts.watchVersions.length >= 3, 'a third watch', 100, 50);
    } finally {
      stop.abort();
      await running;
    }
    // The 429 is watched again from the same version; the 500 is listed again and watched from the new list.
    assert.deepEqual(counts.watchVersions.slice(0, 3), ['1', '1', '2']);
    assert.equal(counts.lists, 2);
    assert.ok(lines.some((l) => /^I/.test(l) && l.endsWith('] core/certificates/csr-wait.ts: watch of *v1.CertificateSigningRequest returned 429 - backing off')), lines.join('\n'));
    assert.ok(lines.some((l) => /^W/.test(l) && l.endsWith('] core/certificates/csr-wait.ts: watch of *v1.CertificateSigningRequest ended with: etcdserver: request timed out')), lines.join('\n'));
    assert.ok(!lines.some((l) => l.includes('Failed to watch') || l.includes('watch failed')), lines.join('\n'));
  });
});
