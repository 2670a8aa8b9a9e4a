// The certificate manager's schedule against a fake API client, with the clock, the jitter and
// the sleeps injected (k8s-behaviour §5.7): once it has decided to rotate it retries 2, 4, 8 and
// 16 s apart (jitter 0.1) and then every 32 s without drawing the deadline again.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
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
});
