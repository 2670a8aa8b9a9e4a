// The certificate manager's schedule against a fake API client, with the clock, the jitter and
// the sleeps injected (k8s-behaviour §5.7): once it has decided to rotate it retries 2, 4, 8 and
// 16 s apart (jitter 0.1) and then every 32 s without drawing the deadline again; a request whose
// template no longer holds is given up at once; an expired certificate is not put in force.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { whenAborted } from '../../../core/abort-wait.js';
import { CertificateManager } from '../../../core/client/certificate/manager.js';
import type { CertificateTemplate } from '../../../core/client/certificate/request.js';
import { FileStore, keyToPem } from '../../../core/client/certificate/store.js';
import type { RestClient } from '../../../core/client/rest-client.js';
import { createCertificate } from '../../../core/crypto/index.js';
import { createLogger } from '../../../core/log.js';
import { tempDir } from '../../helpers/plat.js';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 0, 1);

/** A store holding a certificate valid from T0 for an hour. */
function storeWithCertificate(): FileStore {
  const key = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
  const { certificatePem } = createCertificate({
    template: { subject: { commonName: 'system:node:n1', organizations: ['system:nodes'] }, notBefore: new Date(T0), notAfter: new Date(T0 + HOUR) },
    publicKey: key, signer: key,
  });
  const store = new FileStore({ dir: tempDir('plat-manager-'), prefix: 'nodeagent-client' });
  store.update(certificatePem, keyToPem(key));
  return store;
}

const template = (ip?: string): CertificateTemplate => ({ commonName: 'system:node:n1', organizations: ['system:nodes'], dnsNames: [], ipAddresses: ip ? [ip] : [] });

function capture() {
  const lines: string[] = [];
  return { lines, logger: createLogger({ write: (l) => lines.push(l) }) };
}

const refused = { request: async () => { throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }); } } as unknown as RestClient;

describe('certificate manager schedule', () => {
  it('retries on upstream\'s backoff until it succeeds, never waiting for a newly drawn deadline', async () => {
    // 75% into the life: the first draw (0.7) is past; a later one (0.88) would be 13% of the life away.
    const draws = [0, 0.9];
    const random = () => draws.length > 1 ? draws.shift()! : draws[0]!;
    const stop = new AbortController();
    const sleeps: number[] = [];
    const { lines, logger } = capture();
    const manager = new CertificateManager({
      name: 'client', store: storeWithCertificate(), signerName: 'platform/apiserver-client-nodeagent', use: 'client', logger,
      template: () => template(), client: () => refused, now: () => new Date(T0 + 0.75 * HOUR), random,
      sleep: async (ms) => { sleeps.push(Math.round(ms)); if (sleeps.length === 7) stop.abort(); },
    });
    await manager.run(stop.signal);
    assert.deepEqual(sleeps, [2180, 4360, 8720, 17440, 32000, 32000, 32000]);
    assert.equal(lines.filter((l) => l.includes('Waiting to rotate certificate')).length, 0, 'no wait for a deadline that has passed');
    assert.equal(lines.filter((l) => l.includes('Rotating certificates')).length, 1, 'one rotation, retried');
    const failures = lines.filter((l) => l.includes('Failed while requesting a signed certificate from the control plane'));
    assert.equal(failures.length, 7);
    assert.match(failures[0]!, /ECONNREFUSED.*retryIn="2.18s"/);
    const limit = lines.findIndex((l) => l.includes('Reached backoff limit, still unable to rotate certs'));
    assert.equal(limit, lines.indexOf(failures[4]!) + 1, 'the limit is reported after the fifth failure');
  });

  it('gives up waiting for a request whose template no longer holds and asks for the new one', { timeout: 3000 }, async () => {
    let ip = '10.0.0.1';
    const posted: Buffer[] = [];
    const stop = new AbortController();
    const { lines, logger } = capture();
    const csr = (n: number) => ({ metadata: { name: `csr-${n}`, uid: `uid-${n}`, resourceVersion: '1' }, status: {} });
    const client = {
      request: async (method: string, _path: string, o: { body?: { spec: { request: string } } }) => {
        if (method === 'POST') {
          posted.push(Buffer.from(Buffer.from(o.body!.spec.request, 'base64').toString().replace(/-----[^-]+-----|\s/g, ''), 'base64'));
          if (posted.length === 2) stop.abort();
          return csr(posted.length);
        }
        return { items: [csr(posted.length)], metadata: { resourceVersion: '1' } };
      },
      async *watch(_r: unknown, o: { signal: AbortSignal }) { await whenAborted(o.signal); },
    } as unknown as RestClient;
    const manager = new CertificateManager({
      name: 'serving', store: new FileStore({ dir: tempDir('plat-manager-'), prefix: 'nodeagent-server' }), signerName: 'platform/nodeagent-serving',
      use: 'serving', logger, template: () => template(ip), client: () => client, templateCheckMs: 5, sleep: async () => {},
    });
    const running = manager.run(stop.signal);
    while (posted.length === 0) await new Promise((r) => setTimeout(r, 5));
    ip = '10.0.0.2';
    await running;
    // The IP SAN as DER: [7] IMPLICIT OCTET STRING of four bytes.
    const san = (a: number) => Buffer.from([0x87, 4, 10, 0, 0, a]);
    assert.ok(posted[0]!.includes(san(1)) && posted[1]!.includes(san(2)), 'the second request is for the new address');
    assert.ok(lines.some((l) => /Certificate request was not signed.*the certificate template changed while waiting for \\"csr-1\\"/.test(l)), lines.join('\n'));
  });

  it('does not put an expired certificate in force', async () => {
    const stop = new AbortController();
    const inForce: unknown[] = [];
    const manager = new CertificateManager({
      name: 'client', store: storeWithCertificate(), signerName: 'platform/apiserver-client-nodeagent', use: 'client', logger: capture().logger,
      template: () => template(), client: () => refused, now: () => new Date(T0 + 2 * HOUR),
      onCurrent: (p) => inForce.push(p), sleep: async () => { stop.abort(); },
    });
    assert.equal(manager.current(), undefined);
    await manager.run(stop.signal);
    assert.deepEqual(inForce, []);
  });
});
